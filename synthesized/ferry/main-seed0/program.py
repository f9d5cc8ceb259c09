# ---- answer 1 ----
def get_plan(objects, init, goal):
    # Read the current state
    position = {}          # car -> location where it is parked
    on_board = None        # car currently on the ferry, if any
    ferry = None           # location of the ferry
    for atom in init:
        if atom[0] == 'at' and len(atom) == 3:
            position[atom[1]] = atom[2]
        elif atom[0] == 'at-ferry':
            ferry = atom[1]
        elif atom[0] == 'on':
            on_board = atom[1]

    # Read the goal
    target = {a[1]: a[2] for a in goal if a[0] == 'at' and len(a) == 3}
    ferry_goal = next((a[1] for a in goal if a[0] == 'at-ferry'), None)

    plan = []

    def sail(to):
        nonlocal ferry
        if ferry != to:                 # never sail to the current location
            plan.append(f'(sail {ferry} {to})')
            ferry = to

    # If a car starts on the ferry, drop it at its goal first.
    # If it has no goal, drop it where the ferry is.
    if on_board is not None:
        dest = target.get(on_board, ferry)
        sail(dest)
        plan.append(f'(debark {on_board} {dest})')
        position[on_board] = dest

    # Cars that still need to be moved (deterministic order)
    pending = [c for c in sorted(target)
               if c in position and position[c] != target[c]]

    # Move the cars one at a time. Prefer a car that is at the ferry's location.
    while pending:
        here = [c for c in pending if position[c] == ferry]
        car = here[0] if here else pending[0]
        pending.remove(car)

        start, dest = position[car], target[car]
        sail(start)                                  # go to the car
        plan.append(f'(board {car} {start})')        # load it
        sail(dest)                                   # go to its goal
        plan.append(f'(debark {car} {dest})')        # unload it
        position[car] = dest

    # If the goal also fixes where the ferry ends up, sail there last
    if ferry_goal is not None:
        sail(ferry_goal)

    return plan
