from collections import deque

INF = float("inf")


def make_heuristic(objects, init, goal):
    # ---------------------------------------------------------------- task data
    kind = {}
    locations = set()
    for name, t in objects:
        kind[name] = t
        if t == "location":
            locations.add(name)

    succ = {}
    for atom in init:
        if atom[0] == "link":
            succ.setdefault(atom[1], []).append(atom[2])
            locations.add(atom[1])
            locations.add(atom[2])
    for loc in succ:
        succ[loc] = sorted(set(succ[loc]))

    # Nuts never move: their locations are fixed by the initial state.
    nut_loc = {}
    for atom in init:
        if atom[0] == "at" and kind.get(atom[1]) == "nut":
            nut_loc[atom[1]] = atom[2]

    goal_nuts = sorted(a[1] for a in goal if a[0] == "tightened")
    other_goals = [a for a in goal if a[0] != "tightened"]

    penalty = len(locations) + 1

    # ------------------------------------------------- cached graph distances
    dist_cache = {}

    def dists(src):
        d = dist_cache.get(src)
        if d is None:
            d = {src: 0}
            queue = deque([src])
            while queue:
                u = queue.popleft()
                du = d[u] + 1
                for v in succ.get(u, ()):
                    if v not in d:
                        d[v] = du
                        queue.append(v)
            dist_cache[src] = d
        return d

    # Cost of walking from x through all locations in nlocs (greedy nearest-neighbour tour).
    tour_cache = {}

    def tour(x, nlocs):
        key = (x, nlocs)
        v = tour_cache.get(key)
        if v is None:
            cur = x
            remaining = set(nlocs)
            total = 0
            while remaining:
                dc = dists(cur)
                best = None
                bd = INF
                for loc in sorted(remaining):
                    dl = dc.get(loc, INF)
                    if dl < bd:
                        bd = dl
                        best = loc
                if best is None:
                    total += penalty * len(remaining)
                    break
                total += bd
                cur = best
                remaining.discard(best)
            v = total
            tour_cache[key] = v
        return v

    # Locations reachable from p from which some loose-nut location is reachable,
    # sorted by distance from p (ties: cheaper remaining nut tour, then name).
    cand_cache = {}

    def cands(p, nlocs):
        key = (p, nlocs)
        v = cand_cache.get(key)
        if v is None:
            dp = dists(p)
            lst = []
            for loc, d in dp.items():
                dl = dists(loc)
                useful = False
                for nl in nlocs:
                    if nl in dl:
                        useful = True
                        break
                if useful:
                    lst.append((d, tour(loc, nlocs), loc))
            lst.sort()
            v = [(d, loc) for d, _, loc in lst]
            cand_cache[key] = v
        return v

    # ---------------------------------------------------------------- heuristic
    def h(state):
        man_at = {}
        spanner_at = {}
        carrying = []
        useable = set()
        loose = set()
        tightened = set()
        for atom in state:
            p = atom[0]
            if p == "at":
                k = kind.get(atom[1])
                if k == "man":
                    man_at[atom[1]] = atom[2]
                elif k == "spanner":
                    spanner_at[atom[1]] = atom[2]
            elif p == "carrying":
                carrying.append((atom[1], atom[2]))
            elif p == "useable":
                useable.add(atom[1])
            elif p == "loose":
                loose.add(atom[1])
            elif p == "tightened":
                tightened.add(atom[1])

        extra = 0
        for g in other_goals:
            if g not in state:
                extra += 1

        todo = [n for n in goal_nuts if n not in tightened]
        if not todo:
            return extra

        nl = set()
        for n in todo:
            if n not in loose:
                return INF  # neither tightened nor loose: can never be tightened
            loc = nut_loc.get(n)
            if loc is None:
                return INF
            nl.add(loc)
        nlocs = frozenset(nl)
        n_todo = len(todo)

        men = sorted(man_at.items())
        if not men:
            return INF

        # Every loose nut location must be reachable by some man.
        for loc in nlocs:
            ok = False
            for _, p in men:
                if loc in dists(p):
                    ok = True
                    break
            if not ok:
                return INF

        ground = {}
        for s, loc in spanner_at.items():
            if s in useable:
                ground[loc] = ground.get(loc, 0) + 1

        carried = {}
        for m, s in carrying:
            if s in useable:
                carried[m] = carried.get(m, 0) + 1

        total_c = 0
        for m, p in men:
            c = carried.get(m, 0)
            if c:
                dp = dists(p)
                for loc in nlocs:
                    if loc in dp:
                        total_c += c
                        break

        need = n_todo - total_c
        pickups = need if need > 0 else 0

        best_walk = INF
        for m, p in men:
            r = n_todo - carried.get(m, 0)
            if r <= 0:
                w = tour(p, nlocs)
            else:
                got = 0
                X = p
                dX = 0
                for d, loc in cands(p, nlocs):
                    cnt = ground.get(loc)
                    if cnt:
                        got += cnt
                        X = loc
                        dX = d
                        if got >= r:
                            break
                if got >= r:
                    w = dX + tour(X, nlocs)
                else:
                    w = INF
            if w < best_walk:
                best_walk = w

        if best_walk == INF:
            if len(men) == 1:
                return INF  # not enough usable spanners reachable
            # Several men: check the pooled supply of spanners.
            avail = set()
            for _, p in men:
                for _, loc in cands(p, nlocs):
                    avail.add(loc)
            supply = total_c
            for loc in avail:
                supply += ground.get(loc, 0)
            if supply < n_todo:
                return INF
            best_walk = min(tour(p, nlocs) for _, p in men) + pickups

        return n_todo + pickups + best_walk + extra

    return h
