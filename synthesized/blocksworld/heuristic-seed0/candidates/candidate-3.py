def make_heuristic(objects, init, goal):
    TABLE = object()
    HAND = object()

    blocks = set(objects)
    for atom in init:
        for arg in atom[1:]:
            blocks.add(arg)
    for atom in goal:
        for arg in atom[1:]:
            blocks.add(arg)
    blocks = list(blocks)

    goal_below = {}       # block -> block it must be on, or TABLE
    has_goal_top = set()  # blocks that some other block must be stacked on
    must_clear = set()    # blocks that must be clear in the goal
    for atom in goal:
        p = atom[0]
        if p == "on":
            goal_below[atom[1]] = atom[2]
            has_goal_top.add(atom[2])
        elif p == "ontable":
            goal_below[atom[1]] = TABLE
        elif p == "clear":
            must_clear.add(atom[1])
    blocked_tops = has_goal_top | must_clear
    goal_atoms = frozenset(goal)

    def h(state):
        below = {}
        above = {}
        held = None
        for atom in state:
            p = atom[0]
            if p == "on":
                below[atom[1]] = atom[2]
                above[atom[2]] = atom[1]
            elif p == "ontable":
                below[atom[1]] = TABLE
            elif p == "holding":
                held = atom[1]
                below[atom[1]] = HAND

        def ok(x):
            b = below.get(x, TABLE)
            if b is HAND:
                return False
            g = goal_below.get(x)
            if g is not None:
                return g == b
            # unconstrained block: fine unless it sits where something else must go
            if b is TABLE:
                return True
            return b not in blocked_tops

        wp = {}
        for x in blocks:
            if x in wp:
                continue
            chain = []
            y = x
            base = True
            while True:
                if y in wp:
                    base = wp[y]
                    break
                chain.append(y)
                b = below.get(y, TABLE)
                if b is TABLE or b is HAND:
                    base = True
                    break
                y = b
            for z in reversed(chain):
                base = base and ok(z)
                wp[z] = base

        total = 0
        for x in blocks:
            if wp[x]:
                continue
            b = below.get(x, TABLE)
            g = goal_below.get(x)
            if b is HAND:
                if g is None or g is TABLE:
                    total += 1
                elif wp.get(g, False) and g not in above and g != held:
                    total += 1
                else:
                    total += 3
            elif b is TABLE:
                total += 2
            else:
                if g is None or g is TABLE:
                    total += 2
                elif wp.get(g, False) and g not in above and g != held:
                    total += 2
                else:
                    total += 4

        if total == 0:
            if held is not None:
                return 1
            if not goal_atoms <= state:
                return 1
        return total

    return h
