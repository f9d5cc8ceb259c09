from collections import deque


def make_heuristic(objects, init, goal):
    floors = sorted(name for name, typ in objects if typ == "floor")

    origin = {}
    destin = {}
    above_pairs = []
    for atom in init:
        if atom[0] == "origin":
            origin.setdefault(atom[1], []).append(atom[2])
        elif atom[0] == "destin":
            destin.setdefault(atom[1], []).append(atom[2])
        elif atom[0] == "above":
            above_pairs.append((atom[1], atom[2]))
    for p in origin:
        origin[p].sort()
    for p in destin:
        destin[p].sort()

    # Passengers that must be served, with their (origin, destination).
    goal_passengers = []
    other_goals = []
    for atom in goal:
        if atom[0] == "served":
            p = atom[1]
            o = origin[p][0] if p in origin else None
            d = destin[p][0] if p in destin else None
            goal_passengers.append((p, o, d))
        else:
            other_goals.append(atom)
    goal_passengers.sort(key=lambda x: x[0])

    # Lift movement graph: both directions along "above".
    adj = {f: set() for f in floors}
    for a, b in above_pairs:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    all_floors = list(adj.keys())
    n = len(all_floors)
    complete = all(len(adj[f] - {f}) >= n - 1 for f in all_floors)

    dist = None
    if not complete:
        dist = {}
        for s in all_floors:
            ds = {s: 0}
            q = deque([s])
            while q:
                u = q.popleft()
                for v in adj[u]:
                    if v not in ds:
                        ds[v] = ds[u] + 1
                        q.append(v)
            dist[s] = ds

    INF = float("inf")

    def h(state):
        cur = None
        served = set()
        boarded = set()
        for atom in state:
            pred = atom[0]
            if pred == "served":
                served.add(atom[1])
            elif pred == "boarded":
                boarded.add(atom[1])
            elif pred == "lift-at":
                cur = atom[1]

        value = 0
        needed = set()
        revisit_cur = False
        for p, o, d in goal_passengers:
            if p in served:
                continue
            if p in boarded:
                value += 1
                if d is not None and d != cur:
                    needed.add(d)
            else:
                value += 2
                if o is not None and o != cur:
                    needed.add(o)
                if d is not None:
                    if d != cur:
                        needed.add(d)
                    elif o != cur:
                        # Must come back to the current floor after boarding elsewhere.
                        revisit_cur = True

        moves = len(needed) + (1 if revisit_cur else 0)

        if dist is not None and cur is not None and needed:
            dc = dist.get(cur, {})
            far = 0
            for f in needed:
                df = dc.get(f)
                if df is None:
                    return INF
                if df > far:
                    far = df
            if far > moves:
                moves = far

        value += moves

        for atom in other_goals:
            if atom not in state:
                value += 1

        return value

    return h
