"""Spanner problems: a one-way corridor shed -> location1 -> ... -> locationN -> gate.

The man starts at the shed, spanners lie at random corridor locations, all nuts are loose at
the gate; each spanner works once and there are at least as many spanners as nuts. ``scale``
multiplies the numbers of spanners, nuts and locations.
"""

from __future__ import annotations

import itertools
import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 10
EVAL_COUNT = 30


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as data (``split`` is ``"train"`` or ``"eval"``)."""
    if split == "train":
        spanners = rng.randint(3, 5)
        nuts = rng.randint(3, spanners)
        locations = rng.randint(3, 5)
    else:
        spanners = rng.randint(10, 20) * scale
        nuts = rng.randint(10 * scale, spanners)
        locations = rng.randint(20, 30) * scale
    corridor = [f"location{i}" for i in range(1, locations + 1)]
    chain = ["shed", *corridor, "gate"]
    spanner = [f"spanner{i}" for i in range(1, spanners + 1)]
    nut = [f"nut{i}" for i in range(1, nuts + 1)]
    init = [("at", "bob", "shed")] + [("link", a, b) for a, b in itertools.pairwise(chain)]
    init += [("at", s, rng.choice(corridor)) for s in spanner] + [("useable", s) for s in spanner]
    init += [("at", n, "gate") for n in nut] + [("loose", n) for n in nut]
    goal = [("tightened", n) for n in nut]
    objects = {"bob": "man", **{s: "spanner" for s in spanner}, **{n: "nut" for n in nut}}
    objects.update({x: "location" for x in chain})
    return ProblemData(name, "spanner", objects, init, goal, typed=True)
