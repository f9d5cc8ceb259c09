def successor_states(state, objects):
    """Return one successor state for each ground action applicable in state."""
    current = set(state)
    objs = sorted(objects)
    successors = []

    def apply(dels, adds):
        new_state = set(current)
        for atom in dels:
            new_state.discard(atom)
        for atom in adds:
            new_state.add(atom)
        return new_state

    hand_empty = ('handempty',) in current

    # pick-up ?ob
    if hand_empty:
        for ob in objs:
            if ('clear', ob) in current and ('ontable', ob) in current:
                successors.append(apply(
                    [('clear', ob), ('ontable', ob), ('handempty',)],
                    [('holding', ob)],
                ))

    # put-down ?ob
    for ob in objs:
        if ('holding', ob) in current:
            successors.append(apply(
                [('holding', ob)],
                [('clear', ob), ('handempty',), ('ontable', ob)],
            ))

    # stack ?ob ?underob
    for ob in objs:
        if ('holding', ob) not in current:
            continue
        for underob in objs:
            if ('clear', underob) in current:
                successors.append(apply(
                    [('clear', underob), ('holding', ob)],
                    [('handempty',), ('clear', ob), ('on', ob, underob)],
                ))

    # unstack ?ob ?underob
    if hand_empty:
        for ob in objs:
            if ('clear', ob) not in current:
                continue
            for underob in objs:
                if ('on', ob, underob) in current:
                    successors.append(apply(
                        [('on', ob, underob), ('clear', ob), ('handempty',)],
                        [('holding', ob), ('clear', underob)],
                    ))

    return successors

def is_goal(state, goal):
    """Return True if every goal atom is true in state, False otherwise."""
    current = set(state)
    for atom in goal:
        if tuple(atom) not in current:
            return False
    return True
