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

    # Directed link graph (static).
    adj = {}
    for atom in init:
        if atom[0] == "link" and len(atom) == 3:
            adj.setdefault(atom[1], set()).add(atom[2])
            locations.add(atom[1])
            locations.add(atom[2])

    # All-pairs shortest walking distances (BFS from every location).
    dist = {}
    for src in locations:
        d = {src: 0}
        q = deque([src])
        while q:
            u = q.popleft()
            du = d[u] + 1
            for v in adj.get(u, ()):
                if v not in d:
                    d[v] = du
                    q.append(v)
        dist[src] = d

    goal_nuts = [a[1] for a in goal if a[0] == "tightened"]
    other_goals = [a for a in goal if a[0] != "tightened"]
    single = len(men) == 1

    def sim(pos, have, floor_locs, nut_count, n):
        """Greedy nearest-target simulation for one man. Returns cost or None."""
        floor = list(floor_locs)
        pending = dict(nut_count)
        cost = 0
        while n > 0:
            dp = dist.get(pos)
            if dp is None:
                dp = {pos: 0}
            # Tighten nuts right here if possible.
            if have > 0 and pending.get(pos, 0) > 0:
                k = min(have, pending[pos])
                cost += k
                have -= k
                n -= k
                pending[pos] -= k
                continue
            best_s = INF
            si = -1
            if have < n:
                for i, l in enumerate(floor):
                    d = dp.get(l, INF)
                    if d < best_s:
                        best_s = d
                        si = i
                        if d == 0:
                            break
            best_n = INF
            nl = None
            if have > 0:
                for l, c in pending.items():
                    if c > 0:
                        d = dp.get(l, INF)
                        if d < best_n:
                            best_n = d
                            nl = l
            if have == 0 or (si >= 0 and best_s <= best_n):
                if best_s == INF:
                    return None
                cost += best_s + 1  # walk + pickup
                pos = floor[si]
                floor[si] = floor[-1]
                floor.pop()
                have += 1
            else:
                if best_n == INF:
                    return None
                cost += best_n
                pos = nl
        return cost

    def h(state):
        man_loc = {}
        span_loc = {}
        nut_loc = {}
        carried = {}
        useable = set()
        tightened = set()
        for atom in state:
            p = atom[0]
            if p == "at":
                obj = atom[1]
                if obj in men:
                    man_loc[obj] = atom[2]
                elif obj in spanners:
                    span_loc[obj] = atom[2]
                elif obj in nuts:
                    nut_loc[obj] = atom[2]
            elif p == "carrying":
                carried.setdefault(atom[1], []).append(atom[2])
            elif p == "useable":
                useable.add(atom[1])
            elif p == "tightened":
                tightened.add(atom[1])

        extra = 0
        for a in other_goals:
            if a not in state:
                extra += 1

        remaining = [x for x in goal_nuts if x not in tightened]
        n = len(remaining)
        if n == 0:
            return extra

        # Spanners never become useable again.
        if n > len(useable):
            return INF

        nut_count = {}
        for x in remaining:
            l = nut_loc.get(x)
            if l is None:
                return INF  # a loose nut with no location can never be tightened
            nut_count[l] = nut_count.get(l, 0) + 1

        floor_locs = [span_loc[s] for s in useable if s in span_loc]

        best = INF
        for m in men:
            pos = man_loc.get(m)
            if pos is None:
                continue
            have = 0
            for s in carried.get(m, ()):
                if s in useable:
                    have += 1
            c = sim(pos, have, floor_locs, nut_count, n)
            if c is not None and c < best:
                best = c

        if best < INF:
            return best + extra

        # Greedy simulation failed: check for a genuine dead end (single man only).
        if single:
            m = next(iter(men))
            pos = man_loc.get(m)
            if pos is None:
                return INF
            dp = dist.get(pos)
            if dp is None:
                dp = {pos: 0}
            for l in nut_count:
                if l not in dp:
                    return INF
            have = 0
            for s in carried.get(m, ()):
                if s in useable:
                    have += 1
            reachable = have + sum(1 for l in floor_locs if l in dp)
            if reachable < n:
                return INF

        # Possibly solvable but the greedy estimate failed: large finite value.
        return 1000 + 3 * n + extra

    return h
