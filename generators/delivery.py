"""Delivery (PG3's trapnewspapers) problems.

Locations ``loc-0 .. loc-(n-1)``; ``loc-0`` is the home base, safe, and the start. Wanting
locations are drawn from ``loc-1 ..`` and are safe; every other location is unsafe (one may
move *to* it but not on *from* it). Papers ``paper-0 ..`` start unpacked: as many as wanting
locations in training, plus 0-9 spare ones in evaluation. ``scale`` multiplies the numbers of
locations, wanting locations and papers.
"""

from __future__ import annotations

import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 5
EVAL_COUNT = 30


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as data (``split`` is ``"train"`` or ``"eval"``)."""
    if split == "train":
        locations = rng.randint(5, 9)
        wanting = min(rng.randint(2, 4), locations - 1)
        papers = wanting
    else:
        locations = rng.randint(30, 39) * scale
        wanting = rng.randint(20, 29) * scale
        papers = wanting + rng.randint(0, 9) * scale
    loc = [f"loc-{i}" for i in range(locations)]
    paper = [f"paper-{i}" for i in range(papers)]
    wants = sorted(rng.sample(range(1, locations), wanting))
    init = [("at", "loc-0"), ("ishomebase", "loc-0"), ("safe", "loc-0")]
    init += [("safe", loc[i]) for i in wants] + [("wantspaper", loc[i]) for i in wants]
    init += [("unpacked", p) for p in paper]
    goal = [("satisfied", loc[i]) for i in wants]
    objects = {**{p: "paper" for p in paper}, **{x: "loc" for x in loc}}
    return ProblemData(name, "delivery", objects, init, goal, typed=True)
