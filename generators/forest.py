"""Forest (PG3's hiking) problems.

A grid of cells ``r{row}_c{col}`` with 4-neighbour ``adjacent`` both ways. A random
self-avoiding walk from the start to the goal is the marked trail (``ontrail`` links
consecutive trail cells in order); about 20% of the trail cells after the second are hills,
never two in a row; each off-trail cell is water or dirt with probability 1/2. Following the
trail always works; shorter paths through dirt may exist. ``scale`` multiplies the number of
cells (each side by about its square root).
"""

from __future__ import annotations

import itertools
import math
import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 10
EVAL_COUNT = 30


def _cell(row: int, col: int) -> str:
    return f"r{row}_c{col}"


def _trail(rng: random.Random, rows: int, cols: int) -> list[tuple[int, int]]:
    """A self-avoiding walk of at least 4 cells, aiming for ``rows + cols`` to ``2 (rows + cols)`` cells."""
    target = rng.randint(rows + cols, 2 * (rows + cols))
    while True:
        start = (rng.randrange(rows), rng.randrange(cols))
        walk = [start]
        visited = {start}
        while len(walk) < target:
            row, col = walk[-1]
            options = [
                (r, c)
                for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
                if 0 <= r < rows
                and 0 <= c < cols
                and (r, c) not in visited
                # keep the trail a simple path: no shortcut to earlier trail cells
                and sum((r + dr, c + dc) in visited for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))) == 1
            ]
            if not options:
                break
            step = rng.choice(options)
            walk.append(step)
            visited.add(step)
        if len(walk) >= 4:
            return walk


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as data (``split`` is ``"train"`` or ``"eval"``)."""
    low, high = (8, 9) if split == "train" else (10, 11)
    factor = math.sqrt(scale) if split != "train" else 1.0
    rows = round(rng.randint(low, high) * factor)
    cols = round(rng.randint(low, high) * factor)
    trail = _trail(rng, rows, cols)
    on_trail = set(trail)
    hills: set[tuple[int, int]] = set()
    for index in range(2, len(trail)):
        if trail[index - 1] not in hills and rng.random() < 0.2:
            hills.add(trail[index])
    init = [("at", _cell(*trail[0]))]
    for row in range(rows):
        for col in range(cols):
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if 0 <= r < rows and 0 <= c < cols:
                    init.append(("adjacent", _cell(row, col), _cell(r, c)))
            if (row, col) in hills:
                init.append(("ishill", _cell(row, col)))
            elif (row, col) not in on_trail and rng.random() < 0.5:
                init.append(("iswater", _cell(row, col)))
    init += [("ontrail", _cell(*a), _cell(*b)) for a, b in itertools.pairwise(trail)]
    goal = [("at", _cell(*trail[-1]))]
    objects = {_cell(r, c): "loc" for r in range(rows) for c in range(cols)}
    return ProblemData(name, "hiking", objects, init, goal, typed=True)
