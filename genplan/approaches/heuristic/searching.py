"""Calling the harnesses from genplan's side: one sandboxed call per search or check, its answer
read as hostile data, its seconds on the caller's clock.

A :data:`Runner` sends a program and a harness call to the sandbox (:func:`sandbox_runner`, with
the run's limits; tests pass one that runs in-process). :func:`run_search` runs greedy
best-first search with a program's heuristic on one problem and returns a :class:`SearchRecord`;
:func:`problem_result` turns an evaluation search into the run record's
:class:`~genplan.runs.record.ProblemResult`, its plan checked by genplan's plan checker (VAL).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from genplan.approaches.base import ProblemResult
from genplan.approaches.heuristic.gbfs import SearchStatus
from genplan.approaches.heuristic.probes import task_json
from genplan.pddl.problem import Problem
from genplan.plans.untrusted_text import shown_block
from genplan.plans.validate import check_plan
from genplan.sandbox import CallOutcome, Limits, RunStatus, run_untrusted

HARNESS = "genplan.approaches.heuristic.harness"
SLACK_SECONDS = 10.0
"""Budget of one sandboxed call beyond its own time limit: the child's start, the program's top
level, the task's JSON, the result's way back."""
MESSAGE_CAP = 2000
"""Characters of a failure's message kept in a record (tracebacks are the program's text)."""

Runner = Callable[[str, str, list[Any], float], CallOutcome]
"""``runner(source, "genplan.module:function", args, timeout) -> CallOutcome``."""

FAILURE_STATUSES = frozenset(
    {*(s.value for s in SearchStatus), "factory-error", "not-callable", "program-error", "crashed"}
)
"""Every status a search can end with besides a plan (see :class:`SearchRecord`)."""


def sandbox_runner(limits: Limits) -> Runner:
    """A runner that sends every call through the sandbox with ``limits`` (its isolation included).

    The runner raises :class:`genplan.sandbox.IsolationUnavailable` when no sandbox worker can start,
    never for anything the program does."""

    def run(source: str, harness: str, args: list[Any], timeout: float) -> CallOutcome:
        return run_untrusted(source, harness, args, timeout=timeout, limits=limits)

    return run


def capped(text: str | None) -> str | None:
    """Program-controlled ``text`` (a message, a traceback) as a record keeps it: control
    characters and lone surrogates escaped, line breaks kept, at most :data:`MESSAGE_CAP`
    characters of it (:func:`genplan.plans.untrusted_text.shown_block`)."""
    return None if text is None else shown_block(text, MESSAGE_CAP)


@dataclass(frozen=True)
class SearchRecord:
    """One search with a candidate heuristic, as genplan reads it.

    Attributes:
        status: ``plan-found``, a :class:`~genplan.approaches.heuristic.gbfs.SearchStatus` failure
            (``search-timeout``, ``search-exhausted``, ``search-limit``, ``search-memory``,
            ``heuristic-error``), ``factory-error`` or ``not-callable`` (``make_heuristic`` raised,
            or returned no function), ``program-error`` (the program does not compile or its top
            level raised) or ``crashed`` (the sandboxed process died, or sent a malformed answer).
        plan: the plan found (``"(action arg ...)"`` strings), still to be checked.
        expanded, evaluated, generated: the search's figures (0 when it never started).
        seconds: wall-clock seconds of the call on genplan's clock (never the child's claim).
        message: why it failed, capped.
        plan_length: the plan's length (kept when the plan itself is not, in observations).
    """

    status: str
    plan: list[str] | None
    expanded: int
    evaluated: int
    generated: int
    seconds: float
    message: str | None = None
    plan_length: int | None = None

    @property
    def found(self) -> bool:
        """Whether the search found a plan (a record read back from observations keeps its
        length only, not the plan)."""
        return self.status == SearchStatus.PLAN_FOUND.value

    def figures(self) -> dict[str, int]:
        """The search's figures, for a record's ``details``."""
        return {"expanded": self.expanded, "evaluated": self.evaluated, "generated": self.generated}

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form, with the plan's length instead of the plan."""
        return {
            "status": self.status,
            "plan_length": self.plan_length if self.plan is None else len(self.plan),
            **self.figures(),
            "seconds": round(self.seconds, 6),
            "message": self.message,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SearchRecord:
        """Inverse of :meth:`to_json`, for observations (the plan itself is not kept).

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not what :meth:`to_json` writes.
        """
        return cls(
            str(data["status"]),
            None,
            int(data["expanded"]),
            int(data["evaluated"]),
            int(data["generated"]),
            float(data["seconds"]),
            data.get("message"),
            data.get("plan_length"),
        )


def _count(value: Any) -> int | None:
    return value if type(value) is int and value >= 0 else None


def read_search(value: Any, seconds: float) -> SearchRecord:
    """The harness's answer as a :class:`SearchRecord`, every field checked (anything malformed:
    ``crashed``)."""
    malformed = SearchRecord("crashed", None, 0, 0, 0, seconds, "the search sent a malformed answer")
    if type(value) is not dict:
        return malformed
    status, plan, message = value.get("status"), value.get("plan"), value.get("message")
    counts = [_count(value.get(name)) for name in ("expanded", "evaluated", "generated")]
    if status not in FAILURE_STATUSES | {SearchStatus.PLAN_FOUND.value} or None in counts:
        return malformed
    if plan is not None and (type(plan) is not list or not all(type(a) is str for a in plan)):
        return malformed
    if status == SearchStatus.PLAN_FOUND.value and plan is None:
        return malformed
    expanded, evaluated, generated = (c or 0 for c in counts)
    text = message if type(message) is str else None
    return SearchRecord(str(status), plan, expanded, evaluated, generated, seconds, capped(text))


def outcome_failure(outcome: CallOutcome) -> tuple[str, str | None]:
    """The status and message of a call that did not succeed."""
    if outcome.status is RunStatus.RAISED:
        return "program-error", capped(outcome.traceback)
    if outcome.status is RunStatus.TIMED_OUT:
        return SearchStatus.TIMEOUT.value, capped(outcome.reason or "the time limit ran out")
    if outcome.out_of_memory:
        return SearchStatus.MEMORY.value, capped(outcome.reason)
    return "crashed", capped(outcome.reason)


def run_search(
    runner: Runner,
    source: str,
    problem: Problem,
    seconds: float,
    max_states: int,
    task: dict[str, Any] | None = None,
) -> SearchRecord:
    """Greedy best-first search on ``problem`` with the heuristic of ``source``, in one sandboxed
    call (:func:`genplan.approaches.heuristic.harness.search`) of ``seconds`` (plus
    :data:`SLACK_SECONDS` for the sandbox's own budget: the child's start and the task's JSON).

    The record's seconds are genplan's clock around the whole call; a plan found when that
    clock is past ``seconds`` is a ``search-timeout``, as a generalized plan's program that
    returns after its time limit (the run's time limit is the whole call's, not the search's).

    ``task`` is ``problem``'s :func:`~genplan.approaches.heuristic.probes.task_json` when the
    caller already built it (training searches every problem with every candidate).

    Raises:
        genplan.sandbox.IsolationUnavailable: from the sandbox runner, when no sandbox worker can
            start (never for anything the program does).
    """
    options = {"seconds": seconds, "max_states": max_states}
    args = [source, task if task is not None else task_json(problem), options]
    started = time.perf_counter()
    outcome = runner(source, f"{HARNESS}:search", args, seconds + SLACK_SECONDS)
    elapsed = time.perf_counter() - started  # the caller's clock around the whole call
    if outcome.status is RunStatus.SUCCESS:
        search = read_search(outcome.value, elapsed)
        if search.plan is not None and elapsed > seconds:  # found, but after the time limit
            late = f"a plan was found after {elapsed:.2f} s, past the time limit of {seconds:g} s"
            return replace(search, status=SearchStatus.TIMEOUT.value, plan=None, message=late)
        return search
    status, message = outcome_failure(outcome)
    return SearchRecord(status, None, 0, 0, 0, elapsed, message)


def problem_result(key: str, problem: Problem, search: SearchRecord) -> ProblemResult:
    """An evaluation problem's result: a returned plan checked (``solved``, ``plan-syntax``,
    ``plan-semantics``), else the search's status, with its figures in ``details``."""
    details = search.figures()
    if search.plan is not None:
        verdict = check_plan(problem, search.plan)
        return ProblemResult.of_plan(key, problem, search.plan, verdict, search.seconds, details=details)
    return ProblemResult(key, search.status, None, search.seconds, search.message, details=details)
