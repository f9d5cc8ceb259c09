"""Miconic (PG3's manymiconic) problems, from the distribution of the paper's problems.

Several buildings, each with its own elevator; buildings exist only implicitly: ``above``
holds only between floors of one building, for every pair ``i < j`` (floor ``j`` is above
floor ``i``), and names carry the building, numbered from 0 (``f3_b0``, ``p0_b1``). All
buildings of a problem have the same number of floors and of passengers; the passengers of a
building start on distinct floors, each bound for another floor of its building, and the lift
of each building starts on a random floor. The goal is ``served`` for every passenger.
Training: 1-2 buildings of 5-10 floors and 1-5 passengers each; evaluation: 1-5 buildings of
10-20 floors and 1-10 passengers each (PG3's manymiconic problems, which Silver et al. 2024
used). ``scale`` multiplies the number of buildings (so the ``above`` atoms grow linearly).
"""

from __future__ import annotations

import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 10
EVAL_COUNT = 30


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as data (``split`` is ``"train"`` or ``"eval"``)."""
    if split == "train":
        floor_count, passenger_count, buildings = rng.randint(5, 10), rng.randint(1, 5), rng.randint(1, 2)
    else:
        floor_count, passenger_count = rng.randint(10, 20), rng.randint(1, 10)
        buildings = rng.randint(1, 5) * scale
    objects: dict[str, str] = {}
    init: list[tuple[str, ...]] = []
    goal: list[tuple[str, ...]] = []
    for b in range(buildings):
        floors = [f"f{i}_b{b}" for i in range(floor_count)]
        passengers = [f"p{i}_b{b}" for i in range(passenger_count)]
        objects.update({f: "floor" for f in floors})
        objects.update({p: "passenger" for p in passengers})
        init += [
            ("above", floors[i], floors[j]) for i in range(floor_count) for j in range(i + 1, floor_count)
        ]
        for passenger, origin in zip(passengers, rng.sample(floors, passenger_count)):
            destination = rng.choice([f for f in floors if f != origin])
            init += [("origin", passenger, origin), ("destin", passenger, destination)]
            goal.append(("served", passenger))
        init.append(("lift-at", rng.choice(floors)))
    return ProblemData(name, "miconic", objects, init, goal, typed=True)
