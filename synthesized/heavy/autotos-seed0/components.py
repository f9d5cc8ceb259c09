def successor_states(state, objects):
    successors = []
    objs = sorted(objects)

    def apply(dels, adds):
        new_state = set(state)
        for atom in dels:
            new_state.discard(atom)
        for atom in adds:
            new_state.add(atom)
        return new_state

    # pack-first ?item
    if ('box-empty',) in state:
        for item in objs:
            dels = [('box-empty',), ('unpacked', item)]
            adds = [('packed', item), ('nothing-above', item)]
            successors.append(apply(dels, adds))

    # stack ?bottom ?top
    heavier_pairs = sorted(
        (atom[1], atom[2])
        for atom in state
        if len(atom) == 3 and atom[0] == 'heavier'
    )
    for bottom, top in heavier_pairs:
        if bottom not in objects or top not in objects:
            continue
        if (('packed', bottom) in state
                and ('nothing-above', bottom) in state
                and ('unpacked', top) in state):
            dels = [('nothing-above', bottom), ('unpacked', top)]
            adds = [('packed', top), ('nothing-above', top)]
            successors.append(apply(dels, adds))

    return successors

def is_goal(state, goal):
    for atom in goal:
        if tuple(atom) not in state:
            return False
    return True
