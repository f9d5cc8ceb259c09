# ---- answer 1 ----
def get_plan(objects, init, goal):
    from collections import deque

    floors = sorted(o for o, t in objects if t == 'floor')

    above = set()
    origin = {}
    destin = {}
    boarded = set()
    served = set()
    cur = None

    for atom in init:
        if not atom:
            continue
        pred = atom[0]
        if pred == 'above' and len(atom) == 3:
            above.add((atom[1], atom[2]))
        elif pred == 'origin' and len(atom) == 3:
            origin[atom[1]] = atom[2]
        elif pred == 'destin' and len(atom) == 3:
            destin[atom[1]] = atom[2]
        elif pred == 'boarded' and len(atom) == 2:
            boarded.add(atom[1])
        elif pred == 'served' and len(atom) == 2:
            served.add(atom[1])
        elif pred == 'lift-at' and len(atom) == 2:
            cur = atom[1]

    # Make sure every floor named in the atoms is known.
    floor_set = set(floors)
    for a, b in above:
        floor_set.add(a)
        floor_set.add(b)
    for f in list(origin.values()) + list(destin.values()):
        floor_set.add(f)
    if cur is not None:
        floor_set.add(cur)
    floors = sorted(floor_set)

    # Height rank of a floor = number of floors below it.
    # (above a b) means b is higher than a.
    rank = {f: 0 for f in floors}
    for a, b in above:
        if b in rank:
            rank[b] += 1

    plan = []

    def move(target):
        nonlocal cur
        if target is None or cur == target:
            return
        if (cur, target) in above:
            plan.append('(up %s %s)' % (cur, target))
            cur = target
            return
        if (target, cur) in above:
            plan.append('(down %s %s)' % (cur, target))
            cur = target
            return
        # Fallback: shortest path over the above relation.
        prev = {cur: None}
        queue = deque([cur])
        while queue:
            f = queue.popleft()
            if f == target:
                break
            for g in floors:
                if g in prev:
                    continue
                if (f, g) in above:
                    prev[g] = (f, 'up')
                    queue.append(g)
                elif (g, f) in above:
                    prev[g] = (f, 'down')
                    queue.append(g)
        if target not in prev:
            return  # unreachable; nothing sensible to do
        steps = []
        f = target
        while prev[f] is not None:
            p, op = prev[f]
            steps.append('(%s %s %s)' % (op, p, f))
            f = p
        steps.reverse()
        plan.extend(steps)
        cur = target

    def order_floors(fs):
        fs = sorted(set(fs), key=lambda f: (rank.get(f, 0), f))
        if cur is not None and len(fs) > 1:
            rc = rank.get(cur, 0)
            if abs(rc - rank.get(fs[0], 0)) > abs(rc - rank.get(fs[-1], 0)):
                fs.reverse()
        return fs

    goal_passengers = sorted(set(a[1] for a in goal
                                 if a and a[0] == 'served' and len(a) == 2))
    todo = [p for p in goal_passengers if p not in served]

    # Phase 1: board everyone who still needs boarding.
    to_board = [p for p in todo if p not in boarded and p in origin]
    for f in order_floors(origin[p] for p in to_board):
        move(f)
        for p in to_board:
            if origin[p] == f and p not in boarded:
                plan.append('(board %s %s)' % (f, p))
                boarded.add(p)

    # Phase 2: drop everyone off at their destination.
    to_drop = [p for p in todo if p in boarded and p in destin]
    for f in order_floors(destin[p] for p in to_drop):
        move(f)
        for p in to_drop:
            if destin[p] == f and p in boarded and p not in served:
                plan.append('(depart %s %s)' % (f, p))
                boarded.discard(p)
                served.add(p)

    # If the goal also fixes the lift position, go there at the end.
    for a in goal:
        if a and a[0] == 'lift-at' and len(a) == 2:
            move(a[1])
            break

    return plan


