def successor_states(state, objects):
    state = set(state)

    rooms = set()
    balls = set()
    grippers = set()
    robby_at = set()
    ball_at = []
    free_grippers = set()
    carries = []

    for atom in state:
        if not atom:
            continue
        name = atom[0]
        if name == 'room' and len(atom) == 2:
            rooms.add(atom[1])
        elif name == 'ball' and len(atom) == 2:
            balls.add(atom[1])
        elif name == 'gripper' and len(atom) == 2:
            grippers.add(atom[1])
        elif name == 'at-robby' and len(atom) == 2:
            robby_at.add(atom[1])
        elif name == 'at' and len(atom) == 3:
            ball_at.append((atom[1], atom[2]))
        elif name == 'free' and len(atom) == 2:
            free_grippers.add(atom[1])
        elif name == 'carry' and len(atom) == 3:
            carries.append((atom[1], atom[2]))

    def apply(deletes, adds):
        new_state = set(state)
        for d in deletes:
            new_state.discard(d)
        for a in adds:
            new_state.add(a)
        return new_state

    successors = []

    # move ?from ?to
    for frm in sorted(robby_at):
        if frm not in rooms:
            continue
        for to in sorted(rooms):
            successors.append(apply(
                [('at-robby', frm)],
                [('at-robby', to)]
            ))

    # pick ?obj ?room ?gripper
    for obj, room in sorted(set(ball_at)):
        if obj not in balls or room not in rooms or room not in robby_at:
            continue
        for g in sorted(free_grippers):
            if g not in grippers:
                continue
            successors.append(apply(
                [('at', obj, room), ('free', g)],
                [('carry', obj, g)]
            ))

    # drop ?obj ?room ?gripper
    for obj, g in sorted(set(carries)):
        if obj not in balls or g not in grippers:
            continue
        for room in sorted(robby_at):
            if room not in rooms:
                continue
            successors.append(apply(
                [('carry', obj, g)],
                [('at', obj, room), ('free', g)]
            ))

    return successors

def is_goal(state, goal):
    state_set = set(tuple(atom) for atom in state)
    for atom in goal:
        if tuple(atom) not in state_set:
            return False
    return True
