def make_heuristic(objects, init, goal):
    # Static facts: which objects are balls, grippers, rooms.
    grippers = {a[1] for a in init if a[0] == "gripper" and len(a) == 2}
    num_grippers = max(1, len(grippers))

    # Goals, split by kind.
    goal_at = {}          # ball -> goal room
    robot_goal = None     # room the robot must end in, if any
    other_goals = []      # anything else (e.g. carry/free goals), counted generically
    for atom in goal:
        if atom[0] == "at" and len(atom) == 3:
            goal_at[atom[1]] = atom[2]
        elif atom[0] == "at-robby" and len(atom) == 2:
            robot_goal = atom[1]
        else:
            other_goals.append(atom)
    goal_set = frozenset(goal)
    goal_items = list(goal_at.items())

    def h(state):
        if goal_set <= state:
            return 0

        robot = None
        ball_room = {}
        carried = {}
        free = 0
        for atom in state:
            p = atom[0]
            if p == "at":
                ball_room[atom[1]] = atom[2]
            elif p == "carry":
                carried[atom[1]] = atom[2]
            elif p == "at-robby":
                robot = atom[1]
            elif p == "free":
                free += 1

        cost = 0            # pick/drop actions still needed
        rooms = set()       # rooms the robot still has to visit
        on_floor = 0        # misplaced balls lying on the floor (need pick)
        for ball, target in goal_items:
            cur = ball_room.get(ball)
            if cur == target:
                continue
            if cur is not None:
                cost += 2
                on_floor += 1
                rooms.add(cur)
                rooms.add(target)
            elif ball in carried:
                cost += 1
                rooms.add(target)
            else:
                cost += 2
                rooms.add(target)

        # Carrying balls that have no goal wastes a gripper: discourage it.
        for ball in carried:
            if ball not in goal_at:
                cost += 1

        if robot_goal is not None and robot != robot_goal:
            rooms.add(robot_goal)
        rooms.discard(robot)
        moves = len(rooms)

        # Extra round trips forced by limited gripper capacity.
        extra = on_floor - free
        if extra > 0:
            moves += 2 * ((extra + num_grippers - 1) // num_grippers)

        for atom in other_goals:
            if atom not in state:
                cost += 1

        total = cost + moves
        if total <= 0:
            return 1
        return total

    return h
