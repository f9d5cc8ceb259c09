# ---- answer 1 ----
from collections import deque, defaultdict


def get_plan(objects, init, goal):
    # ---------- parse the problem ----------
    origin, destin = {}, {}
    boarded0, served0 = set(), set()
    lift0 = None
    above = set()                      # (lo, hi): hi is above lo
    for atom in init:
        name = atom[0]
        if name == 'origin':
            origin[atom[1]] = atom[2]
        elif name == 'destin':
            destin[atom[1]] = atom[2]
        elif name == 'boarded':
            boarded0.add(atom[1])
        elif name == 'served':
            served0.add(atom[1])
        elif name == 'lift-at':
            lift0 = atom[1]
        elif name == 'above':
            above.add((atom[1], atom[2]))

    if lift0 is None:
        return []

    # ---------- floor order (height = number of floors below) ----------
    up_edges = defaultdict(set)
    nbr = defaultdict(list)            # floor -> [(other floor, 'up'/'down')]
    for lo, hi in above:
        up_edges[lo].add(hi)
        nbr[lo].append((hi, 'up'))
        nbr[hi].append((lo, 'down'))

    floors = {o for o, t in objects if t == 'floor'}
    floors |= {f for pair in above for f in pair}
    rank = {f: 0 for f in floors}
    for f in floors:                   # transitive closure, so adjacent-only facts work too
        seen, stack = set(), [f]
        while stack:
            x = stack.pop()
            for y in up_edges[x]:
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        for h in seen:
            rank[h] += 1

    # ---------- lift movement ----------
    def move(a, b):
        if a == b:
            return []
        if (a, b) in above:
            return ['(up %s %s)' % (a, b)]
        if (b, a) in above:
            return ['(down %s %s)' % (a, b)]
        # fallback: shortest chain of moves (BFS)
        prev = {a: None}
        queue = deque([a])
        while queue:
            x = queue.popleft()
            if x == b:
                break
            for y, op in nbr[x]:
                if y not in prev:
                    prev[y] = (x, op)
                    queue.append(y)
        if b not in prev:
            raise ValueError('floor %s is unreachable from %s' % (b, a))
        steps, x = [], b
        while prev[x] is not None:
            px, op = prev[x]
            steps.append('(%s %s %s)' % (op, px, x))
            x = px
        return steps[::-1]

    # passengers that still have to be served
    todo = {atom[1] for atom in goal if atom[0] == 'served'} - served0

    # ---------- one plan: sweep in one direction, then back ----------
    def build(sign):
        key = lambda f: sign * rank.get(f, 0)   # sign=+1: up first, -1: down first
        plan = []
        state = {'lift': lift0}
        waiting = {p for p in todo if p not in boarded0 and p in origin}
        riding = {p for p in todo if p in boarded0 and p in destin}

        def go(f):
            plan.extend(move(state['lift'], f))
            state['lift'] = f

        def stop():
            here = state['lift']
            # board everyone waiting here
            for p in sorted(waiting):
                if origin[p] == here:
                    plan.append('(board %s %s)' % (here, p))
                    waiting.discard(p)
                    if p in destin:
                        riding.add(p)
            # let off everyone whose destination is here
            for p in sorted(riding):
                if destin[p] == here:
                    plan.append('(depart %s %s)' % (here, p))
                    riding.discard(p)

        stop()                                  # serve the starting floor

        # go to the "first" origin floor (lowest for up-first)
        if waiting:
            go(min((origin[p] for p in waiting), key=key))
            stop()

        # first sweep: visit origins and destinations beyond the lift in order
        while True:
            cur = key(state['lift'])
            cands = [origin[p] for p in waiting] + [destin[p] for p in riding]
            cands = [f for f in cands if key(f) > cur]
            if not cands:
                break
            go(min(cands, key=key))
            stop()

        # second sweep: drop off the remaining riders in the opposite direction
        while riding:
            cur = key(state['lift'])
            cands = [destin[p] for p in riding if key(destin[p]) < cur]
            if not cands:
                break
            go(max(cands, key=key))
            stop()

        # safety net (only matters if the floor order is not a strict total order)
        while waiting or riding:
            if waiting:
                go(origin[min(waiting)])
            else:
                go(destin[min(riding)])
            stop()

        # in case the goal also fixes the lift's final position
        for atom in goal:
            if atom[0] == 'lift-at':
                go(atom[1])

        return plan

    plan = min(build(1), build(-1), key=len)
    return plan


# ---- answer 2 ----
from collections import deque, defaultdict


