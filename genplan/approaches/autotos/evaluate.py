"""Solving evaluation problems by search over the model's components, every plan validated.

Each problem gets one sandboxed harness call (:func:`genplan.approaches.autotos.harness.solve`):
BFS (or DFS) over ``successor_states`` and ``is_goal`` with the paper's limits (1 s per call,
600 s per search, Sec. 5), the plan recovered from the path found, then checked by
:func:`genplan.plans.validate.check_plan` outside the sandbox (Sec. 4.6: "the solutions
produced must be validated"). A problem's seconds are the sandbox worker's clock around the
call, as for every approach that runs model code.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from genplan.approaches.autotos.examples import task_json
from genplan.approaches.autotos.sandboxed import HarnessRunner
from genplan.approaches.autotos.settings import AutoToSSettings
from genplan.approaches.base import ProblemResult
from genplan.pddl.problem import Problem
from genplan.plans.validate import check_plan
from genplan.sandbox.outcome import is_out_of_memory

SOLVE_HARNESS = "genplan.approaches.autotos.harness:solve"
SLACK_SECONDS = 30.0


class EvaluationStatus(str, Enum):
    """How the search on one evaluation problem ended, besides :data:`SOLVED`, the plan checker's
    ``plan-syntax`` and ``plan-semantics`` (:func:`~genplan.runs.status.plan_status`) for a recovered
    plan that fails validation, and the component
    failures of :class:`~genplan.approaches.autotos.categories.ErrorCategory`
    (``successor-exception``, ``goal-timeout``, ...), which are recorded under their own names."""

    SEARCH_TIMEOUT = "search-timeout"
    """The search limit (600 s) ran out."""
    SEARCH_EXHAUSTED = "search-exhausted"
    """Every state the successor function reaches was expanded, none a goal."""
    SEARCH_MEMORY = "search-memory"
    """The search ran out of memory (the sandbox's limit)."""
    UNSOUND_TRANSITION = "unsound-transition"
    """A step of the path found is no applicable action's result, so it has no plan."""
    PROGRAM_ERROR = "program-error"
    """The program failed before the search (its top level raised)."""
    CRASHED = "crashed"
    """The sandboxed process died for another reason."""
    NO_COMPONENTS = "no-components"
    """The model never gave usable code for both components."""


def _result(key: str, problem: Problem, value: Any, seconds: float) -> ProblemResult:
    """The record of a finished harness call (``value`` is the harness's JSON, whatever the
    child claims), its ``seconds`` the caller's: the sandbox worker's clock around the whole call
    (the program's top level included), never the seconds the harness reports from inside the
    confined child, which a program could make small (issue 34)."""
    if not isinstance(value, dict):
        return ProblemResult(key, EvaluationStatus.CRASHED.value, None, seconds, "malformed result")
    figures = {k: value[k] for k in ("expanded", "generated") if isinstance(value.get(k), int)}
    status = value.get("status")
    plan = value.get("plan")
    if status != "plan-found" or not isinstance(plan, list):
        return ProblemResult(key, str(status), None, seconds, value.get("message"), details=figures)
    return ProblemResult.of_plan(key, problem, plan, check_plan(problem, plan), seconds, details=figures)


def solve_problem(
    program: str, problem: Problem, key: str, settings: AutoToSSettings, runner: HarnessRunner
) -> ProblemResult:
    """Search one problem with the program's components and validate the plan."""
    options = {
        "search": settings.search,
        "search_seconds": settings.search_seconds,
        "call_seconds": settings.call_seconds,
    }
    outcome = runner(
        program,
        SOLVE_HARNESS,
        [program, task_json(problem), options],
        settings.search_seconds + SLACK_SECONDS,
    )
    if outcome.status == "success":
        return _result(key, problem, outcome.value, outcome.seconds)
    if outcome.status == "timed-out":
        return ProblemResult(
            key, EvaluationStatus.SEARCH_TIMEOUT.value, None, settings.search_seconds, outcome.reason
        )
    if outcome.status == "raised":
        return ProblemResult(
            key, EvaluationStatus.PROGRAM_ERROR.value, None, outcome.seconds, outcome.traceback
        )
    status = EvaluationStatus.SEARCH_MEMORY if is_out_of_memory(outcome.reason) else EvaluationStatus.CRASHED
    return ProblemResult(key, status.value, None, outcome.seconds, outcome.reason)
