# ---- answer 1 ----
def get_plan(objects, init, goal):
    plan = []

    # Sort the objects by type
    papers = sorted(name for name, typ in objects if typ == 'paper')

    # Read the initial state
    current = next(atom[1] for atom in init if atom[0] == 'at')
    home = next((atom[1] for atom in init if atom[0] == 'ishomebase'), current)
    safe = {atom[1] for atom in init if atom[0] == 'safe'}
    already_satisfied = {atom[1] for atom in init if atom[0] == 'satisfied'}

    # Locations that still need a paper, taken from the goal
    targets = sorted(atom[1] for atom in goal
                     if atom[0] == 'satisfied' and atom[1] not in already_satisfied)

    # Papers the carrier already holds, and papers waiting at the home base
    carrying = [p for p in papers if ('carrying', p) in init]
    unpacked = [p for p in papers if ('unpacked', p) in init]

    # 1. Load up: go to the home base if needed, then pick up enough papers
    needed = len(targets) - len(carrying)
    if needed > 0:
        if current != home:
            plan.append(f'(move {current} {home})')
            current = home
        for p in unpacked[:needed]:
            plan.append(f'(pick-up {p} {home})')
            carrying.append(p)

    # 2. Choose the visiting order:
    #    - deliver first where the carrier already stands (no move needed),
    #    - then the safe targets,
    #    - then any unsafe target last, because the carrier can't leave it
    here = [t for t in targets if t == current]
    others = sorted((t for t in targets if t != current),
                    key=lambda t: (t not in safe, t))

    # 3. Deliver in a loop: move (if needed), then drop one paper
    for loc in here + others:
        if loc != current:
            plan.append(f'(move {current} {loc})')
            current = loc
        paper = carrying.pop(0)
        plan.append(f'(deliver {paper} {loc})')

    return plan