def get_plan(objects, init, goal):
    # ---------- parse the problem ----------
    origin, destin = {}, {}
    boarded0, served0 = set(), set()
    lifts0 = set()                     # floors where a lift stands
    above = set()                      # (lo, hi): hi is above lo
    for atom in init:
        name = atom[0]
        if name == 'origin':
            origin[atom[1]] = atom[2]
        elif name == 'destin':
            destin[atom[1]] = atom[2]
        elif name == 'boarded':
            boarded0.add(atom[1])
        elif name == 'served':
            served0.add(atom[1])
        elif name == 'lift-at':
            lifts0.add(atom[1])
        elif name == 'above':
            above.add((atom[1], atom[2]))

    goal_lift = [atom[1] for atom in goal if atom[0] == 'lift-at']

    # ---------- floors, buildings and floor order ----------
    floors = {o for o, t in objects if t == 'floor'}
    floors |= {f for pair in above for f in pair}
    floors |= lifts0 | set(origin.values()) | set(destin.values()) | set(goal_lift)

    up_edges = defaultdict(set)
    nbr = defaultdict(list)            # floor -> [(other floor, 'up'/'down')]
    for lo, hi in above:
        up_edges[lo].add(hi)
        nbr[lo].append((hi, 'up'))
        nbr[hi].append((lo, 'down'))

    # buildings = connected components of the 'above' graph
    comp = {}
    comps = []
    for f in sorted(floors):
        if f in comp:
            continue
        cid = len(comps)
        comp[f] = cid
        members = [f]
        queue = deque([f])
        while queue:
            x = queue.popleft()
            for y, _ in nbr[x]:
                if y not in comp:
                    comp[y] = cid
                    members.append(y)
                    queue.append(y)
        comps.append(members)

    # height of a floor = number of floors below it (within its building)
    rank = {f: 0 for f in floors}
    for f in floors:
        seen, stack = set(), [f]
        while stack:
            x = stack.pop()
            for y in up_edges[x]:
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        for h in seen:
            rank[h] += 1

    # ---------- lift movement (inside one building) ----------
    def move(a, b):
        if a == b:
            return []
        if (a, b) in above:
            return ['(up %s %s)' % (a, b)]
        if (b, a) in above:
            return ['(down %s %s)' % (a, b)]
        # fallback: shortest chain of moves (BFS)
        prev = {a: None}
        queue = deque([a])
        while queue:
            x = queue.popleft()
            if x == b:
                break
            for y, op in nbr[x]:
                if y not in prev:
                    prev[y] = (x, op)
                    queue.append(y)
        if b not in prev:
            raise ValueError('floor %s is unreachable from %s' % (b, a))
        steps, x = [], b
        while prev[x] is not None:
            px, op = prev[x]
            steps.append('(%s %s %s)' % (op, px, x))
            x = px
        return steps[::-1]

    # ---------- passengers still to be served ----------
    todo = {atom[1] for atom in goal if atom[0] == 'served'} - served0
    waiting = {p for p in todo if p not in boarded0}
    riding = {p for p in todo if p in boarded0}
    for p in waiting:
        if p not in origin or p not in destin:
            raise ValueError('passenger %s has no origin/destination' % p)
    for p in riding:
        if p not in destin:
            raise ValueError('passenger %s has no destination' % p)

    lifts = defaultdict(set)           # building -> floors with a lift
    for f in lifts0:
        lifts[comp[f]].add(f)

    # ---------- sweep one building with one lift ----------
    def sweep(c, start, sign, waiting, riding):
        """Serve building c with the lift that starts at `start`.
        sign=+1: sweep up first, sign=-1: sweep down first.
        Returns (actions, final lift floor, waiting, riding); inputs are not modified."""
        key = lambda f: sign * rank[f]
        waiting, riding = set(waiting), set(riding)
        acts = []
        pos = [start]

        def go(f):
            acts.extend(move(pos[0], f))
            pos[0] = f

        def stop():
            here = pos[0]
            for p in sorted(waiting):              # board everyone waiting here
                if origin[p] == here:
                    acts.append('(board %s %s)' % (here, p))
                    waiting.discard(p)
                    riding.add(p)
            for p in sorted(riding):               # let off everyone who gets out here
                if destin[p] == here:
                    acts.append('(depart %s %s)' % (here, p))
                    riding.discard(p)

        def pickups():
            return [origin[p] for p in waiting if comp[origin[p]] == c]

        def dropoffs():
            return [destin[p] for p in riding if comp[destin[p]] == c]

        stop()                                     # serve the starting floor
        if pickups():                              # go to the "first" origin floor
            go(min(pickups(), key=key))
            stop()
        while True:                                # first sweep
            cur = key(pos[0])
            cands = [f for f in pickups() + dropoffs() if key(f) > cur]
            if not cands:
                break
            go(min(cands, key=key))
            stop()
        while True:                                # second sweep, opposite direction
            cur = key(pos[0])
            cands = [f for f in dropoffs() if key(f) < cur]
            if not cands:
                break
            go(max(cands, key=key))
            stop()
        while pickups() or dropoffs():             # safety net (non-total orders)
            go(min(pickups() or dropoffs()))
            stop()
        return acts, pos[0], waiting, riding

    # ---------- serve every building ----------
    plan = []
    while waiting or riding:
        progress = False
        for c in range(len(comps)):
            has_work = (any(comp[origin[p]] == c for p in waiting) or
                        any(comp[destin[p]] == c for p in riding))
            if not has_work:
                continue
            if not lifts[c]:
                raise ValueError('no lift in the building of floor %s' % comps[c][0])
            best = None
            for start in sorted(lifts[c]):
                for sign in (1, -1):
                    res = sweep(c, start, sign, waiting, riding)
                    if best is None or len(res[0]) < len(best[0][0]):
                        best = (res, start)
            (acts, end, waiting, riding), start = best
            if acts:
                progress = True
            plan.extend(acts)
            lifts[c].discard(start)
            lifts[c].add(end)
        if not progress:
            raise ValueError('remaining passengers cannot be served')

    # ---------- in case the goal also fixes lift positions ----------
    goal_set = set(goal_lift)
    for f in goal_lift:
        c = comp[f]
        if f in lifts[c]:
            continue
        if not lifts[c]:
            raise ValueError('no lift can reach floor %s' % f)
        cands = (lifts[c] - goal_set) or lifts[c]
        s = min(sorted(cands), key=lambda g: len(move(g, f)))
        plan.extend(move(s, f))
        lifts[c].discard(s)
        lifts[c].add(f)

    return plan
