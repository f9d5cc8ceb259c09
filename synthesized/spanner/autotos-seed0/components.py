def successor_states(state, objects):
    from collections import defaultdict

    supertypes = {
        'object': [],
        'location': ['object'],
        'locatable': ['object'],
        'man': ['locatable'],
        'nut': ['locatable'],
        'spanner': ['locatable'],
    }

    def all_types(t):
        result = set()
        stack = [t]
        while stack:
            cur = stack.pop()
            if cur in result:
                continue
            result.add(cur)
            for p in supertypes.get(cur, []):
                stack.append(p)
        return result

    objs_of_type = defaultdict(set)
    for name, typ in objects:
        for t in all_types(typ):
            objs_of_type[t].add(name)

    locations = objs_of_type['location']
    men = objs_of_type['man']
    nuts = objs_of_type['nut']
    spanners = objs_of_type['spanner']

    at_map = defaultdict(set)
    links = defaultdict(set)
    carrying = defaultdict(set)
    useable = set()
    loose = set()
    for atom in state:
        if not atom:
            continue
        pred = atom[0]
        if pred == 'at' and len(atom) == 3:
            at_map[atom[1]].add(atom[2])
        elif pred == 'link' and len(atom) == 3:
            links[atom[1]].add(atom[2])
        elif pred == 'carrying' and len(atom) == 3:
            carrying[atom[1]].add(atom[2])
        elif pred == 'useable' and len(atom) == 2:
            useable.add(atom[1])
        elif pred == 'loose' and len(atom) == 2:
            loose.add(atom[1])

    def apply(deletes, adds):
        new_state = set(state)
        for d in deletes:
            new_state.discard(d)
        for a in adds:
            new_state.add(a)
        return new_state

    successors = []

    # walk(?start - location, ?end - location, ?m - man)
    for m in sorted(men):
        for start in sorted(at_map.get(m, set())):
            if start not in locations:
                continue
            for end in sorted(links.get(start, set())):
                if end not in locations:
                    continue
                successors.append(apply(
                    [('at', m, start)],
                    [('at', m, end)]
                ))

    # pickup_spanner(?l - location, ?s - spanner, ?m - man)
    for m in sorted(men):
        for l in sorted(at_map.get(m, set())):
            if l not in locations:
                continue
            for s in sorted(spanners):
                if l in at_map.get(s, set()):
                    successors.append(apply(
                        [('at', s, l)],
                        [('carrying', m, s)]
                    ))

    # tighten_nut(?l - location, ?s - spanner, ?m - man, ?n - nut)
    for m in sorted(men):
        for l in sorted(at_map.get(m, set())):
            if l not in locations:
                continue
            for s in sorted(carrying.get(m, set())):
                if s not in spanners or s not in useable:
                    continue
                for n in sorted(nuts):
                    if n in loose and l in at_map.get(n, set()):
                        successors.append(apply(
                            [('loose', n), ('useable', s)],
                            [('tightened', n)]
                        ))

    return successors

def is_goal(state, goal):
    state_atoms = set(tuple(atom) for atom in state)
    for atom in goal:
        if tuple(atom) not in state_atoms:
            return False
    return True
