# ---- answer 1 ----
from collections import defaultdict


def get_plan(objects, init, goal):
    # ---- Read the initial state ----
    grippers = sorted(a[1] for a in init if a[0] == 'gripper')
    robby = None
    loc = {}    # ball -> room it is in
    held = {}   # gripper -> ball it carries
    for atom in init:
        if atom[0] == 'at-robby':
            robby = atom[1]
        elif atom[0] == 'at':
            loc[atom[1]] = atom[2]
        elif atom[0] == 'carry':
            held[atom[2]] = atom[1]

    # ---- Read the goal ----
    goal_at = {a[1]: a[2] for a in goal if a[0] == 'at'}        # ball -> room
    goal_carry = {a[1]: a[2] for a in goal if a[0] == 'carry'}  # ball -> gripper
    goal_robby = next((a[1] for a in goal if a[0] == 'at-robby'), None)

    plan = []
    state = {'robby': robby}

    def move(to):
        if to != state['robby']:
            plan.append(f"(move {state['robby']} {to})")
            state['robby'] = to

    def pick(ball, gripper):
        room = loc[ball]
        move(room)
        plan.append(f"(pick {ball} {room} {gripper})")
        del loc[ball]
        held[gripper] = ball

    def drop(gripper):
        ball = held.pop(gripper)
        room = state['robby']
        plan.append(f"(drop {ball} {room} {gripper})")
        loc[ball] = room

    # ---- Step 1: empty the grippers ----
    # Drop balls that have no target room, or are already at it, right here.
    for g in sorted(held):
        if goal_at.get(held[g], state['robby']) == state['robby']:
            drop(g)
    # Take the other carried balls to their target rooms.
    by_target = defaultdict(list)
    for g, b in held.items():
        by_target[goal_at[b]].append(g)
    for target in sorted(by_target):
        move(target)
        for g in sorted(by_target[target]):
            drop(g)

    # ---- Step 2: deliver every goal ball that is not yet in place ----
    # Balls with the same target are delivered together, one per gripper.
    k = max(1, len(grippers))
    pending = defaultdict(list)
    for b, target in goal_at.items():
        if b in loc and loc[b] != target:
            pending[target].append(b)
    for target in sorted(pending):
        balls = sorted(pending[target], key=lambda b: (loc[b], b))
        for i in range(0, len(balls), k):
            batch = balls[i:i + k]
            used = []
            for j, b in enumerate(batch):
                pick(b, grippers[j])
                used.append(grippers[j])
            move(target)
            for g in used:
                drop(g)

    # ---- Step 3: goals that require a gripper to hold a ball ----
    for b, g in sorted(goal_carry.items()):
        if held.get(g) == b:
            continue
        if g in held:          # the gripper holds some other ball: put it down
            drop(g)
        if b in loc:
            pick(b, g)

    # ---- Step 4: goal for where Robby should end up ----
    if goal_robby is not None:
        move(goal_robby)

    return plan
