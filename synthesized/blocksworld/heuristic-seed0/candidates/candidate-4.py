def make_heuristic(objects, init, goal):
    # Blocksworld heuristic based on "must move" blocks.
    # A block must move if it is not in its goal position, sits on a block that must move,
    # or sits on a block that must end up with a different block (or nothing) on top.
    # Each non-held block that must move costs 2 (pick up/unstack + stack/put down), plus 1
    # if it is covered (something has to be removed from it first). A held block costs 1 if
    # it can be placed at its goal position right now, else 2.
    TABLE = object()  # sentinel for "on the table"
    goal_below = {}
    goal_above = {}
    goal_clear = set()
    for atom in goal:
        p = atom[0]
        if p == "on":
            goal_below[atom[1]] = atom[2]
            goal_above[atom[2]] = atom[1]
        elif p == "ontable":
            goal_below[atom[1]] = TABLE
        elif p == "clear":
            goal_clear.add(atom[1])
    goal_set = frozenset(goal)

    def h(state):
        if goal_set <= state:
            return 0
        above = {}
        bottoms = []
        held = None
        for atom in state:
            p = atom[0]
            if p == "on":
                above[atom[2]] = atom[1]
            elif p == "ontable":
                bottoms.append(atom[1])
            elif p == "holding":
                held = atom[1]

        must = {}
        total = 0
        for b in bottoms:
            g = goal_below.get(b)
            bad = g is not None and g is not TABLE
            cur = b
            while True:
                must[cur] = bad
                nxt = above.get(cur)
                if bad:
                    total += 3 if nxt is not None else 2
                if nxt is None:
                    break
                if not bad:
                    g = goal_below.get(nxt)
                    if (g is not None and g != cur) or cur in goal_clear:
                        bad = True
                    else:
                        ga = goal_above.get(cur)
                        if ga is not None and ga != nxt:
                            bad = True
                cur = nxt

        if held is not None:
            g = goal_below.get(held)
            if g is None or g is TABLE:
                total += 1
            elif (not must.get(g, True)) and g not in above and g not in goal_clear:
                # destination is well placed and clear: can stack right away
                total += 1
            else:
                total += 2

        if total <= 0:
            total = 1
        return total

    return h
