"""The trusted harnesses that run the model's heuristic inside the sandbox child.

The model's program defines ``make_heuristic(objects, init, goal)`` (:data:`FACTORY`), which gets
a problem once and returns ``h(state)``. Each harness call compiles the program in a confined
child (:func:`genplan.sandbox.run_untrusted`), builds the problem from JSON, calls the factory
and then ``h`` in the child itself, so a search makes no round trip to genplan's process per
state:

* :func:`values` calls ``h`` on given states of a few problems (the candidate check and the
  properties of :mod:`genplan.approaches.heuristic.probes`);
* :func:`search` runs greedy best-first search (:func:`~genplan.approaches.heuristic.gbfs.gbfs`)
  over genplan's successor generator, rebuilt from JSON, with ``h`` as its heuristic.

Everything the program hands back is hostile: ``h``'s value must be an exact ``int`` or
``float`` (never a ``bool``), not NaN, and >= 0 (``math.inf`` marks a dead end); anything else
stops with a message naming the value's type and its ``repr``, capped. A time limit covers the
factory and the search (``ITIMER_REAL``: a ``h`` that never returns is interrupted; one that
swallows the interrupt is stopped by the sandbox's own budget), the search stops at a number of
states, and the sandbox's memory limit ends it as ``search-memory``. Only JSON comes back.
"""

from __future__ import annotations

import gc
import math
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import FrameType
from typing import Any

from genplan.approaches.heuristic.gbfs import (
    HeuristicError,
    SearchInterrupted,
    SearchResult,
    SearchStatus,
    State,
    gbfs,
    json_number,
)
from genplan.pddl.domain import Atom
from genplan.plans.shape import capped_repr
from genplan.plans.successors import SuccessorGenerator
from genplan.sandbox.harness import set_from_json
from genplan.sandbox.tracebacks import format_exception

FACTORY = "make_heuristic"
"""The function the model's program defines."""
FACTORY_USAGE = "make_heuristic(objects, init, goal)"

VALUE_REPR_CAP = 200
"""Characters of a wrong value's ``repr`` kept in a message."""


class HeuristicFailure(Exception):
    """The factory could not make a heuristic: ``kind`` (``factory-error`` or ``not-callable``)
    and ``message`` go into the harness's report."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind, self.message = kind, message


class _Alarm:
    """A wall-clock time limit (``ITIMER_REAL``) that raises :class:`SearchInterrupted` wherever
    the process is, the model's ``h`` included; :attr:`fired` stays set if ``h`` swallows it.
    Main thread only (the sandbox child's harness, or a test's)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.fired = False

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        self.fired = True
        raise SearchInterrupted

    def __enter__(self) -> _Alarm:
        self._previous = signal.signal(signal.SIGALRM, self._handler)
        signal.setitimer(signal.ITIMER_REAL, max(self.seconds, 1e-3))
        return self

    def __exit__(self, *exc: object) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._previous)


def bad_value(value: object) -> str:
    """Why ``value`` is not a heuristic value, for the record (the value's text capped)."""
    kind = type(value)
    if isinstance(value, float) and kind is float and math.isnan(value):
        return "h returned nan, not a number >= 0"
    if isinstance(value, (int, float)) and (kind is int or kind is float):
        return f"h returned {json_number(value)}, not a number >= 0"
    return f"h returned a {kind.__name__} ({capped_repr(value, VALUE_REPR_CAP)}), not an int or float"


def checked_heuristic(
    h: Callable[[State], Any], source: str, alarm: _Alarm | None = None
) -> Callable[[State], float]:
    """``h`` whose every value is checked: an exact ``int`` or ``float``, >= 0 (not NaN).

    Raises (from the returned function):
        HeuristicError: ``h`` raised an ``Exception`` (its traceback in the program's lines) or
            returned anything else.
        MemoryError: the process ran out of memory during the call (the search stops as
            ``search-memory``).
        SearchInterrupted: the alarm fired during the call (also when ``h`` swallowed it).
    """

    def call(state: State) -> float:
        try:
            value = h(state)
        except MemoryError:
            raise  # the search's memory is full, whoever asked last: search-memory
        except Exception as error:
            if alarm is not None and alarm.fired:
                raise SearchInterrupted from None
            raise HeuristicError(f"h raised an exception:\n{format_exception(error, source)}") from None
        if alarm is not None and alarm.fired:
            raise SearchInterrupted
        kind = type(value)
        if (kind is int or kind is float) and value >= 0:
            return value  # type: ignore[no-any-return]
        raise HeuristicError(bad_value(value))

    return call


