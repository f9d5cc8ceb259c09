# ---- answer 1 ----
def get_plan(objects, init, goal):
    # ---- Read the initial state ----
    heavier = set()
    packed = set()
    on_top = set()
    box_empty = False
    for atom in init:
        pred = atom[0]
        if pred == 'heavier':
            heavier.add((atom[1], atom[2]))
        elif pred == 'packed':
            packed.add(atom[1])
        elif pred == 'nothing-above':
            on_top.add(atom[1])
        elif pred == 'box-empty':
            box_empty = True

    # Items the goal needs packed that are not packed yet
    needed = {atom[1] for atom in goal if atom[0] == 'packed'} - packed
    if not needed:
        return []

    # Current top of the stack (None if the box is empty)
    top = None
    if not box_empty:
        tops = sorted(x for x in packed if x in on_top)
        if not tops:
            return []  # box is in use but has no free top: nothing can be added
        top = tops[0]

    # ---- Strategy: sort by weight rank (how many items each item is heavier than) ----
    rank = {x: 0 for x in objects}
    for a, _ in heavier:
        rank[a] = rank.get(a, 0) + 1
    order = sorted(needed, key=lambda x: (-rank.get(x, 0), x))

    def chain_ok(seq, start):
        prev = start
        for x in seq:
            if prev is not None and (prev, x) not in heavier:
                return False
            prev = x
        return True

    # ---- Fallback (only if heavier is not a strict total order) ----
    if not chain_ok(order, top):
        lighter = {}
        for a, b in heavier:
            lighter.setdefault(a, []).append(b)
        failed = set()

        def dfs(prev, remaining):
            if not remaining:
                return []
            key = (prev, remaining)
            if key in failed:
                return None
            if prev is None:
                candidates = remaining
            else:
                candidates = [y for y in lighter.get(prev, []) if y in remaining]
            for y in sorted(candidates, key=lambda x: (-rank.get(x, 0), x)):
                rest = dfs(y, remaining - {y})
                if rest is not None:
                    return [y] + rest
            failed.add(key)
            return None

        found = dfs(top, frozenset(needed))
        if found is None:
            return []  # no valid stacking exists
        order = found

    # ---- Build the plan ----
    plan = []
    prev = top
    for x in order:
        if prev is None:
            plan.append('(pack-first {})'.format(x))
        else:
            plan.append('(stack {} {})'.format(prev, x))
        prev = x
    return plan

['(pack-first o2)', '(stack o2 o6)', '(stack o6 o36)', '(stack o36 o39)', '(stack o39 o4)']
