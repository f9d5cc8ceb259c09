def make_heuristic(objects, init, goal):
    INF = float("inf")

    safe = frozenset(a[1] for a in init if a[0] == "safe")
    homes = frozenset(a[1] for a in init if a[0] == "ishomebase")
    goal_sat = frozenset(a[1] for a in goal if a[0] == "satisfied")
    other_goals = tuple(a for a in goal if a[0] != "satisfied")
    unsafe_goals = goal_sat - safe

    # If two or more goal locations are unsafe, the task cannot be solved:
    # once the truck enters an unsafe location it can never leave.
    # (This is handled per state below, based on the goals still unsatisfied.)

    def h(state):
        at = None
        carrying = 0
        unpacked = 0
        sat = set()
        for a in state:
            p = a[0]
            if p == "at":
                at = a[1]
            elif p == "carrying":
                carrying += 1
            elif p == "unpacked":
                unpacked += 1
            elif p == "satisfied":
                sat.add(a[1])

        other = 0
        for g in other_goals:
            if g not in state:
                other += 1

        unsat = goal_sat.difference(sat)
        n = len(unsat)
        if n == 0:
            return other

        need = n - carrying
        if need < 0:
            need = 0
        if need > unpacked:
            return INF  # not enough papers left to satisfy every goal

        # The truck is stuck at an unsafe location: only delivering here is possible.
        if at is not None and at not in safe:
            if n == 1 and at in unsat and carrying >= 1:
                return 1 + other
            return INF

        # At most one unsafe goal location can be visited (it must be the last one).
        if unsafe_goals and len(unsafe_goals & unsat) > 1:
            return INF

        at_home = at in homes
        here_unsat = at in unsat

        # One delivery per unsatisfied goal, plus the pick-ups still needed.
        cost = n + need

        # Moves: one to every unsatisfied goal location the truck is not already at
        # (with a paper in hand), plus a trip home if more papers must be picked up.
        if here_unsat and carrying > 0:
            moves = n - 1
        else:
            moves = n
            if here_unsat and not at_home:
                # Must leave for papers and come back here: the move home is counted below.
                pass
        if need > 0 and not at_home:
            moves += 1

        return cost + moves + other

    return h
