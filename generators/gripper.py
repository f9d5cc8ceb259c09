"""Gripper (PG3's manygripper) problems: many rooms, two grippers, balls in random rooms.

The goal places a random subset of the balls in random rooms. ``scale`` multiplies the
numbers of balls, rooms and goal balls.
"""

from __future__ import annotations

import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 10
EVAL_COUNT = 30


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as data (``split`` is ``"train"`` or ``"eval"``)."""
    if split == "train":
        balls, rooms, goal_balls = rng.randint(5, 10), rng.randint(15, 20), rng.randint(2, 5)
    else:
        balls, rooms, goal_balls = (
            rng.randint(20, 30) * scale,
            rng.randint(40, 50) * scale,
            rng.randint(10, 20) * scale,
        )
    room = [f"room{i}" for i in range(rooms)]
    ball = [f"ball{i}" for i in range(balls)]
    grippers = ["left", "right"]
    init = [("room", r) for r in room] + [("ball", b) for b in ball] + [("gripper", g) for g in grippers]
    init += [("free", g) for g in grippers] + [("at-robby", rng.choice(room))]
    init += [("at", b, rng.choice(room)) for b in ball]
    goal = [("at", b, rng.choice(room)) for b in sorted(rng.sample(ball, goal_balls))]
    return ProblemData(name, "gripper-strips", [*room, *ball, *grippers], init, goal, typed=False)
