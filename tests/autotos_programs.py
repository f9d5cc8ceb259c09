"""Canned AutoToS components for the tests: correct ones (the test oracles) and broken variants.

Each broken variant has one defect the protocol must catch; the heavy ones use the small heavy
problems of :mod:`fake_programs` (``o0`` heaviest).
"""

from __future__ import annotations

from oracles.components import GOAL, SUCCESSORS

HEAVY = SUCCESSORS["heavy"]
GRIPPER = SUCCESSORS["gripper"]

HEAVY_UNSOUND = """
def successor_states(state, objects):
    successors = []
    if ("box-empty",) in state:
        for item in sorted(objects):
            new = set(state)
            new -= {("box-empty",), ("unpacked", item)}
            new |= {("packed", item), ("nothing-above", item)}
            successors.append(new)
    for atom in state:
        if atom[0] == "nothing-above":
            for item in objects:
                if ("unpacked", item) in state:
                    new = set(state)
                    new -= {("nothing-above", atom[1]), ("unpacked", item)}
                    new |= {("packed", item), ("nothing-above", item)}
                    successors.append(new)
    return successors
"""
"""Stacks any unpacked item, heavier or not (the paper's most common error: a missed precondition)."""

HEAVY_MUTATING = HEAVY.replace(
    """        for item in objects:
            new = set(state)""",
    """        for item in objects:
            new = state""",
)
"""Builds the first successors on the input state itself (the shallow-copy error ToS observed)."""

HEAVY_NO_STACK = """
def successor_states(state, objects):
    successors = []
    if ("box-empty",) in state:
        for item in objects:
            new = set(state)
            new -= {("box-empty",), ("unpacked", item)}
            new |= {("packed", item), ("nothing-above", item)}
            successors.append(new)
    return successors
"""
"""Forgets the stack action: no example goal of three packed items is reachable."""

GRIPPER_LEFT_ONLY = GRIPPER.replace(
    """            for (gripper,) in of("free"):
                if gripper in grippers:""",
    """            for (gripper,) in of("free"):
                if gripper == "left":""",
)
"""Picks with the left gripper only: every example goal is still reachable, so only the
completeness test finds the defect."""

HEAVY_LOOPING = """
def successor_states(state, objects):
    while True:
        pass
"""

HEAVY_SWALLOWING = """
def successor_states(state, objects):
    try:
        while True:
            pass
    except BaseException:
        return []
"""
"""Loops and swallows the interrupt: the call must count as timed out all the same."""

HEAVY_RAISING = """
def successor_states(state, objects):
    items = sorted(objects)
    return [items[100]]
"""

HEAVY_LISTS = """
def successor_states(state, objects):
    return [[list(atom) for atom in state]]
"""

GOAL_ALWAYS = """
def is_goal(state, goal):
    return True
"""

GOAL_ONE_ATOM = """
def is_goal(state, goal):
    return any(atom in state for atom in goal)
"""
"""True when any goal atom holds: wrong on every partly achieved goal."""

GOAL_INTEGER = """
def is_goal(state, goal):
    return int(goal <= state)
"""


def fenced(code: str) -> str:
    """An answer with ``code`` in a Python block, as a model writes it."""
    return f"Here is the function.\n\n```python\n{code.strip()}\n```\n"


__all__ = [
    "GOAL",
    "GOAL_ALWAYS",
    "GOAL_INTEGER",
    "GOAL_ONE_ATOM",
    "GRIPPER",
    "GRIPPER_LEFT_ONLY",
    "HEAVY",
    "HEAVY_LISTS",
    "HEAVY_LOOPING",
    "HEAVY_MUTATING",
    "HEAVY_NO_STACK",
    "HEAVY_RAISING",
    "HEAVY_SWALLOWING",
    "HEAVY_UNSOUND",
    "fenced",
]
