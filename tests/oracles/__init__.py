"""Hand-written reference solvers for the built-in domains: TEST ORACLES ONLY.

They prove that generated problems are solvable and that the plan checker accepts valid
plans. They never stand in for a synthesized program, and nothing in ``genplan/`` imports them.
"""

from __future__ import annotations

from collections.abc import Callable

from genplan.pddl.problem import Problem

from . import blocksworld, delivery, ferry, forest, gripper, heavy, logistics, miconic, spanner

ORACLES: dict[str, Callable[[Problem], list[str]]] = {
    "blocksworld": blocksworld.solve,
    "delivery": delivery.solve,
    "ferry": ferry.solve,
    "forest": forest.solve,
    "gripper": gripper.solve,
    "heavy": heavy.solve,
    "logistics": logistics.solve,
    "miconic": miconic.solve,
    "spanner": spanner.solve,
}
