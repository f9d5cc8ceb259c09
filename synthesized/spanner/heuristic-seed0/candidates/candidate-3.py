from collections import deque


def make_heuristic(objects, init, goal):
    men = set()
    nuts = set()
    spanners = set()
    locations = set()
    for name, typ in objects:
        if typ == "man":
            men.add(name)
        elif typ == "nut":
            nuts.add(name)
        elif typ == "spanner":
            spanners.add(name)
        elif typ == "location":
            locations.add(name)

    succ = {}
    for atom in init:
        if atom[0] == "link":
            a, b = atom[1], atom[2]
            locations.add(a)
            locations.add(b)
            succ.setdefault(a, []).append(b)
    for atom in init:
        if atom[0] == "at":
            locations.add(atom[2])

    # All-pairs shortest walking distances over the directed link graph.
    dist = {}
    for src in locations:
        d = {src: 0}
        queue = deque([src])
        while queue:
            cur = queue.popleft()
            dc = d[cur] + 1
            for nxt in succ.get(cur, ()):
                if nxt not in d:
                    d[nxt] = dc
                    queue.append(nxt)
        dist[src] = d

    goal_nuts = set()
    other_goals = []
    for atom in goal:
        if atom[0] == "tightened":
            goal_nuts.add(atom[1])
        else:
            other_goals.append(atom)

    # Nuts never move.
    nut_loc = {}
    for atom in init:
        if atom[0] == "at" and atom[1] in nuts:
            nut_loc[atom[1]] = atom[2]

    INF = float("inf")
    PENALTY = 1000
    empty = {}

    def h(state):
        useable = set()
        tightened = set()
        loose = set()
        man_loc = {}
        ground = []  # (spanner, location)
        carrying = []  # (man, spanner)
        for atom in state:
            p = atom[0]
            if p == "at":
                obj = atom[1]
                if obj in men:
                    man_loc[obj] = atom[2]
                elif obj in spanners:
                    ground.append((obj, atom[2]))
                elif obj in nuts:
                    nut_loc.setdefault(obj, atom[2])
            elif p == "useable":
                useable.add(atom[1])
            elif p == "carrying":
                carrying.append((atom[1], atom[2]))
            elif p == "tightened":
                tightened.add(atom[1])
            elif p == "loose":
                loose.add(atom[1])

        extra = 0
        for atom in other_goals:
            if atom not in state:
                extra += 1

        # Loose goal nuts, grouped by location.
        k = 0
        nut_locs = {}
        for n in goal_nuts:
            if n in tightened:
                continue
            if n not in loose:
                return INF
            loc = nut_loc.get(n)
            if loc is None:
                return INF
            k += 1
            nut_locs[loc] = nut_locs.get(loc, 0) + 1

        if k == 0:
            return extra

        if not man_loc:
            return INF

        # Every nut location must be reachable by some man.
        for nl in nut_locs:
            ok = False
            for ml in man_loc.values():
                if nl in dist.get(ml, empty):
                    ok = True
                    break
            if not ok:
                return INF

        carried = {}
        for m, s in carrying:
            if s in useable:
                carried[m] = carried.get(m, 0) + 1

        ground_count = {}
        for s, loc in ground:
            if s in useable:
                ground_count[loc] = ground_count.get(loc, 0) + 1

        # Sound dead-end check: count spanners that could still be used on some nut.
        useful = 0
        for m, c in carried.items():
            ml = man_loc.get(m)
            if ml is None:
                continue
            dm = dist.get(ml, empty)
            for nl in nut_locs:
                if nl in dm:
                    useful += c
                    break
        for loc, c in ground_count.items():
            reach = False
            for ml in man_loc.values():
                if loc in dist.get(ml, empty):
                    reach = True
                    break
            if not reach:
                continue
            dl = dist.get(loc, empty)
            for nl in nut_locs:
                if nl in dl:
                    useful += c
                    break
        if useful < k:
            return INF

        # Spanner locations from which every remaining nut location can be reached.
        good_spots = []
        for loc, c in ground_count.items():
            dl = dist.get(loc, empty)
            ok = True
            for nl in nut_locs:
                if nl not in dl:
                    ok = False
                    break
            if ok:
                good_spots.append((loc, c))

        best = INF
        for m, ml in man_loc.items():
            c_m = carried.get(m, 0)
            need = k - c_m
            if need < 0:
                need = 0
            cost = need  # pickups
            pos = ml
            walk = 0
            if need > 0:
                remaining = list(good_spots)
                left = need
                while left > 0:
                    dp = dist.get(pos, empty)
                    bi = -1
                    bd = INF
                    for i, (loc, c) in enumerate(remaining):
                        d = dp.get(loc)
                        if d is not None and d < bd:
                            bd = d
                            bi = i
                    if bi < 0:
                        walk += PENALTY * left
                        break
                    loc, c = remaining.pop(bi)
                    walk += bd
                    pos = loc
                    left -= c
            # Visit the nut locations greedily.
            todo = set(nut_locs)
            while todo:
                dp = dist.get(pos, empty)
                bl = None
                bd = INF
                for nl in todo:
                    d = dp.get(nl)
                    if d is not None and d < bd:
                        bd = d
                        bl = nl
                if bl is None:
                    walk += PENALTY * len(todo)
                    break
                walk += bd
                pos = bl
                todo.discard(bl)
            cost += walk
            if cost < best:
                best = cost

        return k + best + extra

    return h
