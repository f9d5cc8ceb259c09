# ---- answer 1 ----
def get_plan(objects, init, goal):
    state = set(tuple(a) for a in init)
    plan = []

    # Holders (predicate5), sorted so the plan is the same on every run
    holders = sorted(a[1] for a in state if a[0] == 'predicate5' and len(a) == 2)

    # The agent's current location (predicate1)
    agent = None
    for a in sorted(state):
        if a[0] == 'predicate1' and len(a) == 2:
            agent = a[1]
            break

    def move(to):
        nonlocal agent
        if agent == to:
            return
        plan.append('(operator1 %s %s)' % (agent, to))
        state.discard(('predicate1', agent))
        state.add(('predicate1', to))
        agent = to

    def pick(item, h):
        # Pick up an item at the agent's location into empty holder h
        plan.append('(operator2 %s %s %s)' % (item, agent, h))
        state.discard(('predicate0', item, agent))
        state.discard(('predicate4', h))
        state.add(('predicate3', item, h))

    def drop(item, h):
        # Put down the item held in h at the agent's location
        plan.append('(operator0 %s %s %s)' % (item, agent, h))
        state.discard(('predicate3', item, h))
        state.add(('predicate0', item, agent))
        state.add(('predicate4', h))

    def held_in(item):
        for h in holders:
            if ('predicate3', item, h) in state:
                return h
        return None

    def free_holder():
        for h in holders:
            if ('predicate4', h) in state:
                return h
        # Every holder is full: put one item down here to free its holder.
        # Putting an item down only adds a fact, so no goal is undone.
        for h in holders:
            for a in sorted(state):
                if a[0] == 'predicate3' and len(a) == 3 and a[2] == h:
                    drop(a[1], h)
                    return h
        return holders[0] if holders else None

    # The target location(s) each item should end up at
    goal_locs = {}
    for g in goal:
        if g[0] == 'predicate0' and len(g) == 3:
            goal_locs.setdefault(g[1], set()).add(g[2])

    # Deliver the items one goal at a time
    for g in sorted(goal):
        if g[0] != 'predicate0' or len(g) != 3:
            continue
        item, target = g[1], g[2]
        if ('predicate0', item, target) in state:
            continue  # already delivered; leave the item where it is

        h = held_in(item)
        if h is not None:
            move(target)
            drop(item, h)
            continue

        locs = sorted(a[2] for a in state
                      if a[0] == 'predicate0' and len(a) == 3 and a[1] == item)
        if not locs:
            continue  # can't reach this item (should not happen)
        # Prefer a place that isn't one of this item's targets, then the agent's current location
        non_goal = [l for l in locs if l not in goal_locs.get(item, set())]
        candidates = non_goal if non_goal else locs
        L = agent if agent in candidates else candidates[0]

        h = free_holder()
        move(L)
        pick(item, h)
        move(target)
        drop(item, h)

    # If the goal also says where the agent must be, move there at the end
    for g in sorted(goal):
        if g[0] == 'predicate1' and len(g) == 2:
            move(g[1])

    return plan
