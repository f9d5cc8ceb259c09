def make_heuristic(objects, init, goal):
    INF = float("inf")
    safe = frozenset(a[1] for a in init if a[0] == "safe")
    homes = frozenset(a[1] for a in init if a[0] == "ishomebase")
    goal_sat = frozenset(a[1] for a in goal if a[0] == "satisfied")
    other_goals = [a for a in goal if a[0] != "satisfied"]
    unsafe_goals = frozenset(l for l in goal_sat if l not in safe)

    def h(state):
        cur = None
        carried = 0
        unpacked = 0
        sat = set()
        for atom in state:
            p = atom[0]
            if p == "satisfied":
                sat.add(atom[1])
            elif p == "carrying":
                carried += 1
            elif p == "unpacked":
                unpacked += 1
            elif p == "at":
                cur = atom[1]

        extra = 0
        for g in other_goals:
            if g not in state:
                extra += 1

        U = goal_sat - sat
        n = len(U)
        if n == 0:
            return extra

        # Not enough papers left to satisfy every remaining goal.
        if carried + unpacked < n:
            return INF
        need = n - carried if n > carried else 0
        if need > 0 and not homes:
            return INF

        # Standing on an unsafe location: no way to leave it.
        if cur is not None and cur not in safe:
            if n > 1 or cur not in U:
                return INF
            if carried == 0:
                if cur in homes and unpacked > 0:
                    return 2 + extra  # pick up + deliver
                return INF
            return 1 + extra  # deliver

        # Only one unsafe goal location can ever be visited (as the last).
        if len(U & unsafe_goals) > 1:
            return INF

        moves = 0
        free = set()
        if cur is not None and cur in U and carried > 0:
            free.add(cur)
        if need > 0:
            if cur not in homes:
                moves += 1  # go back to a homebase
                for hb in U & homes:
                    free.add(hb)
                    break
            elif cur in U:
                free.add(cur)
        for loc in U:
            if loc not in free:
                moves += 1

        return moves + need + n + extra

    return h
