"""clingo for the ASP approach, from genplan's side: policy first, then an isolated child.

Every call checks the untrusted texts against :mod:`~genplan.approaches.asp.policy` (a
violation comes back as a ``rejected`` result, and clingo never sees the text), sends one
JSON request to :func:`~genplan.approaches.asp.clingo_run.run_request` in a child process
(:mod:`~genplan.approaches.asp.isolation`) and reads the JSON response into typed results.
The response is read as untrusted data: fields of the wrong type are dropped.

A :class:`Clingo` given :class:`~genplan.runs.observations.Observations` records each response
(keyed by the request and the memory limit) and reuses a recorded one instead of running clingo
again: whether a run ended within its time limit depends on the machine, and self-revision's
prompts show it, so a rerun or a replay must see the recorded outcome to ask the recorded prompts.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from genplan.approaches.asp.isolation import DEFAULT_MEMORY_BYTES, run_isolated
from genplan.approaches.asp.policy import policy_violations
from genplan.runs.observations import Observations, digest


class ClingoStatus(str, Enum):
    """How a clingo request ended; the value is used in JSON files."""

    SAT = "sat"
    """An answer set exists (a plan was found, a query holds)."""
    UNSAT = "unsat"
    """No answer set (for planning: no plan up to the largest horizon)."""
    TIMEOUT = "timeout"
    """The time limit ran out first."""
    ERROR = "error"
    """clingo refused the program: a syntax error, unsafe variables, a grounding error."""
    REJECTED = "rejected"
    """genplan's policy refused the text (a script, ``#include``, ``@``) before clingo saw it."""
    CRASHED = "crashed"
    """The child process died (out of memory, CPU time) or gave no readable answer."""


@dataclass(frozen=True)
class PlannedAction:
    """An ``occurs(A,T)`` atom of an answer set.

    Attributes:
        step: ``T``.
        term: ``A`` as clingo prints it (``pick(ball_1,rooma,left)``).
        flat: ``A`` as ``(name, arg, ...)`` when it is a term of constants and numbers, else ``None``.
    """

    step: int
    term: str
    flat: tuple[str, ...] | None


@dataclass(frozen=True)
class TraceStep:
    """State ``step`` of an answer set (its ``holds`` fluents) and the actions into the next state."""

    step: int
    holds: tuple[str, ...]
    actions: tuple[str, ...]


@dataclass(frozen=True)
class Transition:
    """One transition the encoding allows: its actions and the ``holds`` fluents after them
    (each as ``(text, flat or None)``, see :class:`PlannedAction`)."""

    actions: tuple[PlannedAction, ...]
    holds: tuple[tuple[str, tuple[str, ...] | None], ...]


@dataclass(frozen=True)
class StateTransitions:
    """What the encoding does from one given state (the successor check).

    Attributes:
        accepted: whether the state itself has an answer set at horizon 0.
        status: how enumerating its transitions ended.
        transitions: every one-action transition from it (up to the model cap).
        truncated: whether the cap cut the enumeration short.
    """

    accepted: bool
    status: ClingoStatus
    transitions: tuple[Transition, ...] = ()
    truncated: bool = False


@dataclass(frozen=True)
class ClingoResult:
    """One clingo request's outcome.

    Attributes:
        status: see :class:`ClingoStatus`.
        messages: clingo's errors and warnings (``encoding:LINE:COL: ...``), or genplan's.
        horizon: the horizon solved at (planning: of the plan, or the last one tried).
        actions: the answer set's actions, by step.
        trace: the answer set's states, when asked for.
        states: per given state, for the successor check.
        seconds: clingo's own time in the child (grounding and solving).
        wall_seconds: wall-clock seconds of the whole call, child start included.
    """

    status: ClingoStatus
    messages: tuple[str, ...] = ()
    horizon: int | None = None
    actions: tuple[PlannedAction, ...] = ()
    trace: tuple[TraceStep, ...] = ()
    states: tuple[StateTransitions, ...] = ()
    seconds: float = 0.0
    wall_seconds: float = 0.0

    @property
    def found(self) -> bool:
        """Whether an answer set was found."""
        return self.status is ClingoStatus.SAT


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _action(value: Any, step: int | None = None) -> PlannedAction | None:
    if (
        isinstance(value, list)
        and len(value) == 3
        and isinstance(value[0], int)
        and isinstance(value[1], str)
    ):
        flat = tuple(str(v) for v in value[2]) if isinstance(value[2], list) else None
        return PlannedAction(value[0], value[1], flat)
    if isinstance(value, list) and len(value) == 2 and isinstance(value[0], str) and step is not None:
        flat = tuple(str(v) for v in value[1]) if isinstance(value[1], list) else None
        return PlannedAction(step, value[0], flat)
    return None


def _status(value: Any) -> ClingoStatus:
    try:
        return ClingoStatus(value)
    except ValueError:
        return ClingoStatus.CRASHED


