def make_heuristic(objects, init, goal):
    # Static information, computed once per task.
    balls = {a[1] for a in init if a[0] == "ball" and len(a) == 2}
    rooms = {a[1] for a in init if a[0] == "room" and len(a) == 2}

    goal_loc = {}          # ball -> goal room
    robby_goal = None      # room the robot must end in, if any
    other_goals = []       # any other goal atoms (counted generically)
    for atom in goal:
        if atom[0] == "at" and len(atom) == 3:
            goal_loc[atom[1]] = atom[2]
        elif atom[0] == "at-robby" and len(atom) == 2:
            robby_goal = atom[1]
        else:
            other_goals.append(atom)

    goal_items = sorted(goal_loc.items())
    INF = float("inf")

    def h(state):
        robot = None
        loc = {}
        carried = {}
        nfree = 0
        for atom in state:
            p = atom[0]
            if p == "at":
                loc[atom[1]] = atom[2]
            elif p == "carry":
                carried[atom[1]] = atom[2]
            elif p == "free":
                nfree += 1
            elif p == "at-robby":
                robot = atom[1]

        cost = 0
        S = set()          # rooms the robot still has to visit
        useful_here = False

        for b, g in goal_items:
            if b in carried:
                # needs a drop in its goal room
                cost += 1
                S.add(g)
                if g == robot:
                    useful_here = True
            else:
                r = loc.get(b)
                if r is None:
                    return INF
                if r == g:
                    continue
                # needs a pick and a drop, visiting r then g
                cost += 2
                S.add(r)
                S.add(g)
                if r == robot and nfree > 0:
                    useful_here = True

        # Carrying balls that have no goal wastes a gripper: one drop to undo.
        for b in carried:
            if b not in goal_loc:
                cost += 1

        moves = len(S)
        if robot is not None and robot in S and useful_here:
            moves -= 1

        if robby_goal is not None:
            if robot != robby_goal:
                if robby_goal not in S:
                    moves += 1
            elif S:
                # must leave and come back
                if robby_goal not in S:
                    moves += 1

        for atom in other_goals:
            if atom not in state:
                cost += 1

        return cost + moves

    return h
