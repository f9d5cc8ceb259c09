# ---- answer 1 ----
def get_plan(objects, init, goal):
    plan = []

    rooms, balls, grippers = set(), set(), set()
    robby = None
    ball_loc = {}
    carry = {}  # gripper -> ball
    for atom in init:
        pred = atom[0]
        if pred == 'room':
            rooms.add(atom[1])
        elif pred == 'ball':
            balls.add(atom[1])
        elif pred == 'gripper':
            grippers.add(atom[1])
        elif pred == 'at-robby':
            robby = atom[1]
        elif pred == 'at':
            ball_loc[atom[1]] = atom[2]
        elif pred == 'carry':
            carry[atom[2]] = atom[1]
            ball_loc[atom[1]] = None

    free = {g for g in grippers if g not in carry}

    goal_at = {}
    goal_carry = {}
    goal_robby = None
    for atom in goal:
        if atom[0] == 'at':
            goal_at[atom[1]] = atom[2]
        elif atom[0] == 'carry':
            goal_carry[atom[1]] = atom[2]
        elif atom[0] == 'at-robby':
            goal_robby = atom[1]

    state = {'robby': robby}

    def move(to):
        if state['robby'] != to:
            plan.append('(move %s %s)' % (state['robby'], to))
            state['robby'] = to

    def pick(b, g):
        r = state['robby']
        plan.append('(pick %s %s %s)' % (b, r, g))
        ball_loc[b] = None
        carry[g] = b
        free.discard(g)

    def drop(b, g):
        r = state['robby']
        plan.append('(drop %s %s %s)' % (b, r, g))
        ball_loc[b] = r
        del carry[g]
        free.add(g)

    # Step 1: empty all grippers (deliver carried goal balls directly)
    for g in sorted(list(carry.keys())):
        b = carry[g]
        if b in goal_at:
            move(goal_at[b])
        drop(b, g)

    # Step 2: deliver each ball with an 'at' goal, one at a time
    for b in sorted(goal_at.keys()):
        target = goal_at[b]
        if ball_loc.get(b) == target:
            continue
        if ball_loc.get(b) is None:
            # carried somewhere (shouldn't happen after step 1); find gripper
            g = next((gg for gg, bb in carry.items() if bb == b), None)
            if g is None:
                continue
        else:
            move(ball_loc[b])
            g = sorted(free)[0]
            pick(b, g)
        move(target)
        drop(b, g)

    # Step 3: satisfy any 'carry' goals
    for b in sorted(goal_carry.keys()):
        g = goal_carry[b]
        if carry.get(g) == b:
            continue
        if g not in free:
            drop(carry[g], g)
        if ball_loc.get(b) is None:
            # held by another gripper: drop it here first
            og = next((gg for gg, bb in carry.items() if bb == b), None)
            if og is not None:
                drop(b, og)
        move(ball_loc[b])
        pick(b, g)

    # Step 4: final robot location goal
    if goal_robby is not None:
        move(goal_robby)

    return plan