def _result(response: dict[str, Any], wall_seconds: float) -> ClingoResult:
    actions = tuple(a for a in map(_action, response.get("actions") or []) if a is not None)
    trace = tuple(
        TraceStep(int(entry.get("step", 0)), _strings(entry.get("holds")), _strings(entry.get("actions")))
        for entry in response.get("trace") or []
        if isinstance(entry, dict)
    )
    states = []
    for entry in response.get("states") or []:
        if not isinstance(entry, dict):
            continue
        transitions = tuple(
            Transition(
                tuple(a for a in (_action(v, 1) for v in t.get("actions") or []) if a is not None),
                tuple(
                    (a.term, a.flat) for a in (_action(v, 1) for v in t.get("holds") or []) if a is not None
                ),
            )
            for t in entry.get("transitions") or []
            if isinstance(t, dict)
        )
        states.append(
            StateTransitions(
                bool(entry.get("accepted")),
                _status(entry.get("status")),
                transitions,
                bool(entry.get("truncated")),
            )
        )
    horizon = response.get("horizon")
    seconds = response.get("seconds")
    return ClingoResult(
        status=_status(response.get("status")),
        messages=_strings(response.get("messages")),
        horizon=horizon if isinstance(horizon, int) else None,
        actions=actions,
        trace=trace,
        states=tuple(states),
        seconds=float(seconds) if isinstance(seconds, (int, float)) else 0.0,
        wall_seconds=wall_seconds,
    )


def request_key(request: dict[str, Any], memory_bytes: int) -> str:
    """``clingo/<mode>/<encoding digest>/<digest of the whole request and the memory limit>``:
    everything that decides a clingo run's outcome (texts, horizons, time limit, options)."""
    whole = json.dumps({"request": request, "memory_bytes": memory_bytes}, sort_keys=True)
    return f"clingo/{request.get('mode')}/{digest(str(request.get('encoding', '')))}/{digest(whole)}"


@dataclass(frozen=True)
class Clingo:
    """clingo behind genplan's policy and isolation.

    Attributes:
        memory_bytes: address-space limit of each child process.
        observations: where responses are recorded and reused (self-revision's checks), or
            ``None`` to run clingo on every call (evaluation).
    """

    memory_bytes: int = DEFAULT_MEMORY_BYTES
    observations: Observations | None = field(default=None, compare=False, repr=False)

    def _run(
        self, request: dict[str, Any], untrusted: Sequence[tuple[str, str]], *, observe: bool = True
    ) -> ClingoResult:
        violations = [
            violation.describe(name) for name, text in untrusted for violation in policy_violations(text)
        ]
        if violations:
            return ClingoResult(ClingoStatus.REJECTED, tuple(violations))

        def solve() -> dict[str, Any]:
            started = time.monotonic()
            response = run_isolated(request, memory_bytes=self.memory_bytes)
            return {"response": response, "wall_seconds": time.monotonic() - started}

        if self.observations is None or not observe:
            outcome = solve()
        else:
            outcome = self.observations.get(request_key(request, self.memory_bytes), solve)
        response, wall_seconds = outcome.get("response"), outcome.get("wall_seconds")
        return _result(
            response if isinstance(response, dict) else {},
            float(wall_seconds) if isinstance(wall_seconds, (int, float)) else 0.0,
        )

    def plan(
        self,
        encoding: str,
        facts: str,
        *,
        query: str | None = None,
        max_horizon: int,
        time_limit: float,
        growth: float = 1.0,
        distinct: bool = False,
        trace: bool = False,
    ) -> ClingoResult:
        """Search for a plan, horizon 0, 1, 2, ... (times ``growth`` when above 1) up to ``max_horizon``.

        Args:
            encoding: the model's encoding (untrusted).
            facts: genplan's facts (trusted), e.g. :func:`~genplan.approaches.asp.interface.problem_facts`.
            query: untrusted facts and rules added to base (a task's main query).
            max_horizon: the largest horizon tried.
            time_limit: seconds for the whole search.
            growth: horizon growth factor; 1 tries every horizon, so the plan has the fewest steps.
            distinct: no state may repeat along the plan (see ``FRAME_DISTINCT``).
            trace: also return the states along the plan.
        """
        request = {
            "mode": "plan",
            "encoding": encoding,
            "facts": facts,
            "query": query,
            "horizon": max_horizon,
            "time_limit": time_limit,
            "growth": growth,
            "distinct": distinct,
            "trace": trace,
        }
        return self._run(request, [("encoding", encoding), ("query", query or "")])

    def query(
        self, encoding: str, facts: str, query: str, *, horizon: int, time_limit: float
    ) -> ClingoResult:
        """Is there an answer set with ``horizon`` steps, the encoding, ``facts`` and ``query``
        (an untrusted text added to base, grounded with every step)? Its states come back as a trace."""
        request = {
            "mode": "query",
            "encoding": encoding,
            "facts": facts,
            "query": query,
            "horizon": horizon,
            "time_limit": time_limit,
        }
        return self._run(request, [("encoding", encoding), ("query", query)])

    def satisfiability(
        self, encoding: str, facts: str, *, candidates: str = "", time_limit: float
    ) -> ClingoResult:
        """LLM+AL's satisfiability check: the encoding without a query (horizon 1, zero or one
        action, no goal) and an initial state chosen among ``candidates``' ``init``/``goal`` atoms."""
        request = {
            "mode": "satisfiability",
            "encoding": encoding,
            "facts": facts,
            "candidates": candidates,
            "time_limit": time_limit,
        }
        return self._run(request, [("encoding", encoding), ("candidates", candidates)])

    def successors(
        self, encoding: str, facts: str, states: Sequence[str], *, time_limit: float, max_models: int = 1000
    ) -> ClingoResult:
        """For each state (``init`` facts), whether the encoding accepts it and every
        one-action transition it allows (see :class:`StateTransitions`). Never recorded as an
        observation: the response holds every transition (megabytes); the successor check records
        its verdict instead (:meth:`~genplan.approaches.asp.checks.Checks.successors`)."""
        request = {
            "mode": "successors",
            "encoding": encoding,
            "facts": facts,
            "states": list(states),
            "time_limit": time_limit,
            "max_models": max_models,
        }
        return self._run(request, [("encoding", encoding)], observe=False)
