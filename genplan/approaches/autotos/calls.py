"""Calling the model's search components under the checks of AutoToS (Cao et al., AAAI 2025, Sec. 4.4).

:class:`Components` wraps the model's ``successor_states`` and ``is_goal``: every call gets its
own copies of its inputs and a limit (the paper's 1 s, of CPU time: see :class:`CallLimiter`), and what
comes back is hostile until checked: a ``list`` (or ``tuple``, or a generator) of ``set`` or
``frozenset`` of non-empty ``tuple`` of exact ``str``, at most :data:`MAX_SUCCESSORS` of them;
``is_goal`` returns exactly a ``bool``. The input state must be unchanged after the call. Any
failure raises :class:`ComponentFailure`, whose JSON report carries the category and evidence.

Trusted code, run inside the sandbox child by :mod:`genplan.approaches.autotos.harness`.
"""

from __future__ import annotations

import gc
import signal
import types
from collections.abc import Callable, Mapping
from typing import Any

from genplan.approaches.autotos.categories import ErrorCategory
from genplan.approaches.autotos.states import State, state_to_json
from genplan.sandbox.tracebacks import format_exception

MAX_SUCCESSORS = 100_000
"""Successors one call may return before the output counts as malformed."""
REPR_CAP = 600

SUCCESSOR_USAGE = "successor_states(state, objects)"
GOAL_USAGE = "is_goal(state, goal)"


class ComponentFailure(Exception):
    """A component failed a test; ``data`` is the JSON report (``category`` and evidence)."""

    def __init__(self, category: ErrorCategory, **evidence: Any):
        super().__init__(category.value)
        self.data = {"category": category.value, **evidence}


class _CallTimeout(BaseException):
    """Raised inside a component call whose time limit ran out."""


class CallLimiter:
    """Runs one component call under a limit of CPU seconds (``ITIMER_PROF``, ``SIGPROF``).

    CPU time rather than wall-clock time, so that a call is not cut short because other
    processes share the machine (the searches of several problems run at once): the paper's
    1 s limit separates functions that take milliseconds from loops and blow-ups.

    A call that swallows the interrupt still counts as timed out: the handler sets a flag.
    """

    def __init__(self) -> None:
        self.fired = False
        self._previous = signal.signal(signal.SIGPROF, self._handler)

    def _handler(self, signum: int, frame: object) -> None:
        self.fired = True
        raise _CallTimeout

    def run(self, thunk: Callable[[], Any], seconds: float) -> tuple[str, Any]:
        """``("ok", value)``, ``("timeout", None)`` or ``("raised", exception)``.

        Raises:
            MemoryError: the process ran out of memory during the call.
        """
        self.fired = False
        try:
            try:
                signal.setitimer(signal.ITIMER_PROF, seconds)
                value = thunk()
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
        except _CallTimeout:
            return "timeout", None
        except MemoryError:
            raise  # the search's memory ran out, not (only) the call's: the caller decides
        except Exception as error:
            return ("timeout", None) if self.fired else ("raised", error)
        return ("timeout", None) if self.fired else ("ok", value)

    def close(self) -> None:
        """Stop the timer and restore the previous SIGPROF handler."""
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, self._previous)


def capped_repr(value: object) -> str:
    """``repr(value)`` cut to :data:`REPR_CAP` characters, safe against a broken ``__repr__``."""
    try:
        text = repr(value)
    except Exception as error:
        text = f"<unprintable {type(value).__name__}: {type(error).__name__}>"
    return text if len(text) <= REPR_CAP else text[:REPR_CAP] + " ..."


def atoms_ok(state: frozenset[Any]) -> Any:
    """The first item of ``state`` that is not a non-empty tuple of exact strings, or ``None``."""
    for atom in state:
        if type(atom) is not tuple or not atom or any(type(part) is not str for part in atom):
            return atom
    return None


