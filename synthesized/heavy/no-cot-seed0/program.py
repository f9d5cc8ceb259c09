# ---- answer 1 ----
def get_plan(objects, init, goal):
    heavier = set((a[1], a[2]) for a in init if a[0] == 'heavier')
    packed = {a[1] for a in init if a[0] == 'packed'}
    unpacked = {a[1] for a in init if a[0] == 'unpacked'}
    box_empty = ('box-empty',) in init

    need = [a[1] for a in goal if a[0] == 'packed' and a[1] not in packed]
    if not need:
        return []

    # Current top of the stack, if the box is not empty
    top = None
    if not box_empty:
        tops = [a[1] for a in init if a[0] == 'nothing-above' and a[1] in packed]
        top = tops[0] if tops else None

    # Number of objects each object is heavier than
    cnt = {o: 0 for o in objects}
    for (a, b) in heavier:
        if a in cnt:
            cnt[a] += 1

    def valid(chain):
        if not chain:
            return True
        if box_empty:
            # first item via pack-first; the rest must be unpacked for stack
            for x in chain[1:]:
                if x not in unpacked:
                    return False
        else:
            if top is None or (top, chain[0]) not in heavier:
                return False
            for x in chain:
                if x not in unpacked:
                    return False
        for i in range(len(chain) - 1):
            if (chain[i], chain[i + 1]) not in heavier:
                return False
        return True

    def build(chain):
        plan = []
        prev = top
        for i, x in enumerate(chain):
            if i == 0 and box_empty:
                plan.append('(pack-first %s)' % x)
            else:
                plan.append('(stack %s %s)' % (prev, x))
            prev = x
        return plan

    key = lambda o: (-cnt.get(o, 0), o)

    # Try 1: only goal objects, heaviest first
    chain = sorted(set(need), key=key)
    if valid(chain):
        return build(chain)

    # Try 2: all packable objects, heaviest first
    pool = set(o for o in objects if o not in packed)
    chain = sorted(pool, key=key)
    if valid(chain) and set(need) <= set(chain):
        return build(chain)

    # Fallback: DFS for a chain covering all needed objects
    need_set = frozenset(need)
    cand = sorted(pool, key=key)
    best = [None]
    seen = set()

    def dfs(last, path, used, covered):
        if covered >= need_set:
            best[0] = list(path)
            return True
        state = (last, frozenset(used))
        if state in seen:
            return False
        seen.add(state)
        for x in cand:
            if x in used:
                continue
            if last is None:
                if not box_empty:
                    continue
            else:
                if (last, x) not in heavier or x not in unpacked:
                    continue
            path.append(x)
            used.add(x)
            if dfs(x, path, used, covered | ({x} & need_set)):
                return True
            path.pop()
            used.discard(x)
        return False

    if dfs(top, [], set(), frozenset()):
        return build(best[0])

    # Last resort: heaviest-first ordering of goal objects
    return build(sorted(set(need), key=key))
