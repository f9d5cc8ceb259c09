# ---- answer 1 ----
def get_plan(objects, init, goal):
    from collections import defaultdict

    nodes = sorted(objects)

    # Edges (predicate1 a b) and the nodes that may still be moved into (predicate4 x)
    succ = defaultdict(set)
    unvisited = set()
    for atom in init:
        if atom[0] == 'predicate1' and len(atom) == 3:
            succ[atom[1]].add(atom[2])
        elif atom[0] == 'predicate4' and len(atom) == 2:
            unvisited.add(atom[1])

    # Nodes that must end up visited (predicate3 x)
    targets = {atom[1] for atom in goal if atom[0] == 'predicate3' and len(atom) == 2}
    if not targets:
        targets = set(nodes)

    def to_plan(path):
        plan = ['(operator0 %s)' % path[0]]
        for a, b in zip(path, path[1:]):
            plan.append('(operator1 %s %s)' % (a, b))
        return plan

    def valid(path):
        if not path:
            return False
        seen = {path[0]}
        for a, b in zip(path, path[1:]):
            if b not in succ[a] or b in seen or b not in unvisited:
                return False
            seen.add(b)
        return targets <= seen

    outdeg = lambda x: (-len(succ[x]), x)

    # 1) Main strategy: walk the nodes from highest to lowest out-degree
    order = sorted(nodes, key=outdeg)
    if valid(order):
        return to_plan(order)

    # 2) Insertion method: place each node just before the first node
    #    on the path that it has an edge to, or at the end if there is none
    path = []
    for v in order:
        pos = len(path)
        for i, u in enumerate(path):
            if u in succ[v]:
                pos = i
                break
        path.insert(pos, v)
    if valid(path):
        return to_plan(path)

    # 3) Last resort: depth-first search for a simple path covering all targets
    for start in order:
        path = [start]
        on_path = {start}
        if targets <= on_path:
            return to_plan(path)
        stack = [iter(sorted(succ[start], key=outdeg))]
        while stack:
            advanced = False
            for nxt in stack[-1]:
                if nxt not in on_path and nxt in unvisited:
                    path.append(nxt)
                    on_path.add(nxt)
                    if targets <= on_path:
                        return to_plan(path)
                    stack.append(iter(sorted(succ[nxt], key=outdeg)))
                    advanced = True
                    break
            if not advanced:
                stack.pop()
                on_path.discard(path.pop())

    return []  # no plan found
