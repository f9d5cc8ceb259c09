# ---- answer 1 ----
from collections import defaultdict, deque


def get_plan(objects, init, goal):
    start = None
    water = set()
    hills = set()
    adj_set = set()
    neighbours = defaultdict(list)
    trail = defaultdict(list)

    # Read the initial state.
    for atom in init:
        pred = atom[0]
        if pred == 'at':
            start = atom[1]
        elif pred == 'iswater':
            water.add(atom[1])
        elif pred == 'ishill':
            hills.add(atom[1])
        elif pred == 'adjacent':
            a, b = atom[1], atom[2]
            adj_set.add((a, b))
            neighbours[a].append(b)
        elif pred == 'ontrail':
            trail[atom[1]].append(atom[2])

    targets = [atom[1] for atom in goal if atom[0] == 'at']
    if start is None or not targets:
        return []
    target = targets[0]
    if start == target:
        return []

    def action(a, b):
        # Climb onto a hill, walk onto anything else.
        if b in hills:
            return '(climb %s %s)' % (a, b)
        return '(walk %s %s)' % (a, b)

    def legal(a, b):
        # The domain's preconditions: adjacent, and not leaving water.
        # We also refuse to enter water unless it is the goal.
        return ((a, b) in adj_set and a not in water
                and (b not in water or b == target))

    # 1) Follow the trail from the start cell.
    plan = []
    cur = start
    visited = {start}
    ok = True
    while cur != target:
        options = sorted(n for n in trail.get(cur, [])
                         if n not in visited and legal(cur, n))
        if not options:
            ok = False
            break
        nxt = options[0]
        plan.append(action(cur, nxt))
        visited.add(nxt)
        cur = nxt
    if ok:
        return plan

    # 2) Fallback: shortest path over adjacent cells (never moving out of water).
    parent = {start: None}
    queue = deque([start])
    while queue:
        u = queue.popleft()
        if u == target:
            break
        if u in water:
            continue  # cannot move out of water
        for v in sorted(neighbours[u]):
            if v not in parent:
                parent[v] = u
                queue.append(v)

    if target not in parent:
        return []  # goal unreachable

    path = []
    node = target
    while node is not None:
        path.append(node)
        node = parent[node]
    path.reverse()
    return [action(a, b) for a, b in zip(path, path[1:])]


# ---- answer 2 ----
from collections import defaultdict, deque


def get_plan(objects, init, goal):
    start = None
    water = set()
    hills = set()
    neighbours = defaultdict(set)

    # Read the initial state.
    for atom in init:
        pred = atom[0]
        if pred == 'at':
            start = atom[1]
        elif pred == 'iswater':
            water.add(atom[1])
        elif pred == 'ishill':
            hills.add(atom[1])
        elif pred == 'adjacent':
            neighbours[atom[1]].add(atom[2])
        # 'ontrail' is ignored: no action depends on it, and following it
        # can be far longer than the shortest route.

    targets = [atom[1] for atom in goal if atom[0] == 'at']
    if start is None or not targets:
        return []
    target = targets[0]
    if start == target:
        return []

    def action(a, b):
        # Climb onto a hill, walk onto anything else.
        if b in hills:
            return '(climb %s %s)' % (a, b)
        return '(walk %s %s)' % (a, b)

    # Breadth-first search: every action costs the same, so the first time
    # we reach the target we have a shortest (optimal) plan.
    parent = {start: None}
    queue = deque([start])
    found = False
    while queue:
        u = queue.popleft()
        if u in water:
            continue  # precondition (not (iswater ?from)): can't leave water
        for v in sorted(neighbours[u]):
            if v in parent:
                continue
            if v in water and v != target:
                continue  # entering water (other than the goal) is a dead end
            parent[v] = u
            if v == target:
                found = True
                break
            queue.append(v)
        if found:
            break

    if not found:
        return []  # goal unreachable

    # Rebuild the path from the target back to the start.
    path = []
    node = target
    while node is not None:
        path.append(node)
        node = parent[node]
    path.reverse()
    return [action(a, b) for a, b in zip(path, path[1:])]
