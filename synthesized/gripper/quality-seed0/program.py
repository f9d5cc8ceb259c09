# ---- answer 1 ----
def get_plan(objects, init, goal):
    # ---- Read the initial state ----
    robby = None
    ball_loc = {}          # ball -> room, for balls lying in a room
    carried = {}           # ball -> gripper, for balls being held
    free = set()           # free grippers
    grippers = set()

    for atom in init:
        pred = atom[0]
        if pred == 'at-robby':
            robby = atom[1]
        elif pred == 'at' and len(atom) == 3:
            ball_loc[atom[1]] = atom[2]
        elif pred == 'carry':
            carried[atom[1]] = atom[2]
        elif pred == 'free':
            free.add(atom[1])
        elif pred == 'gripper':
            grippers.add(atom[1])

    # ---- Read the goal ----
    targets = {}           # ball -> goal room
    robby_goal = None
    for atom in goal:
        if atom[0] == 'at' and len(atom) == 3:
            targets[atom[1]] = atom[2]
        elif atom[0] == 'at-robby':
            robby_goal = atom[1]

    plan = []

    # ---- Helper actions (each one also updates the state) ----
    def move(to):
        nonlocal robby
        if robby != to:
            plan.append('(move %s %s)' % (robby, to))
            robby = to

    def pick(b):
        g = min(free)                      # any free gripper will do
        plan.append('(pick %s %s %s)' % (b, robby, g))
        del ball_loc[b]
        carried[b] = g
        free.discard(g)

    def drop(b):
        g = carried.pop(b)
        plan.append('(drop %s %s %s)' % (b, robby, g))
        ball_loc[b] = robby
        free.add(g)

    # ---- Deal with balls already held at the start (usually none) ----
    # Balls that have no goal room: put them down where the robot is.
    for b in sorted(carried):
        if b not in targets:
            drop(b)
    # Goal balls already held: take each one straight to its goal room.
    for b in sorted(carried):
        move(targets[b])
        drop(b)

    # ---- Main loop: deliver each misplaced goal ball on its own ----
    for b in sorted(targets):
        target = targets[b]
        if ball_loc.get(b) == target:
            continue                       # already in place
        src = ball_loc[b]
        move(src)
        pick(b)
        move(target)
        drop(b)

    # ---- If the goal says where the robot must end up, move there ----
    if robby_goal is not None:
        move(robby_goal)

    return plan


# ---- answer 2 ----
import heapq
from itertools import combinations, islice