def make_heuristic(
    namespace: Mapping[str, Any], source: str, task: Mapping[str, Any]
) -> Callable[[State], Any]:
    """The program's ``h`` for ``task`` (``objects``, ``init``, ``goal`` as JSON), from the factory
    called with sets of its own.

    Raises:
        HeuristicFailure: no factory, the factory raised, or it returned something not callable.
    """
    factory = namespace.get(FACTORY)
    if not callable(factory):
        raise HeuristicFailure("factory-error", f"the program defines no function {FACTORY_USAGE}")
    arguments = [set_from_json(task[part]) for part in ("objects", "init", "goal")]
    try:
        h = factory(*arguments)
    except Exception as error:
        raise HeuristicFailure(
            "factory-error", f"{FACTORY} raised an exception:\n{format_exception(error, source)}"
        ) from None
    if not callable(h):
        raise HeuristicFailure(
            "not-callable",
            f"{FACTORY} returned a {type(h).__name__} ({capped_repr(h, VALUE_REPR_CAP)}), not a function h(state)",
        )
    return h


def _atoms(items: list[list[str]]) -> frozenset[Atom]:
    return frozenset(tuple(str(part) for part in item) for item in items)


def values(
    namespace: dict[str, Any], source: str, probes: list[dict[str, Any]], seconds: float
) -> dict[str, Any]:
    """``h`` of the program on given states of a few problems.

    Args:
        probes: ``{"objects", "init", "goal", "states"}`` each: a problem's factory arguments as
            JSON and the states (fluent atoms as lists of strings) to evaluate.
        seconds: the time limit of the whole call.

    Returns:
        ``{"values": [[value, ...], ...], "failure": None}`` (values as :func:`json_number`), or the
        values so far and ``"failure": {"kind", "message", "probe", "state"}`` for the first failure
        (``kind``: ``factory-error``, ``not-callable``, ``heuristic-error``, ``timeout``; ``state``
        is ``None`` for the factory's).
    """
    found: list[list[Any]] = []
    where: dict[str, int | None] = {"probe": 0, "state": None}
    try:
        with _Alarm(seconds) as alarm:
            for index, task in enumerate(probes):
                where.update(probe=index, state=None)
                h = checked_heuristic(make_heuristic(namespace, source, task), source, alarm)
                found.append([])
                for state_index, state in enumerate(task["states"]):
                    where["state"] = state_index
                    found[-1].append(json_number(h(_atoms(state))))
        return {"values": found, "failure": None}
    except HeuristicFailure as failure:
        kind, message = failure.kind, failure.message
    except HeuristicError as error:
        kind, message = "heuristic-error", error.message
    except SearchInterrupted:
        kind, message = "timeout", f"the heuristic did not answer within {seconds:g} s"
    return {"values": found, "failure": {"kind": kind, "message": message, **where}}


def search(
    namespace: dict[str, Any], source: str, task: dict[str, Any], options: dict[str, Any]
) -> dict[str, Any]:
    """Greedy best-first search on one problem with the program's heuristic.

    Args:
        task: ``generator`` (:meth:`SuccessorGenerator.to_json`, with the static atoms),
            ``objects``, ``init`` and ``goal`` (the factory's arguments, as JSON).
        options: ``seconds`` (the time limit of the factory and the search together) and
            ``max_states`` (0: no cap).

    Returns:
        :meth:`SearchResult.to_json`; status ``factory-error`` or ``not-callable`` (zero counts)
        when the factory failed. ``plan-found`` leaves the plan to be checked by the caller.
    """
    seconds = float(options["seconds"])
    deadline = time.monotonic() + seconds
    generator = SuccessorGenerator.from_json(task["generator"])
    goal = _atoms(task["goal"])
    fluent_goal = generator.fluent(goal)
    init = generator.fluent(_atoms(task["init"]))
    nothing = SearchResult(SearchStatus.TIMEOUT, None, 0, 0, 0)
    collecting = gc.isenabled()
    gc.disable()  # states are frozensets of tuples of strings, which form no cycles; a full
    # collection amid millions of states would cost seconds
    try:
        with _Alarm(seconds) as alarm:
            try:
                h = checked_heuristic(make_heuristic(namespace, source, task), source, alarm)
            except HeuristicFailure as failure:
                return {**nothing.to_json(), "status": failure.kind, "message": failure.message}
            except SearchInterrupted:
                return {**nothing.to_json(), "message": f"{FACTORY} did not return within {seconds:g} s"}
            if not goal - fluent_goal <= (generator.static_atoms or frozenset()):
                unsolvable = replace(nothing, status=SearchStatus.EXHAUSTED)
                return {**unsolvable.to_json(), "message": "the goal holds a static fact that is false"}
            max_states = int(options.get("max_states") or 0)
            result = gbfs(
                generator.successors, init, fluent_goal, h, deadline=deadline, max_states=max_states
            )
    finally:
        if collecting:
            gc.enable()
    if result.status is SearchStatus.TIMEOUT:
        result = replace(result, message=f"the time limit of {seconds:g} s ran out")
    return result.to_json()
