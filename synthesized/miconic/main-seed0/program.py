# ---- answer 1 ----
def get_plan(objects, init, goal):
    from collections import defaultdict, deque

    # ---- Read the problem ----
    floors = {name for name, typ in objects if typ == 'floor'}
    above = set()        # (a, b) means b is higher than a, so "up a b" is allowed
    origin, destin = {}, {}
    boarded, served = set(), set()
    lift = None

    for atom in init:
        pred = atom[0]
        if pred == 'above':
            above.add((atom[1], atom[2]))
            floors.update(atom[1:3])
        elif pred == 'origin':
            origin[atom[1]] = atom[2]
        elif pred == 'destin':
            destin[atom[1]] = atom[2]
        elif pred == 'boarded':
            boarded.add(atom[1])
        elif pred == 'served':
            served.add(atom[1])
        elif pred == 'lift-at':
            lift = atom[1]

    # A floor's height is the number of floors below it
    height = defaultdict(int)
    for lower, higher in above:
        height[higher] += 1

    def by_height(f):
        return (height[f], f)

    # Moves allowed between floors (used only if a direct move is missing)
    adj = defaultdict(list)
    for a, b in above:
        adj[a].append(('up', b))
        adj[b].append(('down', a))

    plan = []
    state = {'at': lift}

    def move_to(target):
        cur = state['at']
        if cur is None or cur == target:
            state['at'] = target if cur is None else cur
            return
        if (cur, target) in above:
            plan.append(f'(up {cur} {target})')
        elif (target, cur) in above:
            plan.append(f'(down {cur} {target})')
        else:
            # Fallback: breadth-first search over up/down moves
            prev = {cur: None}
            queue = deque([cur])
            while queue:
                x = queue.popleft()
                if x == target:
                    break
                for op, y in adj[x]:
                    if y not in prev:
                        prev[y] = (x, op)
                        queue.append(y)
            steps = []
            x = target
            while prev.get(x) is not None:
                px, op = prev[x]
                steps.append(f'({op} {px} {x})')
                x = px
            plan.extend(reversed(steps))
        state['at'] = target

    # ---- Passengers that still need serving ----
    todo = sorted({atom[1] for atom in goal if atom[0] == 'served'} - served)

    # ---- Pass 1: pick-ups, from the lowest floor up ----
    pickups = defaultdict(list)
    for p in todo:
        if p not in boarded:
            pickups[origin[p]].append(p)
    for f in sorted(pickups, key=by_height):
        move_to(f)
        for p in pickups[f]:
            plan.append(f'(board {f} {p})')
            boarded.add(p)

    # ---- Pass 2: drop-offs, from the highest floor down ----
    dropoffs = defaultdict(list)
    for p in todo:
        dropoffs[destin[p]].append(p)
    for f in sorted(dropoffs, key=by_height, reverse=True):
        move_to(f)
        for p in dropoffs[f]:
            plan.append(f'(depart {f} {p})')
            boarded.discard(p)
            served.add(p)

    return plan


# ---- answer 2 ----
def get_plan(objects, init, goal):
    from collections import defaultdict, deque

    # ---- Read the problem ----
    floors = {name for name, typ in objects if typ == 'floor'}
    above = set()          # (a, b): b is higher than a, so "up a b" is allowed
    origin, destin = {}, {}
    boarded, served = set(), set()
    lift_floors = []       # one entry per lift-at fact (one lift per building)

    for atom in init:
        pred = atom[0]
        if pred == 'above':
            above.add((atom[1], atom[2]))
            floors.update(atom[1:3])
        elif pred == 'origin':
            origin[atom[1]] = atom[2]
            floors.add(atom[2])
        elif pred == 'destin':
            destin[atom[1]] = atom[2]
            floors.add(atom[2])
        elif pred == 'boarded':
            boarded.add(atom[1])
        elif pred == 'served':
            served.add(atom[1])
        elif pred == 'lift-at':
            lift_floors.append(atom[1])
            floors.add(atom[1])

    # ---- Split floors into buildings (connected through 'above') ----
    parent = {f: f for f in floors}

    def find(f):
        while parent[f] != f:
            parent[f] = parent[parent[f]]
            f = parent[f]
        return f

    for a, b in above:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    # A floor's height is the number of floors below it in its building
    height = defaultdict(int)
    for lower, higher in above:
        height[higher] += 1

    def by_height(f):
        return (height[f], f)

    # Allowed moves (used only if a direct move is missing)
    adj = defaultdict(list)
    for a, b in above:
        adj[a].append(('up', b))
        adj[b].append(('down', a))

    # Where each building's lift is now
    lift_pos = {}
    for f in sorted(lift_floors):
        lift_pos.setdefault(find(f), f)

    plan = []

    def move_to(building, target):
        cur = lift_pos[building]
        if cur == target:
            return
        if (cur, target) in above:
            plan.append(f'(up {cur} {target})')
        elif (target, cur) in above:
            plan.append(f'(down {cur} {target})')
        else:
            # Breadth-first search over up/down moves within the building
            prev = {cur: None}
            queue = deque([cur])
            while queue:
                x = queue.popleft()
                if x == target:
                    break
                for op, y in adj[x]:
                    if y not in prev:
                        prev[y] = (x, op)
                        queue.append(y)
            if target not in prev:
                return  # unreachable; should not happen within a building
            steps = []
            x = target
            while prev[x] is not None:
                px, op = prev[x]
                steps.append(f'({op} {px} {x})')
                x = px
            plan.extend(reversed(steps))
        lift_pos[building] = target

    # ---- Passengers that still need serving, grouped by building ----
    todo = sorted({atom[1] for atom in goal if atom[0] == 'served'} - served)
    groups = defaultdict(list)
    for p in todo:
        if p not in destin:
            continue
        if p in boarded:
            b = find(destin[p])
        else:
            if p not in origin or find(origin[p]) != find(destin[p]):
                continue  # cannot be served: different buildings
            b = find(origin[p])
        groups[b].append(p)

    # ---- Serve each building with its own lift ----
    for b in sorted(groups):
        if b not in lift_pos:
            continue  # no lift in this building
        passengers = groups[b]

        # Pass 1: pick-ups, from the lowest floor up
        pickups = defaultdict(list)
        for p in passengers:
            if p not in boarded:
                pickups[origin[p]].append(p)
        for f in sorted(pickups, key=by_height):
            move_to(b, f)
            for p in pickups[f]:
                plan.append(f'(board {f} {p})')
                boarded.add(p)

        # Pass 2: drop-offs, from the highest floor down
        dropoffs = defaultdict(list)
        for p in passengers:
            dropoffs[destin[p]].append(p)
        for f in sorted(dropoffs, key=by_height, reverse=True):
            move_to(b, f)
            for p in dropoffs[f]:
                plan.append(f'(depart {f} {p})')
                boarded.discard(p)
                served.add(p)

    return plan
