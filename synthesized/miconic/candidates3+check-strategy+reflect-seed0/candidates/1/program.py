# ---- answer 1 ----
def get_plan(objects, init, goal):
    from collections import deque

    floors = sorted(o for (o, t) in objects if t == 'floor')

    above = set()
    origin = {}
    destin = {}
    boarded = set()
    served = set()
    lift = None
    for atom in init:
        pred = atom[0]
        if pred == 'above':
            above.add((atom[1], atom[2]))
        elif pred == 'origin':
            origin[atom[1]] = atom[2]
        elif pred == 'destin':
            destin[atom[1]] = atom[2]
        elif pred == 'boarded':
            boarded.add(atom[1])
        elif pred == 'served':
            served.add(atom[1])
        elif pred == 'lift-at':
            lift = atom[1]

    # Passengers that the goal requires to be served and that are not served yet.
    targets = set(a[1] for a in goal if a[0] == 'served') - served
    # Drop passengers that can never be served: no destination, or not on board and no origin.
    targets = set(p for p in targets
                  if p in destin and (p in boarded or p in origin))

    # Floor height = number of floors below it. This is exact when 'above' is a full order.
    height = {f: 0 for f in floors}
    for (lo, hi) in above:
        height[hi] = height.get(hi, 0) + 1
        height.setdefault(lo, 0)

    # Floors the lift can reach in one step: up along 'above', down against it.
    adj = {}
    for (lo, hi) in above:
        adj.setdefault(lo, []).append((hi, '(up %s %s)' % (lo, hi)))
        adj.setdefault(hi, []).append((lo, '(down %s %s)' % (hi, lo)))

    def move(c, t):
        """Actions that take the lift from c to t ([] if c == t, None if t is unreachable)."""
        if c == t:
            return []
        if (c, t) in above:
            return ['(up %s %s)' % (c, t)]
        if (t, c) in above:
            return ['(down %s %s)' % (c, t)]
        # Fallback in case 'above' is not transitive: breadth-first search over single moves.
        prev = {c: None}
        queue = deque([c])
        while queue:
            x = queue.popleft()
            if x == t:
                break
            for (y, act) in adj.get(x, []):
                if y not in prev:
                    prev[y] = (x, act)
                    queue.append(y)
        if t not in prev:
            return None
        path = []
        x = t
        while prev[x] is not None:
            px, act = prev[x]
            path.append(act)
            x = px
        path.reverse()
        return path

    plan = []
    if lift is None:
        return plan

    def depart_here():
        for p in sorted(boarded & targets):
            if destin[p] == lift:
                plan.append('(depart %s %s)' % (lift, p))
                boarded.discard(p)
                served.add(p)
                targets.discard(p)

    def board_here():
        for p in sorted(targets):
            if p not in boarded and origin.get(p) == lift:
                plan.append('(board %s %s)' % (lift, p))
                boarded.add(p)

    max_iters = 4 * (len(targets) + 1) + 10
    for _ in range(max_iters):
        # Rule 1: let off everyone whose destination is this floor.
        depart_here()
        # Rule 2: board everyone waiting on this floor.
        board_here()
        # Anyone who just boarded with origin == destination gets off right away.
        depart_here()

        if not targets:
            break  # Rule 5: everything is served.

        # Rules 3/4: floors where a useful action is waiting.
        candidates = set()
        for p in targets:
            if p in boarded:
                candidates.add(destin[p])
            else:
                candidates.add(origin[p])

        # Go to the nearest such floor (ties broken by name).
        cur_h = height.get(lift, 0)
        ordered = sorted(candidates,
                         key=lambda f: (abs(height.get(f, 0) - cur_h), f))

        moved = False
        for f in ordered:
            steps = move(lift, f)
            if steps is None:
                continue  # unreachable floor; try the next one
            plan.extend(steps)
            lift = f
            moved = True
            break

        if not moved:
            # None of the remaining passengers can be reached, so stop.
            break

    return plan