class Components:
    """The model's ``successor_states`` and ``is_goal``, called under the checks of Sec. 4.4.

    While it is open, Python's cyclic garbage collector is off: a search holds millions of
    states (frozensets of tuples of strings, which form no cycles), and a full collection
    running inside a component call would be charged to that call's 1 s. Memory stays bounded
    by the sandbox's limit.

    Args:
        namespace: the compiled program's globals.
        source: the program's source (for tracebacks in its own line numbers).
        objects: the ``objects`` argument of ``successor_states``.
        call_seconds: the limit of one call (the paper's 1 s).
    """

    def __init__(
        self, namespace: Mapping[str, Any], source: str, objects: frozenset[Any], call_seconds: float
    ):
        self.successor_function = namespace.get("successor_states")
        self.goal_function = namespace.get("is_goal")
        self.source = source
        self.objects = objects
        self.call_seconds = call_seconds
        self.limiter = CallLimiter()
        self.successor_calls = 0
        self.goal_calls = 0
        self._collecting = gc.isenabled()
        gc.disable()

    def close(self) -> None:
        """Restore the signal handler and the garbage collector."""
        self.limiter.close()
        if self._collecting:
            gc.enable()

    def _traceback(self, error: BaseException) -> str:
        return format_exception(error, self.source)

    def successors(
        self, state: State, *, check_mutation: bool = True, check_atoms: bool = True
    ) -> list[State]:
        """``successor_states(state, objects)`` on a copy of ``state``, as frozensets.

        Raises:
            ComponentFailure: exception, time-out, malformed output or a changed input.
        """
        function = self.successor_function
        if not callable(function):
            raise ComponentFailure(
                ErrorCategory.SUCCESSOR_EXCEPTION,
                state=state_to_json(state),
                traceback=f"NameError: name 'successor_states' is not defined: define {SUCCESSOR_USAGE}",
            )
        given = set(state)

        def call() -> Any:
            value = function(given, self.objects)
            return list(value) if isinstance(value, types.GeneratorType) else value

        self.successor_calls += 1
        status, value = self.limiter.run(call, self.call_seconds)
        if status == "timeout":
            raise ComponentFailure(
                ErrorCategory.SUCCESSOR_TIMEOUT, state=state_to_json(state), seconds=self.call_seconds
            )
        if status == "raised":
            raise ComponentFailure(
                ErrorCategory.SUCCESSOR_EXCEPTION,
                state=state_to_json(state),
                traceback=self._traceback(value),
            )
        if type(value) not in (list, tuple):
            raise ComponentFailure(
                ErrorCategory.SUCCESSOR_BAD_OUTPUT,
                state=state_to_json(state),
                reason=f"successor_states must return a list of states, but it returned a {type(value).__name__}",
                got=capped_repr(value),
            )
        if len(value) > MAX_SUCCESSORS:
            raise ComponentFailure(
                ErrorCategory.SUCCESSOR_BAD_OUTPUT,
                state=state_to_json(state),
                reason=f"successor_states returned {len(value)} states, more than {MAX_SUCCESSORS}",
            )
        results: list[State] = []
        for item in value:
            if type(item) is frozenset:
                successor = item
            elif type(item) is set:
                successor = frozenset(item)
            else:
                raise ComponentFailure(
                    ErrorCategory.SUCCESSOR_BAD_OUTPUT,
                    state=state_to_json(state),
                    reason="each successor state must be a set (or frozenset) of ground atoms, but one is a "
                    + type(item).__name__,
                    got=capped_repr(item),
                )
            if check_atoms:
                bad = atoms_ok(successor)
                if bad is not None:
                    raise ComponentFailure(
                        ErrorCategory.SUCCESSOR_BAD_OUTPUT,
                        state=state_to_json(state),
                        reason="each ground atom must be a tuple of strings, predicate first, but a successor "
                        f"state contains {capped_repr(bad)}",
                    )
            results.append(successor)
        if check_mutation and given != state:
            raise ComponentFailure(
                ErrorCategory.INPUT_CHANGED,
                state=state_to_json(state),
                removed=state_to_json(state - given),
                added=[capped_repr(a) for a in sorted(given - state, key=repr)][:20],
            )
        return results

    def is_goal(self, state: State, goal: frozenset[Any]) -> bool:
        """``is_goal(state, goal)`` on copies.

        Raises:
            ComponentFailure: exception, time-out, or a result that is not a bool.
        """
        function = self.goal_function
        if not callable(function):
            raise ComponentFailure(
                ErrorCategory.GOAL_EXCEPTION,
                state=state_to_json(state),
                goal=state_to_json(goal),
                traceback=f"NameError: name 'is_goal' is not defined: define {GOAL_USAGE}",
            )
        given_state, given_goal = set(state), set(goal)
        self.goal_calls += 1
        status, value = self.limiter.run(lambda: function(given_state, given_goal), self.call_seconds)
        if status == "ok" and type(value) is bool:
            return value
        evidence = {"state": state_to_json(state), "goal": state_to_json(goal)}
        if status == "timeout":
            raise ComponentFailure(ErrorCategory.GOAL_TIMEOUT, seconds=self.call_seconds, **evidence)
        if status == "raised":
            raise ComponentFailure(ErrorCategory.GOAL_EXCEPTION, traceback=self._traceback(value), **evidence)
        raise ComponentFailure(
            ErrorCategory.GOAL_BAD_OUTPUT,
            reason=f"is_goal must return True or False, but it returned a {type(value).__name__}",
            got=capped_repr(value),
            **evidence,
        )
