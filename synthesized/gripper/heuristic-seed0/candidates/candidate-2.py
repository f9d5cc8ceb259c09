def make_heuristic(objects, init, goal):
    # Static information.
    grippers = [a[1] for a in init if a[0] == "gripper" and len(a) == 2]
    n_grippers = len(grippers)

    # Goal decomposition.
    goal_at = {}          # ball -> target room
    robot_goal = None     # room the robot must end in (if any)
    other_goals = []      # any other goal atoms (free, carry, ...), checked generically
    for atom in goal:
        if atom[0] == "at" and len(atom) == 3:
            goal_at[atom[1]] = atom[2]
        elif atom[0] == "at-robby" and len(atom) == 2:
            robot_goal = atom[1]
        else:
            other_goals.append(atom)
    goal_at_items = list(goal_at.items())
    inf = float("inf")

    def h(state):
        robby = None
        loc = {}
        carried = set()
        for atom in state:
            p = atom[0]
            if p == "at":
                loc[atom[1]] = atom[2]
            elif p == "carry":
                carried.add(atom[1])
            elif p == "at-robby":
                robby = atom[1]

        cost = 0
        need = set()          # rooms the robot still has to visit
        to_pick = 0
        carried_goal = 0
        for b, t in goal_at_items:
            cur = loc.get(b)
            if cur == t:
                continue
            if b in carried:
                cost += 1                 # drop
                carried_goal += 1
                need.add(t)
            elif cur is not None:
                if n_grippers == 0:
                    return inf
                cost += 2                 # pick + drop
                to_pick += 1
                need.add(cur)
                need.add(t)
            else:
                # Unknown position (should not happen); treat as expensive.
                cost += 2
                need.add(t)

        for atom in other_goals:
            if atom not in state:
                cost += 1

        if robot_goal is not None and robby != robot_goal:
            need.add(robot_goal)
            if cost == 0:
                return 1 if len(need - {robby}) <= 1 else len(need - {robby})

        if cost == 0 and not need:
            return 0

        # Carried balls that are not goal balls must be dropped eventually
        # to free grippers (only matters while work remains).
        for b in carried:
            if b not in goal_at:
                cost += 1

        # Moves: each room still to be visited, except the current one.
        need.discard(robby)
        moves = len(need)

        # Extra trips when the grippers cannot hold all balls at once.
        if n_grippers > 0:
            total = to_pick + carried_goal
            loads = (total + n_grippers - 1) // n_grippers
            if loads > 1:
                moves += loads - 1

        result = cost + moves
        return result if result > 0 else 1

    return h
