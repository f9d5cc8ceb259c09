"""Test oracle for forest: follow the marked trail, climbing onto hills."""

from genplan.pddl.problem import Problem


def solve(problem: Problem) -> list[str]:
    trail = {a[1]: a[2] for a in problem.init if a[0] == "ontrail"}
    hills = {a[1] for a in problem.init if a[0] == "ishill"}
    here = next(a[1] for a in problem.init if a[0] == "at")
    goal = next(a[1] for a in problem.goal if a[0] == "at")
    plan = []
    while here != goal:
        following = trail[here]
        plan.append(f"({'climb' if following in hills else 'walk'} {here} {following})")
        here = following
    return plan
