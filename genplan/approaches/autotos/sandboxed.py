"""Calling a trusted harness on the model's program in the sandbox, as AutoToS needs it.

Every call of model-written code goes through :func:`genplan.sandbox.run_untrusted`: the program
is compiled under the sandbox policy in a confined child of an isolated worker, one of
:mod:`genplan.approaches.autotos.harness`'s functions runs on its namespace, and only JSON comes
back. :func:`sandbox_runner` binds the run's limits; :func:`run_in_process` does the same work in
the calling process, for tests of the protocol that need no isolation (never for a real model's
code).
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from genplan.sandbox import Limits, PolicyViolation, RunStatus, compile_program, run_untrusted
from genplan.sandbox.runtime import new_program_module
from genplan.sandbox.tracebacks import format_exception


@dataclass(frozen=True)
class HarnessOutcome:
    """How one harness call ended.

    Attributes:
        status: ``success`` (``value`` holds the harness's JSON result), ``raised`` (the
            program's top level or compilation failed: ``traceback``), ``timed-out`` (the whole
            call ran past its budget) or ``crashed`` (memory, a signal, an oversized result:
            ``reason``).
        value: the harness's result.
        seconds: wall-clock seconds of the call.
        traceback: the paper-style traceback for ``raised``.
        reason: a person-readable reason for ``crashed`` and ``timed-out``.
    """

    status: str
    value: Any = None
    seconds: float = 0.0
    traceback: str | None = None
    reason: str | None = None


HarnessRunner = Callable[[str, str, list[Any], float], HarnessOutcome]
"""``runner(source, "genplan.module:function", args, timeout) -> HarnessOutcome``."""

_STATUS = {
    RunStatus.SUCCESS: "success",
    RunStatus.RAISED: "raised",
    RunStatus.TIMED_OUT: "timed-out",
    RunStatus.CRASHED: "crashed",
    RunStatus.BAD_OUTPUT: "crashed",
}


def sandbox_runner(limits: Limits) -> HarnessRunner:
    """A runner that sends every call through the sandbox with ``limits`` (isolation included).

    The runner never raises for anything the program does; it raises
    :class:`genplan.sandbox.IsolationUnavailable` when no sandbox worker can start.
    """

    def run(source: str, harness: str, args: list[Any], timeout: float) -> HarnessOutcome:
        outcome = run_untrusted(source, harness, args, timeout=timeout, limits=limits)
        return HarnessOutcome(
            status=_STATUS[outcome.status],
            value=outcome.value if outcome.status is RunStatus.SUCCESS else None,
            seconds=outcome.seconds,
            traceback=outcome.traceback,
            reason=outcome.reason,
        )

    return run


def run_in_process(source: str, harness: str, args: list[Any], timeout: float) -> HarnessOutcome:
    """What :func:`sandbox_runner`'s runner does, in the calling process (tests only: no
    isolation, no overall budget; the main thread only, as the harness times component calls
    with ``SIGPROF``)."""
    module_name, _, function_name = harness.partition(":")
    function = getattr(importlib.import_module(module_name), function_name)
    started = time.perf_counter()
    try:
        code = compile_program(source)
        module = new_program_module()
        exec(code, module.__dict__)
    except (SyntaxError, PolicyViolation, Exception) as error:
        return HarnessOutcome(
            "raised", seconds=time.perf_counter() - started, traceback=format_exception(error, source)
        )
    value = function(module.__dict__, *json.loads(json.dumps(args)))
    return HarnessOutcome("success", json.loads(json.dumps(value)), time.perf_counter() - started)
