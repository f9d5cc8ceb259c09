# ---- answer 1 ----
def get_plan(objects, init, goal):
    # ---- Read the initial state ----
    robot = None          # room the robot is in
    ball_room = {}        # ball -> room it is lying in
    held = {}             # gripper -> ball it is carrying
    free = set()          # free grippers
    grippers = set()

    for atom in init:
        pred = atom[0]
        if pred == 'at-robby':
            robot = atom[1]
        elif pred == 'at' and len(atom) == 3:
            ball_room[atom[1]] = atom[2]
        elif pred == 'carry':
            held[atom[2]] = atom[1]
        elif pred == 'free':
            free.add(atom[1])
        elif pred == 'gripper':
            grippers.add(atom[1])

    # ---- Read the goal ----
    targets = {}          # ball -> room it must end up in
    robot_goal = None
    for atom in goal:
        if atom[0] == 'at' and len(atom) == 3:
            targets[atom[1]] = atom[2]
        elif atom[0] == 'at-robby':
            robot_goal = atom[1]

    plan = []

    # ---- Helpers that add an action and update the state ----
    def move(to):
        nonlocal robot
        if robot != to:   # never emit a move to the room we are already in
            plan.append('(move %s %s)' % (robot, to))
            robot = to

    def pick(b, g):
        plan.append('(pick %s %s %s)' % (b, robot, g))
        del ball_room[b]
        free.discard(g)
        held[g] = b

    def drop(b, g):
        plan.append('(drop %s %s %s)' % (b, robot, g))
        del held[g]
        free.add(g)
        ball_room[b] = robot

    # ---- 1. Deliver goal balls that are already held at the start ----
    for g in sorted(held):
        b = held[g]
        if b in targets:
            move(targets[b])
            drop(b, g)

    # ---- 2. Goal balls that still lie in the wrong room ----
    todo = [b for b in sorted(targets)
            if b in ball_room and ball_room[b] != targets[b]]

    if not todo:
        if robot_goal is not None:
            move(robot_goal)
        return plan

    # Make sure one gripper is free. If every gripper holds a non-goal
    # ball, put one of them down right here (no goal depends on it).
    if not free and held:
        g = min(held)
        drop(held[g], g)
    if not free:
        return plan       # no grippers at all: cannot move balls

    g = min(free)         # this gripper is free again after every delivery

    # ---- 3. Deliver the remaining goal balls one at a time ----
    while todo:
        # Prefer a ball in the robot's current room (saves a move);
        # otherwise just take the next one.
        b = next((x for x in todo if ball_room[x] == robot), todo[0])
        todo.remove(b)
        move(ball_room[b])
        pick(b, g)
        move(targets[b])
        drop(b, g)

    # ---- 4. Optional final robot position ----
    if robot_goal is not None:
        move(robot_goal)

    return plan


# ---- answer 2 ----
from collections import Counter