def get_plan(objects, init, goal):
    # ---- Read the initial state ----
    robby = None
    ball_loc = {}          # ball -> room, for balls lying in a room
    carried = {}           # ball -> gripper, for balls being held
    free = set()           # free grippers

    for atom in init:
        pred = atom[0]
        if pred == 'at-robby':
            robby = atom[1]
        elif pred == 'at' and len(atom) == 3:
            ball_loc[atom[1]] = atom[2]
        elif pred == 'carry':
            carried[atom[1]] = atom[2]
        elif pred == 'free':
            free.add(atom[1])

    # ---- Read the goal ----
    targets = {}           # ball -> goal room
    robby_goal = None
    for atom in goal:
        if atom[0] == 'at' and len(atom) == 3:
            targets[atom[1]] = atom[2]
        elif atom[0] == 'at-robby':
            robby_goal = atom[1]

    prefix = []

    # Balls held at the start that have no goal room: put them down here,
    # so that their grippers become free (usually there are none).
    for b in sorted(carried):
        if b not in targets:
            g = carried.pop(b)
            prefix.append('(drop %s %s %s)' % (b, robby, g))
            ball_loc[b] = robby
            free.add(g)

    # ---- Goal balls that still need work ----
    balls = [b for b in sorted(targets)
             if b in carried or (b in ball_loc and ball_loc[b] != targets[b])]
    n = len(balls)
    src = [ball_loc.get(b) for b in balls]          # None if held at start
    tgt = [targets[b] for b in balls]
    # status per ball: 0 = waiting in its room, 1 = held, 2 = delivered
    start = tuple(1 if b in carried else 0 for b in balls)
    cap = len(free) + start.count(1)                # grippers usable for goal balls

    pick_here = {}                                  # room -> balls waiting there
    drop_here = {}                                  # room -> balls whose goal it is
    for i in range(n):
        if start[i] == 0:
            pick_here.setdefault(src[i], []).append(i)
        drop_here.setdefault(tgt[i], []).append(i)

    MAX_CHOICES = 30                                # pick-subsets tried per size

    def arrive(room, st):
        """All outcomes of arriving in `room`: drop what belongs here,
        then pick some subset of the waiting balls here."""
        s = list(st)
        dropped = tuple(i for i in drop_here.get(room, ()) if s[i] == 1)
        for i in dropped:
            s[i] = 2
        avail = [i for i in pick_here.get(room, ()) if s[i] == 0]
        free_n = cap - s.count(1)
        out = []
        for size in range(min(free_n, len(avail)), -1, -1):
            for comb in islice(combinations(avail, size), MAX_CHOICES):
                s2 = s[:]
                for i in comb:
                    s2[i] = 1
                out.append((tuple(s2), dropped, comb))
        return out

    def h(room, st):
        """Lower bound on the moves still needed: rooms we must still arrive in."""
        need = set()
        for i in range(n):
            if st[i] == 0:
                need.add(src[i])
                need.add(tgt[i])
            elif st[i] == 1:
                need.add(tgt[i])
        est = len(need)
        if robby_goal is not None and robby_goal not in need \
                and (need or room != robby_goal):
            est += 1
        return est

    def is_goal(key):
        room, st = key
        return all(x == 2 for x in st) and (robby_goal is None or room == robby_goal)

    def successors(room, st):
        free_n = cap - st.count(1)
        cands = set()
        for i in range(n):
            if st[i] == 1:
                cands.add(tgt[i])
            elif st[i] == 0 and free_n > 0:
                cands.add(src[i])
        cands.discard(room)
        res = []
        for r2 in sorted(cands):
            for s2, dropped, comb in arrive(r2, st):
                if dropped or comb:                 # every move must make progress
                    res.append((r2, s2, dropped, comb))
        if robby_goal is not None and room != robby_goal and all(x == 2 for x in st):
            res.append((robby_goal, st, (), ()))
        return res

    def astar(limit):
        heap, best_g, parent = [], {}, {}
        cnt = 0
        for s0, d, c in arrive(robby, start):       # picks in the start room
            key = (robby, s0)
            if key not in best_g:
                best_g[key] = 0
                parent[key] = (None, (robby, d, c))
                heapq.heappush(heap, (h(robby, s0), 0, cnt, 0, key))
                cnt += 1
        expanded = 0
        while heap:
            f, _, _, g, key = heapq.heappop(heap)
            if g > best_g[key]:
                continue
            if is_goal(key):
                steps = []
                while key is not None:
                    key, step = parent[key]
                    steps.append(step)
                return steps[::-1]
            expanded += 1
            if expanded > limit:
                return None
            for r2, s2, d, c in successors(*key):
                k2, g2 = (r2, s2), g + 1
                if g2 < best_g.get(k2, float('inf')):
                    best_g[k2] = g2
                    parent[k2] = (key, (r2, d, c))
                    heapq.heappush(heap, (g2 + h(r2, s2), -g2, cnt, g2, k2))
                    cnt += 1
        return None

    def beam(width):
        layers = []
        cur, seen = [], set()
        for s0, d, c in arrive(robby, start):
            key = (robby, s0)
            if key not in seen:
                seen.add(key)
                cur.append((key, -1, (robby, d, c)))
        while cur:
            layers.append(cur)
            for pos, (key, _, _) in enumerate(cur):
                if is_goal(key):
                    steps, li = [], len(layers) - 1
                    while li >= 0:
                        _, ppos, step = layers[li][pos]
                        steps.append(step)
                        pos, li = ppos, li - 1
                    return steps[::-1]
            cand = {}
            for pos, (key, _, _) in enumerate(cur):
                for r2, s2, d, c in successors(*key):
                    k2 = (r2, s2)
                    if k2 not in cand:
                        cand[k2] = (pos, (r2, d, c))
            order = sorted(cand, key=lambda k: (h(*k), -sum(k[1]), k[0]))[:width]
            cur = [(k, cand[k][0], cand[k][1]) for k in order]
        return None

    def build(steps):
        """Turn steps (room, dropped, picked) into actions, checking preconditions."""
        loc, car, fr, r = dict(ball_loc), dict(carried), set(free), robby
        acts = []
        for room, dropped, picked in steps:
            if room != r:
                acts.append('(move %s %s)' % (r, room))
                r = room
            for i in dropped:
                b = balls[i]
                if b not in car:
                    return None
                g = car.pop(b)
                acts.append('(drop %s %s %s)' % (b, r, g))
                loc[b] = r
                fr.add(g)
            for i in picked:
                b = balls[i]
                if loc.get(b) != r or not fr:
                    return None
                g = min(fr)
                fr.discard(g)
                del loc[b]
                car[b] = g
                acts.append('(pick %s %s %s)' % (b, r, g))
        if robby_goal is not None and r != robby_goal:
            acts.append('(move %s %s)' % (r, robby_goal))
        for i in range(n):
            if loc.get(balls[i]) != tgt[i]:
                return None
        return acts

    # ---- The old strategy, kept as a safety net: one ball at a time ----
    simple = []
    for i in range(n):
        if start[i] == 1:
            simple.append((tgt[i], (i,), ()))
    for i in range(n):
        if start[i] == 0:
            simple.append((src[i], (), (i,)))
            simple.append((tgt[i], (i,), ()))

    plans = []
    if n > 0 and cap > 0:
        limit = max(300, min(30000, 200000 // (n * n + 1)))
        width = max(5, min(300, 1500000 // (2 * n ** 3 + 1)))
        steps = astar(limit)
        if steps is None:
            steps = beam(width)
        if steps is not None:
            plans.append(build(steps))
    plans.append(build(simple))
    plans = [p for p in plans if p is not None]
    if not plans:
        return prefix
    return prefix + min(plans, key=len)
