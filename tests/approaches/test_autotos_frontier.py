"""A BFS whose levels cannot fit stops at once (issue 36): the depth bound and the projection."""

from __future__ import annotations

import pytest
from fake_programs import heavy_problem

import genplan.approaches.autotos.frontier as frontier
from genplan.approaches.autotos.frontier import LevelWatch, depth_bound

MIB = 2**20


def test_the_depth_bound_counts_goal_atoms_still_false() -> None:
    problem = heavy_problem("p", 5)
    operators = list(problem.domain.operators.values())
    assert depth_bound(problem.goal, problem.init, operators) == 5  # one packed item per action
    assert depth_bound(problem.goal, problem.init | {("packed", "o0")}, operators) == 4
    assert depth_bound(problem.goal, problem.goal, operators) == 0
    assert depth_bound({("unknown", "x")}, problem.init, operators) == 0  # nothing adds it: no bound


class Memory:
    """A stand-in for the process's resident memory: ``per_state`` bytes per stored state."""

    def __init__(self, per_state: float):
        self.per_state = per_state
        self.stored = 0

    def __call__(self) -> int:
        return int(self.stored * self.per_state)


def _levels(watch: LevelWatch, memory: Memory, sizes: tuple[int, ...]) -> list[str | None]:
    answers = []
    for size in sizes:
        memory.stored += size
        answers.append(watch.level_done(size, memory.stored))
    return answers


def _watch(bound: int, per_state: float, monkeypatch: pytest.MonkeyPatch) -> tuple[LevelWatch, Memory]:
    memory = Memory(per_state)
    memory.stored = 1
    monkeypatch.setattr(frontier, "resident_bytes", memory)
    return LevelWatch(bound, limit=2 * 1024 * MIB, start=0, levels=[1]), memory


GRIPPER = (45, 42, 1896, 2043, 62109)
"""The level sizes of gripper's first evaluation problem under the saved AutoToS components."""


def test_levels_that_cannot_fit_before_the_depth_bound_stop_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    watch, memory = _watch(8, 4400, monkeypatch)  # gripper: about 4.4 kB a state
    *early, last = _levels(watch, memory, GRIPPER)
    assert early == [None] * 4
    assert last is not None and last.startswith("the search stopped at depth 5 with 66,136 states stored")
    assert "grow about x5.7 a level" in last and "a plan needs at least 8 steps" in last


@pytest.mark.parametrize(
    ("bound", "sizes", "per_state"),
    [
        (6, GRIPPER, 4400),  # the bound is the next level: nothing to project
        (30, (45, 42, 1896, 2043, 2000, 1900), 4400),  # levels no longer grow
        (30, GRIPPER, 100),  # too little memory used to tell a state's size
        (8, (4, 8, 16, 32, 64), 400_000),  # growing, but the levels up to the bound fit
    ],
)
def test_a_search_that_may_fit_goes_on(
    bound: int, sizes: tuple[int, ...], per_state: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    watch, memory = _watch(bound, per_state, monkeypatch)
    assert _levels(watch, memory, sizes) == [None] * len(sizes)
