# ---- answer 1 ----
def get_plan(objects, init, goal):
    plan = []

    # ---- Read the initial state ----
    below = {}        # below[x] = block under x, or None if x is on the table
    holding = None
    for atom in init:
        if atom[0] == 'on':
            below[atom[1]] = atom[2]
        elif atom[0] == 'ontable':
            below[atom[1]] = None
        elif atom[0] == 'holding':
            holding = atom[1]

    blocks = set(objects) | set(below) | set(v for v in below.values() if v is not None)
    if holding is not None:
        blocks.add(holding)
    blocks = sorted(blocks)
    for b in blocks:
        below.setdefault(b, None)

    def is_clear(b):
        if b == holding:
            return False
        return all(below[o] != b for o in blocks if o != holding)

    # If the hand starts out holding a block, put it down first.
    if holding is not None:
        plan.append('(put-down %s)' % holding)
        below[holding] = None
        holding = None

    # ---- Phase 1: take everything apart ----
    while True:
        tops = [b for b in blocks if below[b] is not None and is_clear(b)]
        if not tops:
            break
        x = tops[0]
        y = below[x]
        plan.append('(unstack %s %s)' % (x, y))
        plan.append('(put-down %s)' % x)
        below[x] = None

    # ---- Phase 2: build goal towers bottom-up ----
    goal_on = {}
    for atom in goal:
        if atom[0] == 'on':
            goal_on[atom[1]] = atom[2]

    done = set()  # blocks whose 'on' goal has been achieved

    def finished(b):
        # b is finished if it is the bottom of a goal tower (it stays on the
        # table) or its own 'on' goal has already been achieved.
        return b not in goal_on or b in done

    remaining = sorted(goal_on)
    while remaining:
        progressed = False
        for x in list(remaining):
            y = goal_on[x]
            if finished(y) and below[x] is None and is_clear(x) and is_clear(y) and x != y:
                plan.append('(pick-up %s)' % x)
                plan.append('(stack %s %s)' % (x, y))
                below[x] = y
                done.add(x)
                remaining.remove(x)
                progressed = True
        if not progressed:
            break  # inconsistent or cyclic goal; nothing more can be done

    # ---- Rare case: the goal asks the hand to hold a block ----
    for atom in goal:
        if atom[0] == 'holding':
            x = atom[1]
            if is_clear(x):
                if below[x] is None:
                    plan.append('(pick-up %s)' % x)
                else:
                    plan.append('(unstack %s %s)' % (x, below[x]))
                holding = x
            break

    return plan
