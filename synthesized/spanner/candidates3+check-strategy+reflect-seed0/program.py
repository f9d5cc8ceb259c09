# ---- answer 1 ----
from collections import deque, defaultdict


def get_plan(objects, init, goal):
    # ---- Sort objects by type ----
    types = defaultdict(set)
    for name, typ in objects:
        types[typ].add(name)
    locations = set(types.get('location', set()))
    spanners = set(types.get('spanner', set()))
    nuts = set(types.get('nut', set()))
    men = sorted(types.get('man', set()))

    # ---- Read the initial state ----
    at = {}                        # locatable -> location
    carrying = defaultdict(set)    # man -> set of spanners
    useable = set()
    loose = set()
    links = defaultdict(list)      # location -> list of successor locations
    for atom in init:
        pred = atom[0]
        if pred == 'at':
            at[atom[1]] = atom[2]
        elif pred == 'carrying':
            carrying[atom[1]].add(atom[2])
        elif pred == 'useable':
            useable.add(atom[1])
        elif pred == 'loose':
            loose.add(atom[1])
        elif pred == 'link':
            links[atom[1]].append(atom[2])
    for loc in links:
        links[loc].sort()

    # Fallback if the man's type is missing: a carrier, or any located
    # object that is neither a nut nor a spanner.
    if not men:
        cands = set(carrying.keys())
        if not cands:
            cands = {o for o in at if o not in nuts and o not in spanners
                     and o not in locations}
        men = sorted(cands)
    if not men:
        return []
    man = men[0]
    cur = at.get(man)
    if cur is None:
        return []

    # ---- Nuts that still need tightening ----
    remaining = set()
    for atom in goal:
        if atom[0] == 'tightened' and atom[1] in loose:
            remaining.add(atom[1])
    if not remaining:
        return []
    nut_loc = {n: at.get(n) for n in remaining}

    # Useable spanners lying on the ground, grouped by location
    spanners_at = defaultdict(set)
    for s in spanners | {o for o in at if o in useable}:
        if s in at and s in useable and s not in carrying[man]:
            spanners_at[at[s]].add(s)

    # Useable spanners the man already carries
    held = sorted(s for s in carrying[man] if s in useable)

    def bfs_first_step(start, targets):
        """First location to walk to on a shortest path from start to
        any location in targets (start itself excluded), or None."""
        targets = {t for t in targets if t != start}
        if not targets:
            return None
        prev = {start: None}
        queue = deque([start])
        while queue:
            u = queue.popleft()
            if u in targets:
                while prev[u] != start:
                    u = prev[u]
                return u
            for v in links.get(u, ()):
                if v not in prev:
                    prev[v] = u
                    queue.append(v)
        return None

    plan = []
    max_steps = 10 * (len(locations) + 2) * (len(remaining) + len(spanners) + 2)
    steps = 0
    while remaining and steps <= max_steps:
        steps += 1

        # a. Pick up every useable spanner lying here
        for s in sorted(spanners_at.get(cur, ())):
            plan.append('(pickup_spanner %s %s %s)' % (cur, s, man))
            held.append(s)
        spanners_at[cur] = set()

        # b. Tighten loose goal nuts here, each with a different spanner
        held.sort()
        for n in sorted(n for n in remaining if nut_loc[n] == cur):
            if not held:
                break
            s = held.pop(0)
            plan.append('(tighten_nut %s %s %s %s)' % (cur, s, man, n))
            remaining.discard(n)
        if not remaining:
            break

        # c. Decide where to walk next
        nxt = None
        if len(held) < len(remaining):
            # Still short of spanners: head for the nearest one
            spanner_locs = {l for l, ss in spanners_at.items() if ss}
            nxt = bfs_first_step(cur, spanner_locs)
        if nxt is None:
            nut_locs = {nut_loc[n] for n in remaining if nut_loc[n] is not None}
            nxt = bfs_first_step(cur, nut_locs)
        if nxt is None:
            break  # nothing reachable: the problem cannot be solved from here

        plan.append('(walk %s %s %s)' % (cur, nxt, man))
        cur = nxt

    return plan