# ---- answer 2 ----
def get_plan(objects, init, goal):
    from collections import deque

    floors = set(o for (o, t) in objects if t == 'floor')

    above = set()
    origin = {}
    destin = {}
    boarded = set()
    served = set()
    lifts = set()          # current floors of all lifts (one per lift-at fact)
    for atom in init:
        pred = atom[0]
        if pred == 'above':
            above.add((atom[1], atom[2]))
            floors.add(atom[1])
            floors.add(atom[2])
        elif pred == 'origin':
            origin[atom[1]] = atom[2]
            floors.add(atom[2])
        elif pred == 'destin':
            destin[atom[1]] = atom[2]
            floors.add(atom[2])
        elif pred == 'boarded':
            boarded.add(atom[1])
        elif pred == 'served':
            served.add(atom[1])
        elif pred == 'lift-at':
            lifts.add(atom[1])
            floors.add(atom[1])

    # ---- Buildings = connected components of floors under 'above' (union-find) ----
    parent = {f: f for f in floors}

    def find(x):
        parent.setdefault(x, x)
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            nxt = parent[x]
            parent[x] = root
            x = nxt
        return root

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    for (lo, hi) in above:
        union(lo, hi)

    # Floor height inside its building = number of floors below it.
    height = {f: 0 for f in floors}
    for (lo, hi) in above:
        height[hi] = height.get(hi, 0) + 1

    # One-step moves (used only as a fallback if 'above' is not transitive).
    adj = {}
    for (lo, hi) in above:
        adj.setdefault(lo, []).append((hi, '(up %s %s)' % (lo, hi)))
        adj.setdefault(hi, []).append((lo, '(down %s %s)' % (hi, lo)))

    def move(c, t):
        """Actions taking a lift from c to t ([] if c == t, None if unreachable)."""
        if c == t:
            return []
        if (c, t) in above:
            return ['(up %s %s)' % (c, t)]
        if (t, c) in above:
            return ['(down %s %s)' % (c, t)]
        prev = {c: None}
        queue = deque([c])
        while queue:
            x = queue.popleft()
            if x == t:
                break
            for (y, act) in adj.get(x, []):
                if y not in prev:
                    prev[y] = (x, act)
                    queue.append(y)
        if t not in prev:
            return None
        path = []
        x = t
        while prev[x] is not None:
            px, act = prev[x]
            path.append(act)
            x = px
        path.reverse()
        return path

    # Buildings that contain at least one lift (lifts never leave their building).
    lift_comps = set(find(l) for l in lifts)

    def reachable(f):
        return f is not None and find(f) in lift_comps

    # Passengers that must be served and actually can be served.
    targets = set(a[1] for a in goal if a[0] == 'served') - served
    targets = set(
        p for p in targets
        if reachable(destin.get(p)) and (p in boarded or reachable(origin.get(p)))
    )

    plan = []
    if not lifts:
        return plan

    def act_at_lifts():
        """Do every depart/board that is possible at the current lift positions."""
        changed = True
        while changed:
            changed = False
            for p in sorted(boarded & targets):
                f = destin[p]
                if f in lifts:
                    plan.append('(depart %s %s)' % (f, p))
                    boarded.discard(p)
                    served.add(p)
                    targets.discard(p)
                    changed = True
            for p in sorted(targets):
                if p not in boarded:
                    f = origin.get(p)
                    if f is not None and f in lifts:
                        plan.append('(board %s %s)' % (f, p))
                        boarded.add(p)
                        changed = True

    max_iters = 4 * (len(targets) + 1) + 10
    for _ in range(max_iters):
        act_at_lifts()
        if not targets:
            break

        # Useful floors: destinations of boarded targets, origins of waiting ones.
        candidates = set()
        for p in targets:
            if p in boarded:
                candidates.add(destin[p])
            else:
                candidates.add(origin[p])

        # Closest (lift, floor) pair within the same building.
        best = None
        for f in candidates:
            cf = find(f)
            for l in lifts:
                if l == f or find(l) != cf:
                    continue
                key = (abs(height.get(l, 0) - height.get(f, 0)), f, l)
                if best is None or key < best:
                    best = key
        if best is None:
            break  # nothing reachable remains

        _, f, l = best
        steps = move(l, f)
        if steps is None:
            break
        plan.extend(steps)
        lifts.discard(l)
        lifts.add(f)

    return plan
