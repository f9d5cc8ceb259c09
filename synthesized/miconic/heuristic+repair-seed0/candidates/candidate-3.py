def make_heuristic(objects, init, goal):
    INF = float("inf")

    floors = set()
    for name, typ in objects:
        if typ == "floor":
            floors.add(name)

    origin = {}
    destin = {}
    parent = {}

    def find(x):
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:
            nxt = parent[x]
            parent[x] = root
            x = nxt
        return root

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    for atom in init:
        pred = atom[0]
        if pred == "origin" and len(atom) == 3:
            origin[atom[1]] = atom[2]
        elif pred == "destin" and len(atom) == 3:
            destin[atom[1]] = atom[2]
        elif pred == "above" and len(atom) == 3:
            floors.add(atom[1])
            floors.add(atom[2])
            parent.setdefault(atom[1], atom[1])
            parent.setdefault(atom[2], atom[2])
            union(atom[1], atom[2])

    comp = {}
    for f in floors:
        comp[f] = find(f)

    goal_served = []
    goal_lift = []
    other_goals = []
    for atom in goal:
        if atom[0] == "served" and len(atom) == 2:
            goal_served.append(atom[1])
        elif atom[0] == "lift-at" and len(atom) == 2:
            goal_lift.append(atom[1])
        else:
            other_goals.append(atom)
    goal_served.sort()
    goal_lift.sort()

    info = [(p, origin.get(p), destin.get(p)) for p in goal_served]

    def h(state):
        served = set()
        boarded = set()
        lift = None
        for atom in state:
            pred = atom[0]
            if pred == "served":
                served.add(atom[1])
            elif pred == "boarded":
                boarded.add(atom[1])
            elif pred == "lift-at":
                lift = atom[1]

        other = 0
        for atom in other_goals:
            if atom not in state:
                other += 1

        actions = 0
        needed = set()
        for p, o, d in info:
            if p in served:
                continue
            if d is None:
                return INF
            if p in boarded:
                actions += 1
                if d != lift:
                    needed.add(d)
            else:
                if o is None:
                    return INF
                actions += 2
                if o != lift:
                    needed.add(o)
                    # destination must be (re)visited after boarding
                    needed.add(d)
                elif d != lift:
                    needed.add(d)

        for f in goal_lift:
            if f != lift:
                needed.add(f)

        total = actions + len(needed) + other
        if total == 0:
            return 0

        if lift is None:
            # no lift position: no action is applicable
            return INF
        lc = comp.get(lift, lift)
        for f in needed:
            if comp.get(f, f) != lc:
                return INF

        return total

    return h
