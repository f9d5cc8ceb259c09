from collections import deque


def make_heuristic(objects, init, goal):
    floors = [name for (name, typ) in objects if typ == "floor"]
    passengers = [name for (name, typ) in objects if typ == "passenger"]

    # ---- floor order from the static 'above' facts: (above a b) means b is higher than a
    higher = {f: set() for f in floors}
    above_pairs = set()
    for atom in init:
        if atom[0] == "above" and len(atom) == 3:
            a, b = atom[1], atom[2]
            higher.setdefault(a, set()).add(b)
            higher.setdefault(b, set())
            above_pairs.add((a, b))
    all_floors = set(higher.keys()) | set(floors)
    indeg = {f: 0 for f in all_floors}
    for a in higher:
        for b in higher[a]:
            indeg[b] += 1
    rank = {f: 0 for f in all_floors}
    queue = deque(sorted(f for f in all_floors if indeg[f] == 0))
    seen = 0
    while queue:
        f = queue.popleft()
        seen += 1
        for g in higher.get(f, ()):
            if rank[f] + 1 > rank[g]:
                rank[g] = rank[f] + 1
            indeg[g] -= 1
            if indeg[g] == 0:
                queue.append(g)
    n = len(all_floors)
    # With the complete order, one move reaches any floor: count stops.
    # Otherwise, count how far the lift travels.
    full_order = (len(above_pairs) == n * (n - 1) // 2) and seen == n

    origin = {}
    destin = {}
    for atom in init:
        if atom[0] == "origin":
            origin[atom[1]] = rank.get(atom[2], 0)
        elif atom[0] == "destin":
            destin[atom[1]] = rank.get(atom[2], 0)

    goal_passengers = [atom[1] for atom in goal if atom[0] == "served"]
    goal_set = set(goal_passengers)
    other_goals = [atom for atom in goal if atom[0] != "served"]

    def plan_moves(c, boarded_d, waiting):
        # Cost of the elevator strategy that goes up first.
        # Passengers waiting at floor c are counted as already boarded.
        U1 = set()
        D1 = set()
        U3 = set()
        for d in boarded_d:
            if d > c:
                U1.add(d)
            elif d < c:
                D1.add(d)
        for (o, d) in waiting:
            if o == c:
                if d > c:
                    U1.add(d)
                elif d < c:
                    D1.add(d)
            elif o > c:
                U1.add(o)
                if d > o:
                    U1.add(d)
                elif d < o:
                    D1.add(d)
            else:
                D1.add(o)
                if d < o:
                    D1.add(d)
                elif d > o:
                    U3.add(d)
        if full_order:
            return len(U1) + len(D1) + len(U3)
        t1 = max(U1) if U1 else c
        b = min(D1) if D1 else t1
        dist = (t1 - c) + (t1 - b)
        if U3:
            dist += max(U3) - b
        return dist

    INF = float("inf")

    def h(state):
        lift = None
        boarded = set()
        served = set()
        for atom in state:
            p = atom[0]
            if p == "lift-at":
                lift = atom[1]
            elif p == "boarded":
                boarded.add(atom[1])
            elif p == "served":
                served.add(atom[1])
        if lift is None:
            return INF
        c = rank.get(lift, 0)
        boarded_d = []
        waiting = []
        actions = 0
        for p in goal_passengers:
            if p in served:
                continue
            d = destin.get(p)
            if d is None:
                return INF
            if p in boarded:
                boarded_d.append(d)
                actions += 1
            else:
                o = origin.get(p)
                if o is None:
                    return INF
                waiting.append((o, d))
                actions += 2
        if actions == 0:
            # all goal passengers are served; any other goal atoms
            missing = 0
            for atom in other_goals:
                if atom not in state:
                    missing += 1
            return missing
        up = plan_moves(c, boarded_d, waiting)
        down = plan_moves(-c, [-d for d in boarded_d],
                          [(-o, -d) for (o, d) in waiting])
        extra = 0
        for atom in other_goals:
            if atom not in state:
                extra += 1
        return actions + min(up, down) + extra

    return h
