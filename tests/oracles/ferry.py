"""Test oracle for ferry: fetch and deliver each misplaced car in turn."""

from genplan.pddl.problem import Problem


def solve(problem: Problem) -> list[str]:
    where = {a[1]: a[2] for a in problem.init if a[0] == "at"}
    ferry = next(a[1] for a in problem.init if a[0] == "at-ferry")
    plan = []
    for _, car, target in sorted(problem.goal):
        if where[car] == target:
            continue
        if ferry != where[car]:
            plan.append(f"(sail {ferry} {where[car]})")
            ferry = where[car]
        plan += [f"(board {car} {ferry})", f"(sail {ferry} {target})", f"(debark {car} {target})"]
        ferry = target
        where[car] = target
    return plan
