def make_heuristic(objects, init, goal):
    INF = float("inf")

    homes = frozenset(a[1] for a in init if a[0] == "ishomebase")
    safe = frozenset(a[1] for a in init if a[0] == "safe")
    goal_locs = tuple(sorted(set(a[1] for a in goal if a[0] == "satisfied")))
    other_goals = tuple(a for a in goal if a[0] != "satisfied")

    def h(state):
        cur = None
        carrying = 0
        unpacked = 0
        sat = set()
        for atom in state:
            p = atom[0]
            if p == "at":
                cur = atom[1]
            elif p == "carrying":
                carrying += 1
            elif p == "unpacked":
                unpacked += 1
            elif p == "satisfied":
                sat.add(atom[1])

        extra = 0
        for g in other_goals:
            if g not in state:
                extra += 1

        unsat = [l for l in goal_locs if l not in sat]
        U = len(unsat)
        if U == 0:
            return extra

        # Not enough papers left to satisfy every remaining location.
        if carrying + unpacked < U:
            return INF
        if cur is None:
            return INF

        # Stuck at an unsafe location: only a final delivery here can help.
        if cur not in safe:
            if U == 1 and unsat[0] == cur and carrying >= 1:
                return 1 + extra
            return INF

        # Only one unsafe location can be visited (as the very last one).
        unsafe_unsat = 0
        for l in unsat:
            if l not in safe:
                unsafe_unsat += 1
        if unsafe_unsat > 1:
            return INF

        need = U - carrying
        if need > 0:
            if not homes:
                return INF
            if cur in homes:
                moves = 0
                for l in unsat:
                    if l != cur:
                        moves += 1
            else:
                moves = 1  # go back to a home base to pick up papers
                for l in unsat:
                    if l not in homes:
                        moves += 1
            return U + need + moves + extra
        else:
            moves = 0
            for l in unsat:
                if l != cur:
                    moves += 1
            return U + moves + extra

    return h
