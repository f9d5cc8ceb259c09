"""Miconic (PG3's manymiconic) problems: several buildings, each with its own elevator.

Buildings exist only implicitly: ``above`` holds only between floors of one building, for
every pair ``i < j`` (floor ``j`` is above floor ``i``), and names carry the building
(``f3_b1``, ``p0_b1``). Each passenger has distinct origin and destination floors in its
building; the goal is ``served`` for all. ``scale`` multiplies the number of buildings (so
the ``above`` atoms grow linearly).
"""

from __future__ import annotations

import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 10
EVAL_COUNT = 30


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as data (``split`` is ``"train"`` or ``"eval"``)."""
    if split == "train":
        buildings, floor_range, passenger_range = rng.randint(1, 2), (5, 10), (1, 5)
    else:
        buildings, floor_range, passenger_range = rng.randint(1, 5) * scale, (10, 20), (1, 10)
    objects: dict[str, str] = {}
    init: list[tuple[str, ...]] = []
    goal: list[tuple[str, ...]] = []
    for b in range(1, buildings + 1):
        floors = [f"f{i}_b{b}" for i in range(1, rng.randint(*floor_range) + 1)]
        passengers = [f"p{i}_b{b}" for i in range(rng.randint(*passenger_range))]
        objects.update({f: "floor" for f in floors})
        objects.update({p: "passenger" for p in passengers})
        init += [
            ("above", floors[i], floors[j]) for i in range(len(floors)) for j in range(i + 1, len(floors))
        ]
        init.append(("lift-at", rng.choice(floors)))
        for p in passengers:
            origin, destination = rng.sample(floors, 2)
            init += [("origin", p, origin), ("destin", p, destination)]
            goal.append(("served", p))
    return ProblemData(name, "miconic", objects, init, goal, typed=True)
