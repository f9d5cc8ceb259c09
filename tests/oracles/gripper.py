"""Test oracle for gripper: carry each goal ball to its room, one at a time."""

from genplan.pddl.problem import Problem


def solve(problem: Problem) -> list[str]:
    where = {a[1]: a[2] for a in problem.init if a[0] == "at"}
    robby = next(a[1] for a in problem.init if a[0] == "at-robby")
    gripper = sorted(a[1] for a in problem.init if a[0] == "gripper")[0]
    plan = []
    for _, ball, room in sorted(problem.goal):
        if where[ball] == room:
            continue
        if robby != where[ball]:
            plan.append(f"(move {robby} {where[ball]})")
            robby = where[ball]
        plan.append(f"(pick {ball} {robby} {gripper})")
        if robby != room:
            plan.append(f"(move {robby} {room})")
            robby = room
        plan.append(f"(drop {ball} {room} {gripper})")
        where[ball] = room
    return plan
