"""Canned model answers for the pipeline tests: correct, broken and helper-using programs (heavy domain)."""

from __future__ import annotations

from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import Problem, parse_problem_text, problem_to_pddl


def heavy_problem(name: str, items: int) -> Problem:
    """A heavy problem: items ``o{i}``, ``o0`` the heaviest, every pair written out."""
    objects = [f"o{i}" for i in range(items)]
    init = [("box-empty",)] + [("unpacked", o) for o in objects]
    init += [("heavier", objects[i], objects[j]) for i in range(items) for j in range(i + 1, items)]
    goal = [("packed", o) for o in objects]
    text = problem_to_pddl(name, "heavy-pack", objects, init, goal, typed=False)
    return parse_problem_text(text, load_domain(builtin_domain_file("heavy")))


def training_problems() -> list[Problem]:
    return [heavy_problem("train-0", 3), heavy_problem("train-1", 4), heavy_problem("train-2", 6)]


CORRECT = """
def get_plan(objects, init, goal):
    count = {o: 0 for o in objects}
    for atom in init:
        if atom[0] == "heavier":
            count[atom[1]] += 1
    order = sorted(objects, key=lambda o: -count[o])
    plan = ["(pack-first %s)" % order[0]]
    for bottom, top in zip(order, order[1:]):
        plan.append("(stack %s %s)" % (bottom, top))
    return plan
"""

RAISES = """
def get_plan(objects, init, goal):
    heaviest = [atom[3] for atom in init if atom[0] == "heavier"]
    return heaviest
"""

LOOPS = """
def get_plan(objects, init, goal):
    plan = []
    while True:
        plan.append(1)
        plan.pop()
"""

BAD_ACTIONS = """
def get_plan(objects, init, goal):
    return ["pack-first " + sorted(objects)[0]]
"""

INVALID_PLAN = """
def get_plan(objects, init, goal):
    order = sorted(objects, reverse=True)
    plan = ["(pack-first %s)" % order[0]]
    for bottom, top in zip(order, order[1:]):
        plan.append("(stack %s %s)" % (bottom, top))
    return plan
"""

ONLY_SMALL = """
def get_plan(objects, init, goal):
    if len(objects) > 3:
        raise ValueError("too many items")
    count = {o: 0 for o in objects}
    for atom in init:
        if atom[0] == "heavier":
            count[atom[1]] += 1
    order = sorted(objects, key=lambda o: -count[o])
    return ["(pack-first %s)" % order[0]] + ["(stack %s %s)" % p for p in zip(order, order[1:])]
"""

HELPER_DEFINED = """
def order_by_weight(objects, init):
    count = {o: 0 for o in objects}
    for atom in init:
        if atom[0] == "heavier":
            count[atom[1]] += 1
    return sorted(objects, key=lambda o: -count[o])

def get_plan(objects, init, goal):
    raise NotImplementedError("not yet")
"""

USES_EARLIER_HELPER = """
def get_plan(objects, init, goal):
    order = order_by_weight(objects, init)
    return ["(pack-first %s)" % order[0]] + ["(stack %s %s)" % p for p in zip(order, order[1:])]
"""


def fenced(code: str, prose: str = "Here is the implementation.") -> str:
    """An answer as a model writes it: prose and a fenced python block."""
    return f"{prose}\n\n```python\n{code.strip()}\n```\n"


CUBIC = """
def get_plan(objects, init, goal):
    heavier = {(atom[1], atom[2]) for atom in init if atom[0] == "heavier"}
    items = sorted(objects)
    count = {o: 0 for o in items}
    for x in items:
        for y in items:
            for z in items:
                if z == y and (x, y) in heavier:
                    count[x] += 1
    order = sorted(items, key=lambda o: -count[o])
    return ["(pack-first %s)" % order[0]] + ["(stack %s %s)" % p for p in zip(order, order[1:])]
"""
"""Correct, but its work grows as the cube of the number of items (the innermost line runs n^3 times)."""

CUBIC_HOT_LINE = "if z == y and (x, y) in heavier:"


def order_sensitive(first: str) -> str:
    """A program that is correct only when ``objects`` iterates ``first`` first (else it packs
    the items in reverse, an invalid plan)."""
    return (
        CORRECT.replace("    return plan\n", "")
        + f"    if next(iter(objects)) != {first!r}:\n        plan = [plan[0]] + plan[:0:-1]\n    return plan\n"
    )
