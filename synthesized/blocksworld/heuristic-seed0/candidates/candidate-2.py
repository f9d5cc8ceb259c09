def make_heuristic(objects, init, goal):
    TABLE = None  # marks "the table" as a position (object names are strings)

    goal_pos = {}          # block -> goal support (a block name or TABLE)
    needs_top = set()      # blocks that some block must be on in the goal
    goal_clear = set()     # blocks that must be clear in the goal
    want_handempty = False
    for atom in goal:
        p = atom[0]
        if p == "on":
            goal_pos[atom[1]] = atom[2]
            needs_top.add(atom[2])
        elif p == "ontable":
            goal_pos[atom[1]] = TABLE
        elif p == "clear":
            goal_clear.add(atom[1])
        elif p == "handempty":
            want_handempty = True
    # a block without a goal position may not rest on these blocks
    blocked = needs_top | goal_clear
    goal_atoms = frozenset(goal)

    def h(state):
        above = {}
        on_table = []
        held = None
        for atom in state:
            p = atom[0]
            if p == "on":
                above[atom[2]] = atom[1]
            elif p == "ontable":
                on_table.append(atom[1])
            elif p == "holding":
                held = atom[1]

        # Pass 1: which blocks are well placed (walking each tower bottom-up).
        well = {}
        bad_table = 0        # misplaced blocks lying on the table
        bad_on_block = []    # misplaced blocks lying on another block
        for b in on_table:
            if b in goal_pos:
                w = goal_pos[b] is TABLE
                if not w:
                    bad_table += 1
            else:
                w = True
            well[b] = w
            below = b
            x = above.get(b)
            while x is not None:
                if x in goal_pos:
                    w = goal_pos[x] == below and well[below]
                else:
                    w = well[below] and below not in blocked
                well[x] = w
                if not w:
                    bad_on_block.append(x)
                below = x
                x = above.get(x)

        # Pass 2: actions still needed for each misplaced block.
        cost = 2 * bad_table
        for x in bad_on_block:
            if x in goal_pos:
                g = goal_pos[x]
                if g is TABLE or well.get(g, False):
                    cost += 2   # unstack, then put straight into place
                else:
                    cost += 4   # unstack, park on table, later pick up and stack
            else:
                cost += 2       # unstack, put down on the table

        if held is not None:
            if held in goal_pos:
                g = goal_pos[held]
                if g is TABLE or well.get(g, False):
                    cost += 1
                else:
                    cost += 3
            elif want_handempty or cost > 0:
                cost += 1

        if cost == 0 and not goal_atoms.issubset(state):
            return 1
        return cost

    return h
