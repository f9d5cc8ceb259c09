"""Test oracle for heavy: order items by how many they outweigh, pack the heaviest first."""

import itertools

from genplan.pddl.problem import Problem


def solve(problem: Problem) -> list[str]:
    outweighs = {o: 0 for o in problem.objects}
    for atom in problem.init:
        if atom[0] == "heavier":
            outweighs[atom[1]] += 1
    order = sorted(outweighs, key=lambda o: -outweighs[o])
    return [f"(pack-first {order[0]})"] + [f"(stack {a} {b})" for a, b in itertools.pairwise(order)]
