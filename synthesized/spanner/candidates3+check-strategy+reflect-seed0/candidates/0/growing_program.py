# ---- answer 1 ----
def get_plan(objects, init, goal):
    from collections import defaultdict, deque

    # ---------- read objects and the initial state ----------
    type_of = {name: t for name, t in objects}
    men = sorted(o for o, t in objects if t == 'man')
    nuts = {o for o, t in objects if t == 'nut'}
    spanners = {o for o, t in objects if t == 'spanner'}

    at = {}                      # locatable -> location
    succ = defaultdict(list)     # location -> locations reachable by one link
    carried = []                 # (man, spanner) pairs carried at the start
    useable = set()
    loose = set()

    for atom in init:
        pred, args = atom[0], atom[1:]
        if pred == 'at' and len(args) == 2:
            at[args[0]] = args[1]
        elif pred == 'link' and len(args) == 2:
            succ[args[0]].append(args[1])
        elif pred == 'carrying' and len(args) == 2:
            carried.append((args[0], args[1]))
        elif pred == 'useable' and len(args) == 1:
            useable.add(args[0])
        elif pred == 'loose' and len(args) == 1:
            loose.add(args[0])

    goal_nuts = {a[1] for a in goal if a[0] == 'tightened' and len(a) == 2}

    # Fallbacks in case some type information is missing.
    spanners |= useable | {s for _, s in carried}
    nuts |= loose | goal_nuts
    if not men:
        men = sorted({m for m, _ in carried} |
                     {o for o in at
                      if o not in nuts and o not in spanners
                      and type_of.get(o) != 'location'})

    for loc in succ:
        succ[loc].sort()         # deterministic order

    # Nuts that still have to be tightened.
    todo = {n for n in goal_nuts if n in loose}
    plan = []
    if not todo or not men:
        return plan

    def reachable(src):
        """All locations reachable from src (src included)."""
        seen = {src}
        queue = deque([src])
        while queue:
            cur = queue.popleft()
            for nxt in succ.get(cur, []):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return seen

    # ---------- choose the man ----------
    nut_locs = {at[n] for n in todo if n in at}
    man = men[0]
    for m in men:
        if m in at and nut_locs <= reachable(at[m]):
            man = m
            break
    if man not in at:
        return plan

    # Useable spanners carried by the man, in the order they were acquired.
    held = [s for m, s in sorted(carried) if m == man and s in useable]

    visited = {at[man]}
    n_locs = len({o for o, t in objects if t == 'location'} | set(succ) |
                 {l for ls in succ.values() for l in ls} | set(at.values()))
    limit = 4 * (n_locs + len(spanners) + len(nuts)) + 100   # safety guard

    # ---------- simulate the rules ----------
    steps = 0
    while todo and steps < limit:
        steps += 1
        loc = at[man]

        # Rule 1: Tighten.
        here_nuts = sorted(n for n in todo if at.get(n) == loc)
        if here_nuts and held:
            n = here_nuts[0]
            s = held.pop(0)
            plan.append('(tighten_nut %s %s %s %s)' % (loc, s, man, n))
            useable.discard(s)
            loose.discard(n)
            todo.discard(n)
            continue

        # Rule 2: Pick up (only useable spanners can ever help).
        here_spanners = sorted(s for s in spanners
                               if at.get(s) == loc and s in useable)
        if here_spanners:
            s = here_spanners[0]
            plan.append('(pickup_spanner %s %s %s)' % (loc, s, man))
            del at[s]
            held.append(s)
            continue

        # Rule 3: Walk.
        options = succ.get(loc, [])
        if not options:
            break                # dead end: no plan possible from here
        targets = {at[n] for n in todo if n in at}

        def score(nxt):
            r = reachable(nxt)
            return (not targets <= r,        # prefer reaching every remaining nut
                    -len(targets & r),       # otherwise as many as possible
                    nxt in visited,          # prefer new locations
                    nxt)                     # deterministic tie-break

        nxt = min(options, key=score)
        plan.append('(walk %s %s %s)' % (loc, nxt, man))
        at[man] = nxt
        visited.add(nxt)

    return plan
