"""Test oracle for miconic: serve passengers one at a time with their building's elevator."""

from genplan.pddl.problem import Problem


def solve(problem: Problem) -> list[str]:
    above = {(a[1], a[2]) for a in problem.init if a[0] == "above"}
    lifts = {a[1] for a in problem.init if a[0] == "lift-at"}
    origin = {a[1]: a[2] for a in problem.init if a[0] == "origin"}
    destination = {a[1]: a[2] for a in problem.init if a[0] == "destin"}
    plan: list[str] = []

    def move(lift: str, target: str) -> str:
        if lift != target:
            plan.append(f"(up {lift} {target})" if (lift, target) in above else f"(down {lift} {target})")
        return target

    for passenger in sorted(origin):
        start = origin[passenger]
        lift = next(f for f in lifts if f == start or (f, start) in above or (start, f) in above)
        lifts.discard(lift)
        lift = move(lift, start)
        plan.append(f"(board {lift} {passenger})")
        lift = move(lift, destination[passenger])
        plan.append(f"(depart {lift} {passenger})")
        lifts.add(lift)
    return plan
