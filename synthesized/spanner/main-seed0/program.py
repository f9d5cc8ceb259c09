# ---- answer 1 ----
def get_plan(objects, init, goal):
    from collections import defaultdict, deque

    # ---- Parse objects ----
    men = sorted(name for name, t in objects if t == 'man')
    spanner_objs = {name for name, t in objects if t == 'spanner'}
    nut_objs = {name for name, t in objects if t == 'nut'}
    if not men:
        return []
    man = men[0]

    # ---- Parse the initial state ----
    at = {}
    links = defaultdict(set)
    useable = set()
    loose = set()
    carrying = set()
    for atom in init:
        pred = atom[0]
        if pred == 'at':
            at[atom[1]] = atom[2]
        elif pred == 'link':
            links[atom[1]].add(atom[2])
        elif pred == 'useable':
            useable.add(atom[1])
        elif pred == 'loose':
            loose.add(atom[1])
        elif pred == 'carrying' and atom[1] == man:
            carrying.add(atom[2])

    # Nuts that must be tightened and are still loose
    goal_nuts = {a[1] for a in goal if a[0] == 'tightened'}
    remaining = {n for n in goal_nuts if n in loose and n in at}

    # Usable spanners lying on the ground, grouped by location
    ground_spanners = defaultdict(set)
    for s in spanner_objs:
        if s in at and s in useable:
            ground_spanners[at[s]].add(s)

    # Loose goal nuts, grouped by location
    nuts_at = defaultdict(set)
    for n in remaining:
        nuts_at[at[n]].add(n)

    # Usable spanners the man is carrying
    in_hand = sorted(s for s in carrying if s in useable)

    loc = at.get(man)
    if loc is None:
        return []

    plan = []

    def bfs_next_step(start, targets):
        """Return the first step on a shortest path from start to any target."""
        if not targets:
            return None
        parent = {start: None}
        queue = deque([start])
        while queue:
            cur = queue.popleft()
            if cur in targets and cur != start:
                # Trace back to find the first step
                node = cur
                while parent[node] != start:
                    node = parent[node]
                return node
            for nxt in sorted(links[cur]):
                if nxt not in parent:
                    parent[nxt] = cur
                    queue.append(nxt)
        return None

    # Safety limit on the number of iterations
    max_iters = 10 * (len(objects) + len(init) + 10)
    for _ in range(max_iters):
        # 1. Pick up every usable spanner here
        for s in sorted(ground_spanners[loc]):
            plan.append('(pickup_spanner %s %s %s)' % (loc, s, man))
            in_hand.append(s)
        ground_spanners[loc] = set()

        # 2. Tighten loose nuts here, one fresh spanner each
        for n in sorted(nuts_at[loc]):
            if not in_hand:
                break
            s = in_hand.pop(0)
            plan.append('(tighten_nut %s %s %s %s)' % (loc, s, man, n))
            nuts_at[loc].discard(n)
            remaining.discard(n)

        if not remaining:
            break

        # 3. Decide where to go next
        if in_hand:
            targets = {l for l, ns in nuts_at.items() if ns}
        else:
            targets = {l for l, ss in ground_spanners.items() if ss}

        nxt = bfs_next_step(loc, targets)
        if nxt is None:
            # Fall back to any reachable spanner or nut
            targets = ({l for l, ss in ground_spanners.items() if ss} |
                       {l for l, ns in nuts_at.items() if ns})
            nxt = bfs_next_step(loc, targets)
            if nxt is None:
                break  # Nothing more can be reached, so the problem can't be solved

        plan.append('(walk %s %s %s)' % (loc, nxt, man))
        loc = nxt

    return plan
