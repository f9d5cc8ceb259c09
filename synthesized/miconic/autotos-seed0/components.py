def successor_states(state, objects):
    floors = set()
    passengers = set()
    for name, typ in objects:
        if typ == 'floor':
            floors.add(name)
        elif typ == 'passenger':
            passengers.add(name)

    state = set(state)

    def apply(dels, adds):
        new_state = set(state)
        for atom in dels:
            new_state.discard(atom)
        for atom in adds:
            new_state.add(atom)
        return new_state

    lift_floors = []
    origins = []
    destins = []
    aboves = []
    boarded = set()
    for atom in state:
        if not atom:
            continue
        pred = atom[0]
        if pred == 'lift-at' and len(atom) == 2:
            lift_floors.append(atom[1])
        elif pred == 'origin' and len(atom) == 3:
            origins.append((atom[1], atom[2]))
        elif pred == 'destin' and len(atom) == 3:
            destins.append((atom[1], atom[2]))
        elif pred == 'above' and len(atom) == 3:
            aboves.append((atom[1], atom[2]))
        elif pred == 'boarded' and len(atom) == 2:
            boarded.add(atom[1])

    lift_floors = sorted(set(lift_floors))
    origins = sorted(set(origins))
    destins = sorted(set(destins))
    aboves = sorted(set(aboves))

    successors = []

    for f in lift_floors:
        if f not in floors:
            continue
        # board ?f ?p
        for p, of in origins:
            if of == f and p in passengers:
                successors.append(apply([], [('boarded', p)]))
        # depart ?f ?p
        for p, df in destins:
            if df == f and p in passengers and p in boarded:
                successors.append(apply([('boarded', p)], [('served', p)]))
        # up ?f1 ?f2 : lift-at f1, above f1 f2
        for a, b in aboves:
            if a == f and b in floors:
                successors.append(apply([('lift-at', f)], [('lift-at', b)]))
        # down ?f1 ?f2 : lift-at f1, above f2 f1
        for a, b in aboves:
            if b == f and a in floors:
                successors.append(apply([('lift-at', f)], [('lift-at', a)]))

    return successors

def is_goal(state, goal):
    state_set = set(tuple(atom) for atom in state)
    for atom in goal:
        if tuple(atom) not in state_set:
            return False
    return True
