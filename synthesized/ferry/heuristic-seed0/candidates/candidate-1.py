from collections import defaultdict


def make_heuristic(objects, init, goal):
    cars = {atom[1] for atom in init if atom[0] == "car" and len(atom) == 2}

    # Goal location of each car, plus any other goal atoms.
    goal_loc = {}
    other_goals = []
    for atom in goal:
        if atom[0] == "at" and len(atom) == 3:
            goal_loc[atom[1]] = atom[2]
        else:
            other_goals.append(atom)
    other_goals = tuple(other_goals)
    goal_items = tuple(goal_loc.items())

    def h(state):
        ferry = None
        empty = False
        on = []
        at = {}
        for atom in state:
            p = atom[0]
            if p == "at":
                at[atom[1]] = atom[2]
            elif p == "on":
                on.append(atom[1])
            elif p == "at-ferry":
                ferry = atom[1]
            elif p == "empty-ferry":
                empty = True

        value = 0

        # Cars currently on the ferry.
        loaded_all_goal_here = True
        loaded_nongoal = False
        for c in on:
            g = goal_loc.get(c)
            if g is None:
                loaded_nongoal = True
                loaded_all_goal_here = False
            else:
                value += 1  # debark
                if ferry != g:
                    value += 1  # sail to its goal
                    loaded_all_goal_here = False

        # Where the ferry can board a car right away (after at most debarks here).
        if empty or (on and loaded_all_goal_here):
            available_at = ferry
        else:
            available_at = None

        # Cars waiting on shore away from their goal.
        waiting = defaultdict(int)
        misplaced = 0
        for c, g in goal_items:
            l = at.get(c)
            if l is None:
                continue  # on the ferry, handled above
            if l != g:
                value += 3  # board + sail to goal + debark
                waiting[l] += 1
                misplaced += 1

        for l, k in waiting.items():
            if l == available_at:
                value += k - 1
            else:
                value += k

        # A car without a goal is blocking the ferry while others need moving.
        if loaded_nongoal and misplaced > 0:
            value += 1

        # Any other goal atoms (e.g. at-ferry, empty-ferry).
        for atom in other_goals:
            if atom not in state:
                value += 1

        return value

    return h
