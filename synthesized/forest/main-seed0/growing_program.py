# ---- answer 1 ----
from collections import defaultdict, deque


def get_plan(objects, init, goal):
    # Parse the initial state
    adjacent = defaultdict(set)
    trail = defaultdict(list)
    water = set()
    hills = set()
    start = None

    for atom in init:
        pred = atom[0]
        if pred == 'adjacent':
            adjacent[atom[1]].add(atom[2])
        elif pred == 'ontrail':
            trail[atom[1]].append(atom[2])
        elif pred == 'iswater':
            water.add(atom[1])
        elif pred == 'ishill':
            hills.add(atom[1])
        elif pred == 'at':
            start = atom[1]

    goal_cells = {atom[1] for atom in goal if atom[0] == 'at'}

    if start is None or not goal_cells or start in goal_cells:
        return []

    def make_action(frm, to):
        # Hills need "climb"; every other cell uses "walk"
        op = 'climb' if to in hills else 'walk'
        return '(%s %s %s)' % (op, frm, to)

    # Strategy: follow the trail from the start cell
    def follow_trail():
        plan = []
        cur = start
        visited = {start}
        while cur not in goal_cells:
            if cur in water:          # cannot leave a water cell
                return None
            nxt = None
            for cand in sorted(trail.get(cur, [])):
                if cand in visited or cand not in adjacent[cur]:
                    continue
                # Only step into water if it is the goal (you can't leave it)
                if cand in water and cand not in goal_cells:
                    continue
                nxt = cand
                break
            if nxt is None:           # trail broken or dead end
                return None
            plan.append(make_action(cur, nxt))
            visited.add(nxt)
            cur = nxt
        return plan

    plan = follow_trail()
    if plan is not None:
        return plan

    # Fallback: breadth-first search over the grid
    parent = {start: None}
    queue = deque([start])
    found = None
    while queue:
        cell = queue.popleft()
        if cell in goal_cells:
            found = cell
            break
        if cell in water:             # no moves out of water
            continue
        for nb in sorted(adjacent[cell]):
            if nb not in parent:
                parent[nb] = cell
                queue.append(nb)

    if found is None:
        return []                     # goal unreachable

    path = []
    cell = found
    while cell is not None:
        path.append(cell)
        cell = parent[cell]
    path.reverse()

    return [make_action(a, b) for a, b in zip(path, path[1:])]