def get_plan(objects, init, goal):
    init = {tuple(a) for a in init}
    goal = {tuple(a) for a in goal}

    # ------------------------------------------------------------------
    # Read the problem
    # ------------------------------------------------------------------
    grippers = sorted(a[1] for a in init if a[0] == 'gripper' and len(a) == 2)
    start = None
    ball_room = {}                      # ball -> room it lies in
    held0 = {}                          # gripper -> ball it carries
    for a in init:
        if a[0] == 'at-robby' and len(a) == 2:
            start = a[1]
        elif a[0] == 'at' and len(a) == 3:
            ball_room[a[1]] = a[2]
        elif a[0] == 'carry' and len(a) == 3:
            held0[a[2]] = a[1]
    free0 = sorted(g for g in grippers
                   if ('free', g) in init and g not in held0)

    targets = {}                        # goal ball -> target room
    robot_goal = None
    free_goal = set()
    for a in goal:
        if a[0] == 'at' and len(a) == 3:
            targets[a[1]] = a[2]
        elif a[0] == 'at-robby' and len(a) == 2:
            robot_goal = a[1]
        elif a[0] == 'free' and len(a) == 2:
            free_goal.add(a[1])

    if start is None:
        return []

    # ------------------------------------------------------------------
    # Plan checker (exact STRIPS semantics of this domain)
    # ------------------------------------------------------------------
    def valid(plan):
        state = set(init)
        for step in plan:
            parts = step.strip().strip('()').split()
            if not parts:
                return False
            name, args = parts[0], parts[1:]
            if name == 'move' and len(args) == 2:
                f, t = args
                pre = [('room', f), ('room', t), ('at-robby', f)]
                dele = [('at-robby', f)]
                add = [('at-robby', t)]
            elif name == 'pick' and len(args) == 3:
                o, r, g = args
                pre = [('ball', o), ('room', r), ('gripper', g),
                       ('at', o, r), ('at-robby', r), ('free', g)]
                dele = [('at', o, r), ('free', g)]
                add = [('carry', o, g)]
            elif name == 'drop' and len(args) == 3:
                o, r, g = args
                pre = [('ball', o), ('room', r), ('gripper', g),
                       ('carry', o, g), ('at-robby', r)]
                dele = [('carry', o, g)]
                add = [('at', o, r), ('free', g)]
            else:
                return False
            if any(p not in state for p in pre):
                return False
            state.difference_update(dele)
            state.update(add)
        return goal <= state

    # ------------------------------------------------------------------
    # Old strategy (one gripper, one ball at a time) - kept as fallback
    # ------------------------------------------------------------------
    def simple():
        plan = []
        robot = start
        pos = dict(ball_room)
        held = dict(held0)
        free = list(free0)

        def move(to):
            nonlocal robot
            if robot != to:
                plan.append('(move %s %s)' % (robot, to))
                robot = to

        for g in sorted(held):
            b = held[g]
            if b in targets:
                move(targets[b])
                plan.append('(drop %s %s %s)' % (b, robot, g))
                del held[g]
                free.append(g)

        todo = [b for b in sorted(targets)
                if b in pos and pos[b] != targets[b]]
        if todo:
            if not free and held:
                g = min(held)
                plan.append('(drop %s %s %s)' % (held[g], robot, g))
                del held[g]
                free.append(g)
            if not free:
                return plan
            g = min(free)
            while todo:
                b = next((x for x in todo if pos[x] == robot), todo[0])
                todo.remove(b)
                move(pos[b])
                plan.append('(pick %s %s %s)' % (b, robot, g))
                move(targets[b])
                plan.append('(drop %s %s %s)' % (b, robot, g))
                pos[b] = robot

        for g in sorted(held):
            if g in free_goal:
                plan.append('(drop %s %s %s)' % (held[g], robot, g))
        if robot_goal is not None:
            move(robot_goal)
        return plan

    # ------------------------------------------------------------------
    # Helpers on an abstract state:
    #   hd    = Counter: target room -> number of carried goal balls
    #   nfree = number of free grippers
    #   pend  = dict: goal ball -> (room it lies in, target room)
    # ------------------------------------------------------------------
    def candidates(room, hd, nfree, pend):
        cs = {d for d, n in hd.items() if n > 0}
        if nfree > 0:
            cs.update(s for s, _ in pend.values())
        cs.discard(room)
        return sorted(cs)

    def choose_picks(room, hd, nfree, pend):
        here = sorted(b for b, (s, _) in pend.items() if s == room)
        if len(here) <= nfree:
            return here
        srcs = Counter(s for s, _ in pend.values() if s != room)
        same = Counter(pend[b][1] for b in here)

        def key(b):
            d = pend[b][1]
            return (-(2 * (hd.get(d, 0) > 0) + (d in srcs) + (same[d] > 1)), b)

        return sorted(here, key=key)[:nfree]

    def sim_visit(room, hd, nfree, pend):
        # what happens when the robot arrives in `room`
        hd2 = Counter(hd)
        nd = hd2.pop(room, 0)                   # drops here
        nfree2 = nfree + nd
        picks = choose_picks(room, hd2, nfree2, pend)
        pend2 = dict(pend)
        for b in picks:
            del pend2[b]
            hd2[pend[b][1]] += 1
        return nd + len(picks), hd2, nfree2 - len(picks), pend2

    def lookahead(room, hd, nfree, pend, k):
        # most picks + drops achievable in the next k room visits
        cs = candidates(room, hd, nfree, pend)
        if k <= 0 or not cs:
            return 0
        if k == 1:
            srccnt = Counter(s for s, _ in pend.values())
            return max(hd.get(c, 0)
                       + min(nfree + hd.get(c, 0), srccnt.get(c, 0))
                       for c in cs)
        best = 0
        for c in cs:
            a, hd2, nf2, pend2 = sim_visit(c, hd, nfree, pend)
            best = max(best, a + lookahead(c, hd2, nf2, pend2, k - 1))
        return best

    # ------------------------------------------------------------------
    # New strategy: all grippers, greedy choice of the next room
    # ------------------------------------------------------------------
    def greedy(depth, unload_first):
        plan = []
        robot = start
        pos = dict(ball_room)
        held = dict(held0)
        free = list(free0)
        pending = {b: (pos[b], targets[b]) for b in sorted(targets)
                   if b in pos and pos[b] != targets[b]}

        def move(to):
            nonlocal robot
            if to != robot:
                plan.append('(move %s %s)' % (robot, to))
                robot = to

        def pick(b):
            g = free.pop(0)
            plan.append('(pick %s %s %s)' % (b, robot, g))
            del pos[b]
            del pending[b]
            held[g] = b

        def drop(g):
            b = held.pop(g)
            plan.append('(drop %s %s %s)' % (b, robot, g))
            pos[b] = robot
            free.append(g)
            free.sort()

        def held_dests():
            return Counter(targets[b] for b in held.values() if b in targets)

        def visit():
            for g in sorted(held):
                if targets.get(held[g]) == robot:
                    drop(g)
            for b in choose_picks(robot, held_dests(), len(free), pending):
                pick(b)

        if unload_first:                # put down balls no goal mentions
            for g in sorted(held):
                if held[g] not in targets:
                    drop(g)

        visit()
        limit = 4 * (len(pending) + len(held)) + 10
        while True:
            hd = held_dests()
            if not pending and not hd:
                break
            if not free and not hd:
                # every gripper holds a ball no goal mentions: drop one here
                if not held:
                    return None
                drop(min(held))
                visit()
                continue
            cs = candidates(robot, hd, len(free), pending)
            if not cs or limit <= 0:
                return None
            limit -= 1
            best_key, best_room = None, None
            for c in cs:
                a, hd2, nf2, pend2 = sim_visit(c, hd, len(free), pending)
                v = a + lookahead(c, hd2, nf2, pend2, depth - 1)
                key = (-v, -a, c)
                if best_key is None or key < best_key:
                    best_key, best_room = key, c
            move(best_room)
            visit()

        for g in sorted(held):
            if g in free_goal:
                drop(g)
        if robot_goal is not None:
            move(robot_goal)
        return plan

    # ------------------------------------------------------------------
    # Try a few variants, keep the shortest valid plan
    # ------------------------------------------------------------------
    n_goal = len(targets)
    depths = [1]
    if n_goal <= 150:
        depths.append(2)
    if n_goal <= 20:
        depths.append(3)
    unload_opts = [False]
    if any(b not in targets for b in held0.values()):
        unload_opts.append(True)

    best = None
    for d in depths:
        for u in unload_opts:
            p = greedy(d, u)
            if p is not None and valid(p) and (best is None or len(p) < len(best)):
                best = p

    fallback = simple()
    if best is None or (valid(fallback) and len(fallback) < len(best)):
        best = fallback
    return best
