"""Evaluation of a generalized plan on evaluation problems (Silver et al. 2024, Sec. 5).

Each problem is run in its own sandboxed child with the time budget (the paper's 30 s) and
every returned plan is checked; problems run in parallel across cores, each caller thread
through its own persistent sandbox worker.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from genplan.approaches.generalized_plan.checking import ProblemCheck, check_program
from genplan.pddl.problem import Problem
from genplan.runs.record import ProblemResult, RunRecord
from genplan.runs.status import SOLVED
from genplan.sandbox import Limits


@dataclass(frozen=True)
class EvaluationSummary:
    """Figures over one program's evaluation.

    Attributes:
        solved: problems solved.
        total: problems tried.
        fraction_solved: ``solved / total`` (0.0 when nothing was tried).
        median_seconds: median wall-clock seconds of ``get_plan`` over solved problems, or
            ``None`` when none was solved.
        statuses: problems per status (``solved``, ``python-exception``, ``timeout``, ...).
        checked_by: problems per checker of their returned plan (``{"val": 29, "simulator":
            1}``, :attr:`~genplan.runs.record.ProblemResult.checked_by`).
    """

    solved: int
    total: int
    fraction_solved: float
    median_seconds: float | None
    statuses: dict[str, int]
    checked_by: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of_results(cls, results: Sequence[ProblemResult]) -> EvaluationSummary:
        """The figures of a run's per-problem results (as its record computes them)."""
        record = RunRecord("", "", {}, "", 0, "", "", "", problems=list(results))
        return cls(
            record.solved,
            len(results),
            record.fraction_solved,
            record.median_seconds,
            record.statuses,
            record.checkers,
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "solved": self.solved,
            "total": self.total,
            "fraction_solved": self.fraction_solved,
            "median_seconds": self.median_seconds,
            "statuses": self.statuses,
            "checked_by": self.checked_by,
        }


def default_workers() -> int:
    """Parallel problem runs: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def evaluate_program(
    program: str,
    problems: Sequence[Problem],
    *,
    timeout: float,
    workers: int | None = None,
    on_result: Callable[[ProblemCheck, Problem], None] | None = None,
    limits: Limits,
) -> list[ProblemCheck]:
    """Run ``program`` on every problem, sandboxed and in parallel, and check each plan.

    Args:
        program: Python source defining ``get_plan``.
        problems: evaluation problems.
        timeout: seconds per problem.
        workers: problems run at once (default: the usable cores).
        on_result: called with each finished problem's check and the problem, in completion
            order (progress bars).
        limits: the sandbox handle: limits and isolation (required: a forgotten handle must not
            silently mean the defaults).

    Returns:
        One :class:`~genplan.approaches.generalized_plan.checking.ProblemCheck` per problem, in the order given.
    """
    workers = workers or default_workers()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {
            pool.submit(check_program, program, problem, timeout=timeout, limits=limits): problem
            for problem in problems
        }
        for future in as_completed(futures):
            if on_result is not None:
                on_result(future.result(), futures[future])
    return [future.result() for future in futures]


def summarize(checks: Sequence[ProblemCheck]) -> EvaluationSummary:
    """Fraction solved, median runtime of solved problems, and counts per status."""
    statuses: dict[str, int] = {}
    for check in checks:
        key = check.failure.value if check.failure is not None else SOLVED
        statuses[key] = statuses.get(key, 0) + 1
    solved_times = [c.seconds for c in checks if c.solved]
    solved = len(solved_times)
    return EvaluationSummary(
        solved=solved,
        total=len(checks),
        fraction_solved=solved / len(checks) if checks else 0.0,
        median_seconds=statistics.median(solved_times) if solved_times else None,
        statuses=dict(sorted(statuses.items())),
    )
