from collections import deque


def make_heuristic(objects, init, goal):
    INF = float("inf")

    men = set()
    spanners = set()
    nuts = set()
    locations = set()
    for name, typ in objects:
        if typ == "man":
            men.add(name)
        elif typ == "spanner":
            spanners.add(name)
        elif typ == "nut":
            nuts.add(name)
        elif typ == "location":
            locations.add(name)

    succ = {}
    for atom in init:
        if atom[0] == "link":
            locations.add(atom[1])
            locations.add(atom[2])
            succ.setdefault(atom[1], []).append(atom[2])

    # Nut locations never change; read them from init.
    nut_loc_init = {}
    for atom in init:
        if atom[0] == "at" and atom[1] in nuts:
            nut_loc_init[atom[1]] = atom[2]
            locations.add(atom[2])
        elif atom[0] == "at":
            locations.add(atom[2])

    # All-pairs shortest distances along directed links (BFS from each location).
    dist = {}
    for src in locations:
        d = {src: 0}
        queue = deque([src])
        while queue:
            cur = queue.popleft()
            nd = d[cur] + 1
            for nxt in succ.get(cur, ()):
                if nxt not in d:
                    d[nxt] = nd
                    queue.append(nxt)
        dist[src] = d

    goal_nuts = [atom[1] for atom in goal if atom[0] == "tightened"]
    single_man = len(men) <= 1

    def h(state):
        man_loc = {}
        sp_loc = {}
        carried_by = {}
        useable = set()
        tight = set()
        nut_loc = nut_loc_init
        extra_nut_loc = None
        for atom in state:
            p = atom[0]
            if p == "at":
                obj = atom[1]
                if obj in men:
                    man_loc[obj] = atom[2]
                elif obj in spanners:
                    sp_loc[obj] = atom[2]
                elif obj in nuts and obj not in nut_loc_init:
                    if extra_nut_loc is None:
                        extra_nut_loc = {}
                    extra_nut_loc[obj] = atom[2]
            elif p == "carrying":
                carried_by[atom[2]] = atom[1]
            elif p == "useable":
                useable.add(atom[1])
            elif p == "tightened":
                tight.add(atom[1])

        loose_goal = [n for n in goal_nuts if n not in tight]
        k = len(loose_goal)
        if k == 0:
            return 0

        nut_locs = set()
        for n in loose_goal:
            loc = nut_loc.get(n)
            if loc is None and extra_nut_loc is not None:
                loc = extra_nut_loc.get(n)
            if loc is not None:
                nut_locs.add(loc)

        # Usable spanners carried per man, usable spanners lying on the ground.
        carried_count = {}
        for s, m in carried_by.items():
            if s in useable:
                carried_count[m] = carried_count.get(m, 0) + 1
        ground = [(s, l) for s, l in sp_loc.items() if s in useable]

        # Global dead-end check: not enough usable spanners that some man can still get.
        total = sum(carried_count.values())
        if total < k:
            for s, sl in ground:
                for m, ml in man_loc.items():
                    dm = dist.get(ml)
                    if dm is not None and sl in dm:
                        total += 1
                        break
            if total < k:
                return INF

        best = INF
        for m, ml in man_loc.items():
            dm = dist.get(ml, {ml: 0})
            c = carried_count.get(m, 0)
            need = k - c
            if need < 0:
                need = 0

            nutdist = 0
            for nl in nut_locs:
                d = dm.get(nl)
                if d is None:
                    nutdist = INF
                    break
                if d > nutdist:
                    nutdist = d
            if nutdist == INF:
                continue

            walk = nutdist
            if need > 0:
                costs = []
                for s, sl in ground:
                    d1 = dm.get(sl)
                    if d1 is None:
                        continue
                    ds = dist.get(sl, {sl: 0})
                    d2 = INF
                    for nl in nut_locs:
                        dd = ds.get(nl)
                        if dd is not None and dd < d2:
                            d2 = dd
                    if d2 == INF:
                        continue
                    costs.append(d1 + d2)
                if len(costs) < need:
                    continue
                costs.sort()
                far = costs[need - 1]
                if far > walk:
                    walk = far

            value = k + need + walk
            if value < best:
                best = value

        if best == INF:
            if single_man:
                return INF
            # Several men: one man alone cannot do it, but a team might.
            return 1000 + 2 * k
        return best

    return h
