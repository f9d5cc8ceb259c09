"""Blocksworld problems (the 4-operator domain of PlanBench): rearrange random towers of blocks.

A configuration is a random set of towers: the blocks in random order, each put on top of a
random tower or starting a new one (even odds). The initial state is one configuration, the goal
the ``on`` atoms of another (blocks that end on the table are not mentioned), as in PlanBench's
goals; it never holds initially. Blocks are named ``a``, ``b``, ... (``a1``, ``b1``, ... after
``z``). Training: 3-5 blocks; evaluation: 6-12 blocks; ``scale`` multiplies the number of blocks.

:func:`generate_for_length` draws candidates for problem sets grouped by optimal plan length
(SymPlanner's Table 1 groups 2, 4, ..., 12): the number of blocks suits the length wanted; the
optimal length itself comes from a planner (:mod:`genplan.plans.length_sets`).
"""

from __future__ import annotations

import itertools
import random

from genplan.pddl.problem_data import ProblemData

TRAIN_COUNT = 10
EVAL_COUNT = 30

Atom = tuple[str, ...]


def block_names(count: int) -> list[str]:
    """``a``, ``b``, ..., ``z``, ``a1``, ``b1``, ...: ``count`` names."""
    return [chr(ord("a") + i % 26) + (str(i // 26) if i >= 26 else "") for i in range(count)]


def random_towers(rng: random.Random, blocks: list[str]) -> list[list[str]]:
    """A random configuration: towers listed bottom block first."""
    order = list(blocks)
    rng.shuffle(order)
    towers: list[list[str]] = []
    for block in order:
        if towers and rng.random() < 0.5:
            rng.choice(towers).append(block)
        else:
            towers.append([block])
    return towers


def tower_atoms(towers: list[list[str]]) -> list[Atom]:
    """The atoms of a configuration with the hand empty."""
    atoms: list[Atom] = [("handempty",)]
    for tower in towers:
        atoms += [("ontable", tower[0]), ("clear", tower[-1])]
        atoms += [("on", upper, lower) for lower, upper in itertools.pairwise(tower)]
    return atoms


def problem_with_blocks(rng: random.Random, count: int, name: str) -> ProblemData:
    """A problem with ``count`` blocks (at least 2) whose goal does not hold initially."""
    blocks = block_names(count)
    init = tower_atoms(random_towers(rng, blocks))
    while True:
        goal = [atom for atom in tower_atoms(random_towers(rng, blocks)) if atom[0] == "on"]
        if goal and not set(goal) <= set(init):
            break
    return ProblemData(name, "blocksworld-4ops", blocks, init, goal, typed=False)


def generate_problem(rng: random.Random, split: str, name: str, scale: int = 1) -> ProblemData:
    """One problem as PDDL text (``split`` is ``"train"`` or ``"eval"``)."""
    count = rng.randint(3, 5) if split == "train" else rng.randint(6, 12) * scale
    return problem_with_blocks(rng, count, name)


def generate_for_length(rng: random.Random, length: int, name: str) -> ProblemData:
    """A candidate for optimal plan length ``length``: ``max(3, length/2 - 1)`` to
    ``max(3, length/2 + 2)`` blocks (each block moved costs two actions)."""
    low = max(3, length // 2 - 1)
    return problem_with_blocks(rng, rng.randint(low, max(low, length // 2 + 2)), name)
