def make_heuristic(objects, init, goal):
    INF = float("inf")

    safe = set()
    home = set()
    for atom in init:
        if atom[0] == "safe":
            safe.add(atom[1])
        elif atom[0] == "ishomebase":
            home.add(atom[1])

    goal_locs = []
    other_goals = []
    for atom in goal:
        if atom[0] == "satisfied":
            goal_locs.append(atom[1])
        else:
            other_goals.append(atom)
    goal_locs = tuple(sorted(set(goal_locs)))
    other_goals = tuple(other_goals)
    unsafe_goal_locs = frozenset(l for l in goal_locs if l not in safe)

    def h(state):
        pos = None
        satisfied = set()
        carrying = 0
        unpacked = 0
        for atom in state:
            p = atom[0]
            if p == "at":
                pos = atom[1]
            elif p == "satisfied":
                satisfied.add(atom[1])
            elif p == "carrying":
                carrying += 1
            elif p == "unpacked":
                unpacked += 1

        unsat = [l for l in goal_locs if l not in satisfied]
        n = len(unsat)

        extra = 0
        for atom in other_goals:
            if atom not in state:
                extra += 1

        if n == 0:
            return extra

        # Not enough papers left to satisfy every remaining location.
        if carrying + unpacked < n:
            return INF
        if pos is None:
            return INF

        # You can't move out of an unsafe location.
        if pos not in safe:
            if n == 1 and unsat[0] == pos and carrying >= 1:
                return 1 + extra
            return INF

        # At most one unsafe goal location can still be reached, as the last stop.
        if unsafe_goal_locs:
            cnt = 0
            for l in unsat:
                if l in unsafe_goal_locs:
                    cnt += 1
            if cnt > 1:
                return INF

        need = n - carrying if n > carrying else 0
        if need > 0 and not home:
            return INF

        moves = n
        if pos in satisfied or pos not in goal_locs:
            pass
        else:
            moves -= 1  # already standing at an unsatisfied goal location
        if need > 0 and pos not in home:
            moves += 1  # go back to the home base to pick up papers

        return n + need + moves + extra

    return h
