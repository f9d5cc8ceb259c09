# ---- answer 1 ----
from collections import deque


def get_plan(objects, init, goal):
    origin = {}
    destin = {}
    above = set()
    boarded = set()
    served = set()
    lift = None
    floors = set()

    for name, typ in objects:
        if typ == 'floor':
            floors.add(name)

    for atom in init:
        pred = atom[0]
        if pred == 'origin':
            origin[atom[1]] = atom[2]
        elif pred == 'destin':
            destin[atom[1]] = atom[2]
        elif pred == 'above':
            above.add((atom[1], atom[2]))
            floors.add(atom[1])
            floors.add(atom[2])
        elif pred == 'boarded':
            boarded.add(atom[1])
        elif pred == 'served':
            served.add(atom[1])
        elif pred == 'lift-at':
            lift = atom[1]

    # (above a b) means b is higher than a, so height = number of floors below.
    height = {f: 0 for f in floors}
    for a, b in above:
        height[b] = height.get(b, 0) + 1

    def floor_key(f):
        return (height.get(f, 0), f)

    # Adjacency for the fallback route search.
    neighbours = {f: set() for f in floors}
    for a, b in above:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)

    def step(a, b):
        if (a, b) in above:
            return '(up %s %s)' % (a, b)
        if (b, a) in above:
            return '(down %s %s)' % (a, b)
        return None

    plan = []

    def move(dst):
        nonlocal lift
        if lift == dst or dst is None:
            return
        direct = step(lift, dst)
        if direct is not None:
            plan.append(direct)
            lift = dst
            return
        # Fallback: breadth-first search over floors linked by `above`.
        prev = {lift: None}
        queue = deque([lift])
        while queue:
            f = queue.popleft()
            if f == dst:
                break
            for g in sorted(neighbours.get(f, ()), key=floor_key):
                if g not in prev:
                    prev[g] = f
                    queue.append(g)
        if dst not in prev:
            return  # unreachable; leave the lift where it is
        route = []
        f = dst
        while f is not None:
            route.append(f)
            f = prev[f]
        route.reverse()
        for a, b in zip(route, route[1:]):
            plan.append(step(a, b))
        lift = dst

    # Goal passengers that still need serving.
    pending = sorted({a[1] for a in goal if a[0] == 'served'} - served)

    def serve_here():
        # Board first, then depart, so origin == destination works.
        for p in pending:
            if p not in served and p not in boarded and origin.get(p) == lift:
                plan.append('(board %s %s)' % (lift, p))
                boarded.add(p)
        for p in pending:
            if p not in served and p in boarded and destin.get(p) == lift:
                plan.append('(depart %s %s)' % (lift, p))
                boarded.discard(p)
                served.add(p)

    # Handle whatever can be done at the starting floor.
    serve_here()

    # Collect phase: visit every floor where someone still waits.
    pickup_floors = sorted(
        {origin[p] for p in pending
         if p not in served and p not in boarded and p in origin},
        key=floor_key)
    for f in pickup_floors:
        if any(p not in served and p not in boarded and origin.get(p) == f
               for p in pending):
            move(f)
            serve_here()

    # Deliver phase: visit every floor where a boarded passenger gets out.
    drop_floors = sorted(
        {destin[p] for p in pending
         if p not in served and p in boarded and p in destin},
        key=floor_key)
    for f in drop_floors:
        if any(p not in served and p in boarded and destin.get(p) == f
               for p in pending):
            move(f)
            serve_here()

    # Optional goal on the lift position.
    for atom in goal:
        if atom[0] == 'lift-at':
            move(atom[1])

    return plan


# ---- answer 2 ----
from collections import deque


