# ---- answer 1 ----
def get_plan(objects, init, goal):
    # ------------------------------------------------------------------
    # Collect all blocks
    # ------------------------------------------------------------------
    blocks = set(objects)
    for atom in list(init) + list(goal):
        blocks.update(atom[1:])

    # ------------------------------------------------------------------
    # Current state
    # ------------------------------------------------------------------
    pos = {}          # block -> block it sits on, or 'table'
    held = None       # block in the hand, if any
    for atom in init:
        if atom[0] == 'on':
            pos[atom[1]] = atom[2]
        elif atom[0] == 'ontable':
            pos[atom[1]] = 'table'
        elif atom[0] == 'holding':
            held = atom[1]

    above = {}        # block -> block directly on top of it
    for b, s in pos.items():
        if s != 'table':
            above[s] = b

    # ------------------------------------------------------------------
    # Goal
    # ------------------------------------------------------------------
    goal_on = {}      # x -> y   for goal (on x y)
    goal_under = {}   # y -> x   for goal (on x y)
    goal_table = set()
    goal_clear = set()
    goal_hold = None
    for atom in goal:
        if atom[0] == 'on':
            goal_on[atom[1]] = atom[2]
            goal_under[atom[2]] = atom[1]
        elif atom[0] == 'ontable':
            goal_table.add(atom[1])
        elif atom[0] == 'clear':
            goal_clear.add(atom[1])
        elif atom[0] == 'holding':
            goal_hold = atom[1]

    plan = []

    # ------------------------------------------------------------------
    # Primitive moves (they keep pos/above up to date)
    # ------------------------------------------------------------------
    def take(b):
        """Get clear block b into the (empty) hand."""
        s = pos.pop(b)
        if s == 'table':
            plan.append('(pick-up %s)' % b)
        else:
            plan.append('(unstack %s %s)' % (b, s))
            del above[s]

    def put(b, dest):
        """Put the held block b on the table or on clear block dest."""
        if dest == 'table':
            plan.append('(put-down %s)' % b)
        else:
            plan.append('(stack %s %s)' % (b, dest))
            above[dest] = b
        pos[b] = dest

    # If the hand starts out holding a block, put it down first.
    if held is not None:
        put(held, 'table')

    # A block with no position facts is assumed to be on the table.
    for b in blocks:
        pos.setdefault(b, 'table')

    # ------------------------------------------------------------------
    # Well-placed blocks
    # ------------------------------------------------------------------
    def acceptable(b):
        """Is b's own current support compatible with the goal?"""
        s = pos[b]
        if b in goal_on:
            return s == goal_on[b]
        if b in goal_table:
            return s == 'table'
        if s != 'table':
            # b sits on s: not allowed if s must be clear or must
            # carry a different block.
            if s in goal_clear:
                return False
            if goal_under.get(s, b) != b:
                return False
        return True

    well = {}

    def is_well(b):
        chain = []
        cur = b
        while cur != 'table' and cur not in well:
            chain.append(cur)
            cur = pos[cur]
        ok = True if cur == 'table' else well[cur]
        for c in reversed(chain):          # bottom-up
            ok = ok and acceptable(c)
            well[c] = ok
        return well[b]

    for b in blocks:
        is_well(b)

    # ------------------------------------------------------------------
    # Phase 1: move every block that is not well placed (and is not
    #          already on the table) to the table, top-down.
    # ------------------------------------------------------------------
    for b in sorted(blocks):
        if not well[b] and pos[b] != 'table':
            chain = [b]
            while chain[-1] in above:
                chain.append(above[chain[-1]])
            for t in reversed(chain):      # topmost first
                take(t)
                put(t, 'table')

    # ------------------------------------------------------------------
    # Phase 2: build the goal towers bottom-up.
    # ------------------------------------------------------------------
    done = set(b for b in blocks
               if well[b] or (pos[b] == 'table' and b not in goal_on))
    pending = sorted(b for b in goal_on if b not in done)

    while pending:
        progress = False
        rest = []
        for x in pending:
            y = goal_on[x]
            if (y in done and y not in above
                    and x not in above and pos.get(x) == 'table'):
                take(x)
                put(x, y)
                done.add(x)
                progress = True
            else:
                rest.append(x)
        pending = rest
        if not progress:      # inconsistent / unsolvable goal
            break

    # ------------------------------------------------------------------
    # Optional: goal asks for the hand to hold a block at the end.
    # ------------------------------------------------------------------
    if goal_hold is not None and goal_hold in pos and goal_hold not in above:
        take(goal_hold)

    return plan
