"""Ferry (PG3's manyferry) problems: cars start and end at random locations (possibly the same).

``not-eq`` holds for every ordered pair of distinct locations. ``scale`` multiplies the number
of cars, and the number of locations by about its square root (``not-eq`` grows quadratically).
"""

from __future__ import annotations

import math
import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 10
EVAL_COUNT = 30


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as data (``split`` is ``"train"`` or ``"eval"``)."""
    if split == "train":
        locations, cars = rng.randint(10, 15), rng.randint(3, 5)
    else:
        locations, cars = round(rng.randint(20, 30) * math.sqrt(scale)), rng.randint(10, 20) * scale
    loc = [f"l{i}" for i in range(locations)]
    car = [f"c{i}" for i in range(cars)]
    init = [("not-eq", a, b) for a in loc for b in loc if a != b]
    init += [("location", x) for x in loc] + [("car", c) for c in car]
    init += [("at-ferry", rng.choice(loc)), ("empty-ferry",)]
    init += [("at", c, rng.choice(loc)) for c in car]
    goal = [("at", c, rng.choice(loc)) for c in car]
    return ProblemData(name, "ferry", [*loc, *car], init, goal, typed=False)
