def make_heuristic(objects, init, goal):
    # Static facts: where each passenger starts and where each one wants to go.
    origins = {}
    destins = {}
    for atom in init:
        if len(atom) == 3 and atom[0] == "origin":
            origins.setdefault(atom[1], set()).add(atom[2])
        elif len(atom) == 3 and atom[0] == "destin":
            destins.setdefault(atom[1], set()).add(atom[2])

    # Passengers the goal asks to serve, with their static data computed once.
    pending = []
    for atom in goal:
        if atom[0] == "served" and len(atom) >= 2:
            p = atom[1]
            pending.append((
                p,
                ("served", p),
                ("boarded", p),
                frozenset(origins.get(p, ())),
                sorted(origins.get(p, ())),
                frozenset(destins.get(p, ())),
                sorted(destins.get(p, ())),
            ))
    other_goals = [atom for atom in goal if atom[0] != "served"]

    INF = float("inf")

    def h(state):
        lift = None
        for atom in state:
            if atom[0] == "lift-at":
                lift = atom[1]
                break

        cost = 0            # board/depart actions still needed
        needed = set()      # floors (other than the current one) the lift must visit
        cur_needed = False  # the lift must come back to the current floor later
        for p, served_atom, boarded_atom, oset, olist, dset, dlist in pending:
            if served_atom in state:
                continue
            if not dlist:
                return INF  # can never be served
            d = lift if lift in dset else dlist[0]
            if boarded_atom in state:
                cost += 1
                if d != lift:
                    needed.add(d)
            else:
                if not olist:
                    return INF  # cannot board, never served
                cost += 2
                o = lift if lift in oset else olist[0]
                if o != lift:
                    needed.add(o)
                    if d == lift:
                        cur_needed = True
                    else:
                        needed.add(d)
                else:
                    if d != lift:
                        needed.add(d)

        moves = len(needed) + (1 if cur_needed else 0)

        extra = 0
        for atom in other_goals:
            if atom not in state:
                extra += 1

        return cost + moves + extra

    return h
