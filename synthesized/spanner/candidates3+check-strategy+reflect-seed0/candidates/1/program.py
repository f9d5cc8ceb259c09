# ---- answer 1 ----
def get_plan(objects, init, goal):
    from collections import defaultdict, deque
    import re

    def natural_key(name):
        # Sort "spanner2" before "spanner10".
        return [int(t) if t.isdigit() else t for t in re.split(r'(\d+)', name)]

    # ---- Objects by type ----
    men = sorted((n for n, t in objects if t == 'man'), key=natural_key)
    spanners = {n for n, t in objects if t == 'spanner'}
    nuts = {n for n, t in objects if t == 'nut'}

    # ---- Read the initial state ----
    at = {}
    links = defaultdict(list)
    carrying = defaultdict(set)
    useable = set()
    loose = set()
    tightened = set()
    for atom in init:
        pred = atom[0]
        if pred == 'at':
            at[atom[1]] = atom[2]
        elif pred == 'link':
            links[atom[1]].append(atom[2])
        elif pred == 'carrying':
            carrying[atom[1]].add(atom[2])
        elif pred == 'useable':
            useable.add(atom[1])
        elif pred == 'loose':
            loose.add(atom[1])
        elif pred == 'tightened':
            tightened.add(atom[1])

    # Fallback in case the type names are not exactly as expected.
    if not spanners:
        spanners = {a[1] for a in init if a[0] == 'useable'} | \
                   {a[2] for a in init if a[0] == 'carrying'}
    if not nuts:
        nuts = {a[1] for a in init if a[0] in ('loose', 'tightened')}
    if not men:
        men = sorted((o for o in at if o not in spanners and o not in nuts),
                     key=natural_key)
    if not men:
        return []

    man = men[0]
    cur = at[man]

    # Nuts that still have to be tightened.
    target = {a[1] for a in goal if a[0] == 'tightened'}
    remaining = {n for n in target if n not in tightened and n in loose}
    if not remaining:
        return []

    # Spanners lying at each location, and goal nuts at each location.
    spanners_at = defaultdict(list)
    for s in spanners:
        if s in at:
            spanners_at[at[s]].append(s)
    nuts_at = defaultdict(list)
    for n in remaining:
        if n in at:
            nuts_at[at[n]].append(n)

    def reachable(start):
        seen = {start}
        queue = deque([start])
        while queue:
            loc = queue.popleft()
            for nxt in links.get(loc, []):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return seen

    # Usable spanners Bob is already carrying at the start.
    usable_carried = [s for s in carrying[man] if s in useable]

    plan = []
    visited = set()
    while True:
        visited.add(cur)

        # a. Pick up every spanner at the current location.
        for s in sorted(spanners_at.pop(cur, []), key=natural_key):
            plan.append(f'(pickup_spanner {cur} {s} {man})')
            if s in useable:
                usable_carried.append(s)

        # b. Tighten every loose goal nut here, each with a fresh spanner.
        usable_carried.sort(key=natural_key)
        for n in sorted(nuts_at.get(cur, []), key=natural_key):
            if n in remaining and usable_carried:
                s = usable_carried.pop(0)      # spanner s is now used up
                plan.append(f'(tighten_nut {cur} {s} {man} {n})')
                remaining.discard(n)

        if not remaining:
            break

        # Move on to the next location along the chain.
        succ = sorted((l for l in links.get(cur, []) if l not in visited),
                      key=natural_key)
        if not succ:
            break   # end of the chain (e.g. the gate)
        nxt = succ[0]
        if len(succ) > 1:
            # Only relevant if the map branches: choose a branch from which
            # a remaining nut can still be reached.
            needed = {at[n] for n in remaining if n in at}
            for l in succ:
                if reachable(l) & needed:
                    nxt = l
                    break
        plan.append(f'(walk {cur} {nxt} {man})')
        cur = nxt

    return plan
