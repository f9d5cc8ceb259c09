def make_heuristic(objects, init, goal):
    # Ferry domain: the ferry carries one car at a time, and it can sail between any two
    # locations in one step. Every car that is not where it should be needs about
    # sail-to-car, board, sail-to-goal, debark (4 steps). A car already on the ferry needs
    # sail-to-goal (unless the ferry is already there) plus debark.
    cars = {o for o in objects if ("car", o) in init}
    goal_loc = {}
    other_goals = []
    for atom in goal:
        if atom[0] == "at" and len(atom) == 3 and atom[1] in cars:
            goal_loc[atom[1]] = atom[2]
        else:
            other_goals.append(atom)
    goal_items = list(goal_loc.items())

    def h(state):
        ferry_loc = None
        empty = False
        at = {}
        on = []
        for atom in state:
            p = atom[0]
            if p == "at":
                at[atom[1]] = atom[2]
            elif p == "at-ferry":
                ferry_loc = atom[1]
            elif p == "empty-ferry":
                empty = True
            elif p == "on":
                on.append(atom[1])

        cost = 0
        waiting_here = False
        for c, g in goal_items:
            loc = at.get(c)
            if loc is not None:
                if loc != g:
                    cost += 4
                    if loc == ferry_loc:
                        waiting_here = True
            else:
                # the car is on the ferry
                cost += 1 if ferry_loc == g else 2

        # If the ferry is empty and standing where a misplaced car waits, no sail is needed
        # to fetch that car.
        if empty and waiting_here:
            cost -= 1

        # A car without a goal occupying the ferry has to get off before other work.
        for c in on:
            if c not in goal_loc and cost > 0:
                cost += 1

        for atom in other_goals:
            if atom not in state:
                cost += 1

        return cost

    return h
