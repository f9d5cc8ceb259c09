import math


def make_heuristic(objects, init, goal):
    balls = set()
    grippers = set()
    rooms = set()
    for atom in init:
        if atom[0] == "ball":
            balls.add(atom[1])
        elif atom[0] == "gripper":
            grippers.add(atom[1])
        elif atom[0] == "room":
            rooms.add(atom[1])
    n_grippers = max(1, len(grippers))

    goal_room = {}          # ball -> goal room
    robot_goal = None       # room the robot must end in, if any
    other_goals = []        # any other goal atoms (free, carry, ...)
    for atom in goal:
        if atom[0] == "at" and len(atom) == 3:
            goal_room[atom[1]] = atom[2]
        elif atom[0] == "at-robby":
            robot_goal = atom[1]
        else:
            other_goals.append(atom)
    goal_balls = set(goal_room)
    goal_items = sorted(goal_room.items())

    def h(state):
        robot = None
        ball_at = {}
        carried = set()
        free = 0
        for atom in state:
            p = atom[0]
            if p == "at":
                ball_at[atom[1]] = atom[2]
            elif p == "carry":
                carried.add(atom[1])
            elif p == "free":
                free += 1
            elif p == "at-robby":
                robot = atom[1]

        cost = 0
        need = set()            # rooms the robot still has to visit
        deliver_now = set()     # goal rooms of misplaced carried balls
        pick_rooms = set()      # rooms holding misplaced balls to pick
        n_pick = 0
        for b, r in goal_items:
            where = ball_at.get(b)
            if where == r:
                continue
            if b in carried:
                cost += 1                      # drop
                need.add(r)
                deliver_now.add(r)
            else:
                cost += 2                      # pick + drop
                n_pick += 1
                if where is not None:
                    need.add(where)
                    pick_rooms.add(where)
                need.add(r)

        for atom in other_goals:
            if atom not in state:
                cost += 1

        if robot_goal is not None:
            if robot != robot_goal:
                need.add(robot_goal)
            elif cost > 0:
                cost += 1                      # must leave and come back

        if cost == 0 and not need:
            return 0

        # carrying balls that are not goal-relevant wastes grippers
        for b in carried:
            if b not in goal_balls:
                cost += 1

        # moves: rooms still to visit; the current room is only "free" if
        # something useful can be done there right now
        moves = len(need)
        if robot in need:
            if robot in deliver_now or (robot in pick_rooms and free > 0):
                moves -= 1
        # extra trips required by limited gripper capacity
        if n_pick > free:
            moves += int(math.ceil((n_pick - free) / float(n_grippers)))

        value = cost + moves
        return value if value > 0 else 1

    return h
