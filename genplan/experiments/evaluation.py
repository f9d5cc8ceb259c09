"""Evaluating programs on many problems as many tasks: one task per program and problem.

Where a grid holds finished programs (saved runs, Figure 4's intermediate programs), their
evaluation fans out over an engine's workers problem by problem instead of cell by cell, so a
domain with a few slow problems does not hold one worker while the others idle. Problems travel
parsed (parsing a large problem costs more than checking a plan for it); each task runs the
program in the sandbox and checks its plan as :func:`~genplan.approaches.generalized_plan.checking.check_program`
does (Silver et al. 2024, Sec. 5).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from genplan.approaches.generalized_plan.checking import check_program
from genplan.experiments.engines import Engine, Task
from genplan.pddl.problem import Problem
from genplan.requests.request import request_default
from genplan.sandbox import Limits


@dataclass(frozen=True)
class EvaluationJob:
    """A program to evaluate on problems.

    Attributes:
        name: the job's name in results (e.g. the domain).
        program: Python source defining ``get_plan``.
        problems: the parsed evaluation problems.
        timeout: seconds per problem.
        limits: the sandbox's limits and isolation (default: :class:`~genplan.sandbox.Limits`).
    """

    name: str
    program: str
    problems: tuple[Problem, ...]
    timeout: float = request_default("eval_timeout")
    limits: Limits = field(default_factory=Limits)  # the sandbox's defaults (bwrap), stated here once


def check_task(program: str, problem: Problem, timeout: float, limits: Limits) -> dict[str, Any]:
    """One problem's check as JSON (``problem``, ``status``, ``seconds``, ``plan_length``,
    ``message``) plus ``task_seconds``: the task's wall-clock seconds where it ran (sandbox
    start, program, plan check)."""
    started = time.perf_counter()
    result = check_program(program, problem, timeout=timeout, limits=limits).to_json()
    result["task_seconds"] = time.perf_counter() - started
    return result


def evaluation_tasks(jobs: Sequence[EvaluationJob]) -> list[Task]:
    """One task per job and problem, named ``eval-<job>-<index>``."""
    return [
        Task(f"eval-{job.name}-{index}", check_task, (job.program, problem, job.timeout, job.limits))
        for job in jobs
        for index, problem in enumerate(job.problems)
    ]


def evaluate_jobs(
    jobs: Sequence[EvaluationJob],
    engine: Engine,
    *,
    on_result: Callable[[str, dict[str, Any]], None] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Evaluate every job on ``engine``; return each job's results in its problems' order.

    A task that failed (its worker died more often than the engine allows) gives a result of
    status ``crashed`` with the error as its message.
    """
    tasks = evaluation_tasks(jobs)
    owner = {task.key: (job.name, index) for task, (job, index) in zip(tasks, _positions(jobs))}
    results: dict[str, list[dict[str, Any]]] = {job.name: [{} for _ in job.problems] for job in jobs}
    for finished in engine.run(tasks):
        if finished is None:
            continue
        name, index = owner[finished.task.key]
        if finished.error is not None:
            problem = finished.task.args[1]
            value = {"problem": problem.name, "status": "crashed", "seconds": 0.0, "plan_length": None}
            value["message"] = f"{type(finished.error).__name__}: {finished.error}"
        else:
            value = finished.value
        results[name][index] = value
        if on_result is not None:
            on_result(name, value)
    return results


def _positions(jobs: Sequence[EvaluationJob]) -> list[tuple[EvaluationJob, int]]:
    return [(job, index) for job in jobs for index in range(len(job.problems))]


def makespan(task_seconds: Sequence[float], workers: int) -> float:
    """Seconds ``workers`` would take for tasks of these durations handed out in order, each to
    the worker free first (how a scheduler without look-ahead fills workers): the projection
    of a grid's wall time to more workers from measured per-task times, overheads aside."""
    free = [0.0] * max(1, workers)
    for seconds in task_seconds:
        index = min(range(len(free)), key=free.__getitem__)
        free[index] += seconds
    return max(free)
