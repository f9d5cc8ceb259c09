def successor_states(state, objects):
    locs = set()
    for name, typ in objects:
        if typ == 'loc':
            locs.add(name)

    at_locs = set()
    water = set()
    hills = set()
    adjacency = {}
    for atom in state:
        if not atom:
            continue
        pred = atom[0]
        if pred == 'at' and len(atom) == 2:
            at_locs.add(atom[1])
        elif pred == 'iswater' and len(atom) == 2:
            water.add(atom[1])
        elif pred == 'ishill' and len(atom) == 2:
            hills.add(atom[1])
        elif pred == 'adjacent' and len(atom) == 3:
            adjacency.setdefault(atom[1], []).append(atom[2])

    successors = []
    for frm in sorted(at_locs):
        if frm not in locs:
            continue
        if frm in water:
            continue
        for to in sorted(set(adjacency.get(frm, []))):
            if to not in locs:
                continue
            # walk: (not (ishill ?to)); climb: (ishill ?to)
            # exactly one of the two actions is applicable for this pair
            new_state = set(state)
            new_state.discard(('at', frm))
            new_state.add(('at', to))
            successors.append(new_state)
    return successors

def is_goal(state, goal):
    for atom in goal:
        if atom not in state:
            return False
    return True
