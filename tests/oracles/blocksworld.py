"""Test oracle for blocksworld: put every block on the table, then build the goal towers bottom up."""

from genplan.pddl.problem import Problem


def solve(problem: Problem) -> list[str]:
    below = {a[1]: a[2] for a in problem.init if a[0] == "on"}
    above = {lower: upper for upper, lower in below.items()}
    plan = []
    for block in sorted(problem.object_types):
        if block in below or block in above.values():
            continue
        # a tower's bottom block: unstack from the top down
        top = block
        while top in above:
            top = above[top]
        while top != block:
            plan += [f"(unstack {top} {below[top]})", f"(put-down {top})"]
            top = below[top]
    targets = {a[1]: a[2] for a in problem.goal if a[0] == "on"}
    placed: set[str] = set()

    def place(block: str) -> None:
        if block in placed:
            return
        if block in targets:
            place(targets[block])
            plan.extend([f"(pick-up {block})", f"(stack {block} {targets[block]})"])
        placed.add(block)

    for block in sorted(problem.object_types):
        place(block)
    return plan
