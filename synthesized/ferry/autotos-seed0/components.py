def successor_states(state, objects):
    state = set(state)

    def apply(deletes, adds):
        new_state = set(state)
        for atom in deletes:
            new_state.discard(atom)
        for atom in adds:
            new_state.add(atom)
        return new_state

    cars = set()
    locations = set()
    ferry_at = set()
    at_pairs = []
    on_cars = set()
    not_eq_pairs = []
    empty = ('empty-ferry',) in state

    for atom in state:
        if not atom:
            continue
        name = atom[0]
        if name == 'car' and len(atom) == 2:
            cars.add(atom[1])
        elif name == 'location' and len(atom) == 2:
            locations.add(atom[1])
        elif name == 'at-ferry' and len(atom) == 2:
            ferry_at.add(atom[1])
        elif name == 'at' and len(atom) == 3:
            at_pairs.append((atom[1], atom[2]))
        elif name == 'on' and len(atom) == 2:
            on_cars.add(atom[1])
        elif name == 'not-eq' and len(atom) == 3:
            not_eq_pairs.append((atom[1], atom[2]))

    successors = []

    # sail(?from, ?to)
    for frm, to in sorted(not_eq_pairs):
        if frm in locations and to in locations and frm in ferry_at:
            successors.append(apply(
                [('at-ferry', frm)],
                [('at-ferry', to)]
            ))

    # board(?car, ?loc)
    if empty:
        for c, loc in sorted(at_pairs):
            if c in cars and loc in locations and loc in ferry_at:
                successors.append(apply(
                    [('at', c, loc), ('empty-ferry',)],
                    [('on', c)]
                ))

    # debark(?car, ?loc)
    for c in sorted(on_cars):
        if c not in cars:
            continue
        for loc in sorted(ferry_at):
            if loc in locations:
                successors.append(apply(
                    [('on', c)],
                    [('at', c, loc), ('empty-ferry',)]
                ))

    return successors

def is_goal(state, goal):
    state_atoms = set(tuple(atom) for atom in state)
    for atom in goal:
        if tuple(atom) not in state_atoms:
            return False
    return True
