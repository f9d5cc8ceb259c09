"""Heavy (heavy-pack) problems: pack every item, heaviest first, each on a heavier one.

Items ``o{id}`` with unique random ids and a random total order by weight, written out in full
as ``heavier(a, b)`` for every pair (``a`` heavier than ``b``): n(n-1)/2 atoms. Training 3-10
items, evaluation 100-250 (up to ~31,000 init atoms). ``scale`` multiplies the item count by
its square root (so the atoms grow about ``scale`` times), capped at 1,000 items (~500,000
atoms) to keep problems loadable.
"""

from __future__ import annotations

import math
import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 10
EVAL_COUNT = 30
MAX_ITEMS = 1000


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as data (``split`` is ``"train"`` or ``"eval"``)."""
    if split == "train":
        items = rng.randint(3, 10)
    else:
        items = min(MAX_ITEMS, round(rng.randint(100, 250) * math.sqrt(scale)))
    ids = rng.sample(range(1, 10 * items + 1), items)
    heaviest_first = [f"o{i}" for i in ids]  # the random order is the weight order
    init = [("box-empty",)] + [("unpacked", o) for o in heaviest_first]
    init += [
        ("heavier", heaviest_first[i], heaviest_first[j]) for i in range(items) for j in range(i + 1, items)
    ]
    goal = [("packed", o) for o in heaviest_first]
    objects = sorted(heaviest_first, key=lambda o: int(o[1:]))
    return ProblemData(name, "heavy-pack", objects, init, goal, typed=False)
