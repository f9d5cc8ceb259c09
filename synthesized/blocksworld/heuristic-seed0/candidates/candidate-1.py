def make_heuristic(objects, init, goal):
    TABLE = object()  # sentinel: goal position is the table

    dest = {}          # block -> goal block beneath it, or TABLE
    goal_above = {}    # block -> the block that must sit on it in the goal
    goal_clear = set()
    goal_holding = None
    for atom in goal:
        p = atom[0]
        if p == "on":
            dest[atom[1]] = atom[2]
            goal_above[atom[2]] = atom[1]
        elif p == "ontable":
            dest[atom[1]] = TABLE
        elif p == "clear":
            goal_clear.add(atom[1])
        elif p == "holding":
            goal_holding = atom[1]

    blocks = list(objects)
    goal_set = frozenset(goal)

    def h(state):
        if goal_set <= state:
            return 0

        on = {}
        above = {}
        held = None
        for atom in state:
            p = atom[0]
            if p == "on":
                on[atom[1]] = atom[2]
                above[atom[2]] = atom[1]
            elif p == "holding":
                held = atom[1]

        well = {}
        tower = {}
        height = {}

        # Walk every tower bottom-up and mark well-placed blocks: a block is
        # well-placed if its position agrees with the goal (or is unconstrained
        # and does not block a goal requirement) and everything below it is
        # well-placed too.
        for b in blocks:
            if b in on or b == held:
                continue
            d = dest.get(b)
            ok = d is None or d is TABLE
            x = b
            hgt = 0
            while True:
                well[x] = ok
                tower[x] = b
                height[x] = hgt
                y = above.get(x)
                if y is None:
                    break
                if ok:
                    d = dest.get(y)
                    if d is None:
                        ok = (x not in goal_clear) and goal_above.get(x, y) == y
                    else:
                        ok = (d == x) and (x not in goal_clear)
                x = y
                hgt += 1

        cost = 0
        for x in blocks:
            if x == held:
                continue
            if well.get(x, False):
                continue
            c = 2
            d = dest.get(x)
            if d is not None and d is not TABLE and d != held:
                # Goal support lies below x in the same tower and is itself
                # misplaced: x must be moved away first and moved again later.
                if (not well.get(d, False)) and tower.get(d) == tower.get(x) \
                        and height.get(d, 0) < height.get(x, 0):
                    c = 4
            cost += c

        if held is not None:
            d = dest.get(held)
            if d is None or d is TABLE:
                cost += 1
            elif d != held and well.get(d, False) and d not in above:
                cost += 1
            else:
                cost += 3

        if goal_holding is not None and held != goal_holding:
            cost += 1

        return cost if cost > 0 else 1

    return h
