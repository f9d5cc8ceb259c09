def make_heuristic(objects, init, goal):
    # Goal location of every car that has one.
    goal_loc = {}
    other_goals = []
    for atom in goal:
        if atom[0] == "at" and len(atom) == 3:
            goal_loc[atom[1]] = atom[2]
        else:
            other_goals.append(atom)
    other_goals = tuple(other_goals)

    def h(state):
        ferry = None
        carried = []
        empty = False
        ground = []
        for atom in state:
            p = atom[0]
            if p == "at":
                ground.append((atom[1], atom[2]))
            elif p == "at-ferry":
                ferry = atom[1]
            elif p == "on":
                carried.append(atom[1])
            elif p == "empty-ferry":
                empty = True

        value = 0
        n_mis = 0
        misplaced_locs = set()
        for c, l in ground:
            g = goal_loc.get(c)
            if g is not None and g != l:
                n_mis += 1
                misplaced_locs.add(l)

        # Each misplaced car on the ground: sail to it, board, sail to goal, debark.
        value += 4 * n_mis

        for c in carried:
            g = goal_loc.get(c)
            if g is None:
                # A car without a goal only needs to leave the ferry if the
                # ferry is still needed for other cars.
                if n_mis > 0:
                    value += 1
            elif g == ferry:
                value += 1  # debark
            else:
                value += 2  # sail to goal + debark

        # The ferry is empty and already at a misplaced car: no sail needed to pick it up.
        if empty and not carried and ferry is not None and ferry in misplaced_locs:
            value -= 1

        # Any other kind of goal atom (e.g. at-ferry, empty-ferry) still unmet.
        for atom in other_goals:
            if atom not in state:
                value += 1

        return value

    return h
