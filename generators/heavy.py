"""Heavy (heavy-pack) problems, from the distribution of the paper's problems.

Items ``o{id}``: the problem draws a number of ids, with replacement, from ``0 .. 1000`` and
keeps the distinct ones, so an evaluation problem that draws 100-250 ids has somewhat fewer
items (96-226 over the paper's 300 evaluation problems), as in Silver et al.'s heavy-pack
problems. A random total order by weight is written out in full as ``heavier(a, b)`` for every
pair (``a`` heavier than ``b``): n(n-1)/2 atoms. Training: 3-10 draws; evaluation: 100-250.
``scale`` multiplies the draws by its square root (so the atoms grow about ``scale`` times),
capped at 1,500 draws (about 1,100,000 atoms) to keep problems loadable (so 32x and 128x still differ:
about 990 and 1,490 items), and the id range by
``scale`` (so collisions stay as rare).
"""

from __future__ import annotations

import math
import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 10
EVAL_COUNT = 30
MAX_DRAWS = 1500
MAX_ID = 1000


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as data (``split`` is ``"train"`` or ``"eval"``)."""
    if split == "train":
        draws = rng.randint(3, 10)
    else:
        draws = min(MAX_DRAWS, round(rng.randint(100, 250) * math.sqrt(scale)))
    ids = sorted({rng.randint(0, MAX_ID * scale) for _ in range(draws)})
    items = [f"o{i}" for i in ids]
    heaviest_first = rng.sample(items, len(items))  # a random order is the weight order
    init = [("box-empty",)] + [("unpacked", o) for o in items]
    init += [
        ("heavier", heavier, lighter)
        for index, heavier in enumerate(heaviest_first)
        for lighter in heaviest_first[index + 1 :]
    ]
    goal = [("packed", o) for o in items]
    return ProblemData(name, "heavy-pack", items, init, goal, typed=False)
