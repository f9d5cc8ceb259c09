"""Forest (PG3's hiking) problems, from the distribution of the paper's problems.

A grid of cells ``r{row}_c{col}`` with 4-neighbour ``adjacent`` both ways. The hiker starts at a
random cell and must reach another random cell. A random depth-first walk joins them: each
step goes to a neighbour, tried in random order, that is off the walk and touches no earlier
walk cell (only the goal may), and from which the goal can still be reached that way; the walk
is the first one found. Walk cells are never water; every other cell is water with probability
1/2. Along the walk, the first cell after the second that draws below 0.2 is a hill, and no
other cell is (the paper's generator never resets its "last was a hill" flag, so its trails
have at most one hill). The marked trail (``ontrail``) is read back from the start as the
paper's code reads it: from each cell to its first walk neighbour (up, down, left, right) not
yet on the trail, so where the goal touches an earlier walk cell the trail may cut across to it.
Following the trail always works; shorter paths through dirt may exist. Training: 4 problems
(Silver et al. 2024, Sec. 5.1) on 8-9 x 8-9 grids; evaluation: 10-11 x 10-11. ``scale``
multiplies the number of cells (each side by about its square root).
"""

from __future__ import annotations

import heapq
import itertools
import math
import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 4
EVAL_COUNT = 30
HILL_PROBABILITY = 0.2
WATER_PROBABILITY = 0.5
STEPS_PER_CELL = 50
"""A walk that takes more than this many steps per cell (a rare maze of dead ends) is dropped
and drawn again from new end points."""

Cell = tuple[int, int]
NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # the order the marked trail is read in


def _name(cell: Cell) -> str:
    return f"r{cell[0]}_c{cell[1]}"


def _neighbours(cell: Cell, rows: int, cols: int) -> list[Cell]:
    row, col = cell
    return [(row + dr, col + dc) for dr, dc in NEIGHBOURS if 0 <= row + dr < rows and 0 <= col + dc < cols]


def _reachable(start: Cell, goal: Cell, walk: set[Cell], rows: int, cols: int) -> bool:
    """Whether ``goal`` can be reached from ``start`` (the walk's next cell) through cells off
    ``walk`` that touch no cell of ``walk`` (the cells a continuation of the walk may use).

    A best-first search towards the goal (nearest cells first): it decides the open grid in a
    few steps and the walk's dead ends by exhausting them.
    """
    seen = {start}
    frontier = [(0, start)]
    while frontier:
        _, cell = heapq.heappop(frontier)
        for following in _neighbours(cell, rows, cols):
            if following == goal:
                return True
            if following in seen or following in walk:
                continue
            if any(n in walk for n in _neighbours(following, rows, cols)):
                continue
            seen.add(following)
            distance = abs(following[0] - goal[0]) + abs(following[1] - goal[1])
            heapq.heappush(frontier, (distance, following))
    return False


def _steps(
    rng: random.Random, walk: list[Cell], on_walk: set[Cell], goal: Cell, rows: int, cols: int
) -> list[Cell]:
    """The cells the walk may go to next from its last cell, in random order (the last one is
    tried first)."""
    here = walk[-1]
    options = []
    for cell in _neighbours(here, rows, cols):
        if cell in on_walk:
            continue
        if cell != goal:
            if any(n in on_walk and n != here for n in _neighbours(cell, rows, cols)):
                continue
            if not _reachable(cell, goal, on_walk, rows, cols):
                continue
        options.append(cell)
    rng.shuffle(options)
    return options


def _walk(rng: random.Random, rows: int, cols: int) -> list[Cell]:
    """A random depth-first walk from a random start to a different random goal."""
    while True:
        start = (rng.randrange(rows), rng.randrange(cols))
        goal = start
        while goal == start:
            goal = (rng.randrange(rows), rng.randrange(cols))
        walk, on_walk = [start], {start}
        options = [_steps(rng, walk, on_walk, goal, rows, cols)]
        for _ in range(STEPS_PER_CELL * rows * cols):
            if not options:
                break
            if not options[-1]:  # a dead end: step back
                options.pop()
                on_walk.discard(walk.pop())
                continue
            cell = options[-1].pop()
            walk.append(cell)
            on_walk.add(cell)
            if cell == goal:
                return walk
            options.append(_steps(rng, walk, on_walk, goal, rows, cols))


def _marked_trail(walk: list[Cell], rows: int, cols: int) -> list[Cell]:
    """The trail read back from the start: each cell's first walk neighbour not yet on it."""
    on_walk = set(walk)
    trail = [walk[0]]
    while trail[-1] != walk[-1]:
        trail.append(next(c for c in _neighbours(trail[-1], rows, cols) if c in on_walk and c not in trail))
    return trail


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as data (``split`` is ``"train"`` or ``"eval"``)."""
    low, high = (8, 9) if split == "train" else (10, 11)
    factor = math.sqrt(scale) if split != "train" else 1.0
    rows = round(rng.randint(low, high) * factor)
    cols = round(rng.randint(low, high) * factor)
    walk = _walk(rng, rows, cols)
    on_walk = set(walk)
    hill = None
    for index, cell in enumerate(walk[1:-1], start=1):
        if rng.random() < HILL_PROBABILITY and index > 1 and hill is None:
            hill = cell
    cells = [(row, col) for row in range(rows) for col in range(cols)]
    water = [c for c in cells if c not in on_walk and rng.random() < WATER_PROBABILITY]
    init: list[tuple[str, ...]] = [("at", _name(walk[0]))]
    init += [("adjacent", _name(c), _name(n)) for c in cells for n in _neighbours(c, rows, cols)]
    init += [("iswater", _name(c)) for c in water]
    init += [("ishill", _name(hill))] if hill is not None else []
    trail = _marked_trail(walk, rows, cols)
    init += [("ontrail", _name(a), _name(b)) for a, b in itertools.pairwise(trail)]
    goal = [("at", _name(walk[-1]))]
    return ProblemData(name, "hiking", {_name(c): "loc" for c in cells}, init, goal, typed=True)