# ---- answer 2 ----
def get_plan(objects, init, goal):
    from collections import deque, defaultdict

    floor_set = set(o for o, t in objects if t == 'floor')

    above = set()
    origin = {}
    destin = {}
    boarded = set()
    served = set()
    lifts = set()          # every floor f with (lift-at f); one per building

    for atom in init:
        if not atom:
            continue
        pred = atom[0]
        if pred == 'above' and len(atom) == 3:
            above.add((atom[1], atom[2]))
        elif pred == 'origin' and len(atom) == 3:
            origin[atom[1]] = atom[2]
        elif pred == 'destin' and len(atom) == 3:
            destin[atom[1]] = atom[2]
        elif pred == 'boarded' and len(atom) == 2:
            boarded.add(atom[1])
        elif pred == 'served' and len(atom) == 2:
            served.add(atom[1])
        elif pred == 'lift-at' and len(atom) == 2:
            lifts.add(atom[1])

    # Make sure every floor named in the atoms is known.
    for a, b in above:
        floor_set.add(a)
        floor_set.add(b)
    for f in list(origin.values()) + list(destin.values()) + list(lifts):
        floor_set.add(f)
    for a in goal:
        if a and a[0] == 'lift-at' and len(a) == 2:
            floor_set.add(a[1])
    floors = sorted(floor_set)

    # Buildings = connected components of the 'above' relation (union-find).
    parent = {f: f for f in floors}

    def find(f):
        while parent[f] != f:
            parent[f] = parent[parent[f]]
            f = parent[f]
        return f

    for a, b in above:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    comp_floors = defaultdict(list)
    for f in floors:
        comp_floors[find(f)].append(f)

    # Height rank of a floor = number of floors below it (within its building).
    # (above a b) means b is higher than a.
    rank = {f: 0 for f in floors}
    for a, b in above:
        rank[b] += 1

    # Adjacency for the BFS fallback (in case 'above' is not transitive).
    nbrs = defaultdict(list)
    for a, b in above:
        nbrs[a].append((b, 'up'))
        nbrs[b].append((a, 'down'))

    plan = []

    def move(src, target):
        """Move the lift standing at src to target. Return True on success."""
        if src == target:
            return True
        if src not in lifts:
            return False
        if (src, target) in above:
            steps = [('up', src, target)]
        elif (target, src) in above:
            steps = [('down', src, target)]
        else:
            prev = {src: None}
            queue = deque([src])
            while queue:
                f = queue.popleft()
                if f == target:
                    break
                for g, op in sorted(nbrs[f]):
                    if g not in prev:
                        prev[g] = (f, op)
                        queue.append(g)
            if target not in prev:
                return False
            steps = []
            f = target
            while prev[f] is not None:
                p, op = prev[f]
                steps.append((op, p, f))
                f = p
            steps.reverse()
        for op, a, b in steps:
            plan.append('(%s %s %s)' % (op, a, b))
            lifts.discard(a)
            lifts.add(b)
        return True

    def order_floors(fs, cur):
        fs = sorted(set(fs), key=lambda f: (rank.get(f, 0), f))
        if cur is not None and len(fs) > 1:
            rc = rank.get(cur, 0)
            if abs(rc - rank.get(fs[0], 0)) > abs(rc - rank.get(fs[-1], 0)):
                fs.reverse()
        return fs

    goal_passengers = sorted(set(a[1] for a in goal
                                 if a and a[0] == 'served' and len(a) == 2))
    todo = [p for p in goal_passengers if p not in served]

    # Handle each building separately with its own lift.
    for comp in sorted(comp_floors, key=lambda c: comp_floors[c][0]):
        comp_lifts = sorted(f for f in lifts if find(f) == comp)
        if not comp_lifts:
            continue  # no lift in this building: its passengers cannot be served
        cur = comp_lifts[0]

        def go_to(target):
            nonlocal cur
            if target == cur:
                return True
            if target in lifts:        # a lift is already standing there
                cur = target
                return True
            if move(cur, target):
                cur = target
                return True
            return False

        # Passengers whose whole trip happens in this building.
        mine = []
        for p in todo:
            if p not in destin or find(destin[p]) != comp:
                continue
            if p in boarded:
                mine.append(p)
            elif p in origin and find(origin[p]) == comp:
                mine.append(p)

        # Phase 1: board everyone who still needs boarding.
        to_board = [p for p in mine if p not in boarded]
        for f in order_floors([origin[p] for p in to_board], cur):
            if not go_to(f):
                continue
            for p in to_board:
                if origin[p] == f and p not in boarded:
                    plan.append('(board %s %s)' % (f, p))
                    boarded.add(p)

        # Phase 2: drop everyone off at their destination.
        to_drop = [p for p in mine if p in boarded]
        for f in order_floors([destin[p] for p in to_drop], cur):
            if not go_to(f):
                continue
            for p in to_drop:
                if destin[p] == f and p in boarded and p not in served:
                    plan.append('(depart %s %s)' % (f, p))
                    boarded.discard(p)
                    served.add(p)

    # If the goal also fixes lift positions, move a lift of that building there.
    goal_lifts = sorted(a[1] for a in goal
                        if a and a[0] == 'lift-at' and len(a) == 2)
    for target in goal_lifts:
        if target in lifts:
            continue
        cands = sorted((f for f in lifts if find(f) == find(target)),
                       key=lambda f: (f in goal_lifts, f))
        for src in cands:
            if move(src, target):
                break

    return plan
