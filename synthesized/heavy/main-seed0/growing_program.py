# ---- answer 1 ----
def get_plan(objects, init, goal):
    # Fixed weight ordering: (x, y) means x is heavier than y.
    heavier = {(a[1], a[2]) for a in init if a[0] == 'heavier' and len(a) == 3}
    already_packed = {a[1] for a in init if a[0] == 'packed' and len(a) == 2}

    # Items the goal wants packed that are not packed yet.
    targets = sorted({a[1] for a in goal if a[0] == 'packed' and len(a) == 2}
                     - already_packed)
    if not targets:
        return []

    # Where the stack starts: an empty box, or the current top item.
    box_empty = ('box-empty',) in init
    start = None
    if not box_empty:
        tops = sorted(a[1] for a in init
                      if a[0] == 'nothing-above' and len(a) == 2
                      and a[1] in already_packed)
        if not tops:
            return []  # Box is in use but there is no top to stack on.
        start = tops[0]

    target_set = set(targets)

    # Main strategy: rank by how many other targets each item is heavier than.
    count = {x: sum(1 for y in target_set if (x, y) in heavier) for x in targets}
    order = sorted(targets, key=lambda x: (-count[x], x))

    def is_valid(seq, prev):
        for x in seq:
            if prev is not None and (prev, x) not in heavier:
                return False
            prev = x
        return True

    # Fallback if heavier is not a complete, consistent order:
    # look for a chain where each item is heavier than the next.
    if not is_valid(order, start):
        failed = set()

        def dfs(prev, remaining, path):
            if not remaining:
                return list(path)
            key = (prev, remaining)
            if key in failed:
                return None
            # Try heavier-looking items first.
            for x in sorted(remaining, key=lambda z: (-count[z], z)):
                if prev is None or (prev, x) in heavier:
                    path.append(x)
                    res = dfs(x, remaining - {x}, path)
                    if res is not None:
                        return res
                    path.pop()
            failed.add(key)
            return None

        found = dfs(start, frozenset(targets), [])
        if found is None:
            return []  # No valid packing order exists.
        order = found

    # Turn the order into actions.
    plan = []
    prev = start
    for x in order:
        if prev is None:
            plan.append('(pack-first {})'.format(x))
        else:
            plan.append('(stack {} {})'.format(prev, x))
        prev = x
    return plan