def get_plan(objects, init, goal):
    origin = {}
    destin = {}
    above = set()
    boarded = set()
    served = set()
    lifts = set()          # every floor that currently has (lift-at f)
    floors = set()

    for name, typ in objects:
        if typ == 'floor':
            floors.add(name)

    for atom in init:
        pred = atom[0]
        if pred == 'origin':
            origin[atom[1]] = atom[2]
        elif pred == 'destin':
            destin[atom[1]] = atom[2]
        elif pred == 'above':
            above.add((atom[1], atom[2]))
            floors.add(atom[1])
            floors.add(atom[2])
        elif pred == 'boarded':
            boarded.add(atom[1])
        elif pred == 'served':
            served.add(atom[1])
        elif pred == 'lift-at':
            lifts.add(atom[1])
            floors.add(atom[1])

    # (above a b) means b is higher than a; height = number of floors below.
    height = {f: 0 for f in floors}
    for a, b in above:
        height[b] = height.get(b, 0) + 1

    def floor_key(f):
        return (height.get(f, 0), f)

    neighbours = {f: set() for f in floors}
    for a, b in above:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)

    def step(a, b):
        if (a, b) in above:
            return '(up %s %s)' % (a, b)
        if (b, a) in above:
            return '(down %s %s)' % (a, b)
        return None

    def route(src, dst):
        """List of floors from src to dst linked by `above`, or None."""
        if src == dst:
            return [src]
        if step(src, dst) is not None:
            return [src, dst]
        prev = {src: None}
        queue = deque([src])
        while queue:
            f = queue.popleft()
            if f == dst:
                break
            for g in sorted(neighbours.get(f, ()), key=floor_key):
                if g not in prev:
                    prev[g] = f
                    queue.append(g)
        if dst not in prev:
            return None
        path = []
        f = dst
        while f is not None:
            path.append(f)
            f = prev[f]
        path.reverse()
        return path

    plan = []

    def move(dst, avoid=()):
        """Bring some lift that can reach dst to dst. Returns True on success."""
        if dst is None:
            return False
        if dst in lifts:
            return True
        best = None
        for l in sorted(lifts, key=floor_key):
            if l in avoid:
                continue
            r = route(l, dst)
            if r is not None and (best is None or len(r) < len(best)):
                best = r
        if best is None:
            return False
        for a, b in zip(best, best[1:]):
            plan.append(step(a, b))
            # STRIPS effect: add (lift-at b), delete (lift-at a).
            lifts.discard(a)
            lifts.add(b)
        return True

    # Goal passengers that still need serving.
    pending = sorted({a[1] for a in goal if a[0] == 'served'} - served)

    def waiting(p):
        return p not in served and p not in boarded and p in origin

    def riding(p):
        return p not in served and p in boarded and p in destin

    def serve_here():
        # Board first, then depart, at every floor that currently has a lift.
        for p in pending:
            if waiting(p) and origin[p] in lifts:
                plan.append('(board %s %s)' % (origin[p], p))
                boarded.add(p)
        for p in pending:
            if riding(p) and destin[p] in lifts:
                plan.append('(depart %s %s)' % (destin[p], p))
                boarded.discard(p)
                served.add(p)

    # Handle whatever can be done where the lifts already are.
    serve_here()

    # Collect phase: visit every floor where someone still waits.
    pickup_floors = sorted({origin[p] for p in pending if waiting(p)},
                           key=floor_key)
    for f in pickup_floors:
        if any(waiting(p) and origin[p] == f for p in pending):
            if move(f):
                serve_here()

    # Deliver phase: visit every floor where a boarded passenger gets out.
    drop_floors = sorted({destin[p] for p in pending if riding(p)},
                         key=floor_key)
    for f in drop_floors:
        if any(riding(p) and destin[p] == f for p in pending):
            if move(f):
                serve_here()

    # Optional goals on lift positions: keep already satisfied ones in place.
    goal_lifts = sorted({a[1] for a in goal if a[0] == 'lift-at'},
                        key=floor_key)
    for f in goal_lifts:
        if f not in lifts:
            done = {g for g in goal_lifts if g in lifts}
            if not move(f, avoid=done):
                move(f)

    return plan
