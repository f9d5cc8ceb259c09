def successor_states(state, objects):
    locs = sorted(name for name, typ in objects if typ == 'loc')
    papers = sorted(name for name, typ in objects if typ == 'paper')
    current = set(state)
    successors = []

    def apply(dels, adds):
        new_state = set(current)
        for atom in dels:
            new_state.discard(atom)
        for atom in adds:
            new_state.add(atom)
        return new_state

    # pick-up(?paper, ?loc)
    for paper in papers:
        for loc in locs:
            if (('at', loc) in current
                    and ('ishomebase', loc) in current
                    and ('unpacked', paper) in current):
                successors.append(apply(
                    [('unpacked', paper)],
                    [('carrying', paper)]
                ))

    # move(?from, ?to)
    for frm in locs:
        if ('at', frm) in current and ('safe', frm) in current:
            for to in locs:
                successors.append(apply(
                    [('at', frm)],
                    [('at', to)]
                ))

    # deliver(?paper, ?loc)
    for paper in papers:
        for loc in locs:
            if ('at', loc) in current and ('carrying', paper) in current:
                successors.append(apply(
                    [('carrying', paper), ('wantspaper', loc)],
                    [('satisfied', loc)]
                ))

    return successors

def is_goal(state, goal):
    current = set(state)
    for atom in goal:
        if tuple(atom) not in current:
            return False
    return True
