"""Calling a trusted harness on the model's program in the sandbox, as AutoToS needs it.

:func:`run_harness` compiles the program under the sandbox policy in a child process with
resource limits and calls one of :mod:`genplan.approaches.autotos.harness`'s functions on its
namespace; only JSON comes back. :func:`run_in_process` does the same in the calling process
for tests of the protocol that need no isolation (never for a real model's code).
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import multiprocess

from genplan.sandbox.policy import PolicyViolation, compile_program, new_program_module
from genplan.sandbox.tracebacks import format_exception

GIB = 1024**3
MAX_RESULT_BYTES = 64 * 1024**2
GRACE_SECONDS = 5.0


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


def _harness(name: str) -> Callable[..., Any]:
    module_name, _, function_name = name.partition(":")
    if not module_name.startswith("genplan.") or not function_name:
        raise ValueError(f"a harness must be named 'genplan.<module>:<function>', not {name!r}")
    return getattr(importlib.import_module(module_name), function_name)


def _call(source: str, harness: str, args: list[Any]) -> tuple[str, Any]:
    """Compile ``source``, run its top level, call the harness: ``("success", value)`` or
    ``("raised", traceback)``."""
    function = _harness(harness)
    try:
        code = compile_program(source)
        module = new_program_module()
        exec(code, module.__dict__)
    except (SyntaxError, PolicyViolation, Exception) as error:
        return "raised", format_exception(error, source)
    return "success", function(module.__dict__, *args)


def run_in_process(source: str, harness: str, args: list[Any], timeout: float) -> HarnessOutcome:
    """:func:`run_harness` without a child process (tests only: no isolation, no overall budget;
    the main thread only, as the harness times component calls with ``SIGPROF``)."""
    started = time.perf_counter()
    status, value = _call(source, harness, json.loads(json.dumps(args)))
    seconds = time.perf_counter() - started
    if status == "raised":
        return HarnessOutcome("raised", seconds=seconds, traceback=value)
    return HarnessOutcome("success", json.loads(json.dumps(value)), seconds)


def _limit(kind: int, value: int) -> None:
    try:
        _soft, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(kind, (value, value))
    except (ValueError, OSError):
        pass


def _child(connection: Any, source: str, harness: str, args: list[Any], timeout: float) -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    devnull = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(devnull, descriptor)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the child exits below
    _limit(resource.RLIMIT_AS, 2 * GIB)
    _limit(resource.RLIMIT_CPU, int(timeout) + 10)
    _limit(resource.RLIMIT_FSIZE, 0)
    _limit(resource.RLIMIT_CORE, 0)
    try:
        status, value = _call(source, harness, args)
        message = {"status": status, "value" if status == "success" else "traceback": value}
    except MemoryError:
        message = {"status": "crashed", "reason": "the process ran out of memory (limit 2 GiB)"}
    except BaseException as error:
        message = {"status": "raised", "traceback": format_exception(error, source)}
    try:
        body = json.dumps(message).encode()
        if len(body) > MAX_RESULT_BYTES:
            body = json.dumps({"status": "crashed", "reason": "the result was too large"}).encode()
        connection.send_bytes(body)
    except BaseException:
        os._exit(3)
    os._exit(0)


def run_harness(source: str, harness: str, args: list[Any], timeout: float) -> HarnessOutcome:
    """Call ``harness(namespace, *args)`` on ``source`` compiled under the sandbox policy, in a
    forked child with limits (2 GiB address space, CPU seconds, no file writes).

    Args:
        source: the model's program.
        harness: ``"genplan.module:function"``.
        args: JSON arguments.
        timeout: seconds before the child is interrupted, then killed after a grace period.

    Returns:
        A :class:`HarnessOutcome`; never raises for anything the program does.
    """
    args = json.loads(json.dumps(args))
    context = multiprocess.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sender, source, harness, args, timeout), daemon=True)
    started = time.perf_counter()
    process.start()
    sender.close()
    body: bytes | None = None
    try:
        if receiver.poll(timeout) or (
            process.is_alive() and _interrupt(process.pid) and receiver.poll(GRACE_SECONDS)
        ):
            body = receiver.recv_bytes(MAX_RESULT_BYTES + 1024)
    except (EOFError, OSError):
        body = None
    finally:
        if process.is_alive():
            process.kill()
        process.join(5)
        receiver.close()
    seconds = time.perf_counter() - started
    if body is None:
        if seconds >= timeout:
            return HarnessOutcome(
                "timed-out", seconds=seconds, reason=f"the call ran past its {timeout:g} s budget"
            )
        return HarnessOutcome(
            "crashed", seconds=seconds, reason=f"the process died (exit code {process.exitcode})"
        )
    try:
        message = json.loads(body)
    except ValueError:
        return HarnessOutcome("crashed", seconds=seconds, reason="the child sent a malformed result")
    status = message.get("status")
    if status == "success":
        return HarnessOutcome("success", message.get("value"), seconds)
    if status == "raised":
        text = message.get("traceback")
        if isinstance(text, str) and "KeyboardInterrupt" in text.splitlines()[-1]:
            return HarnessOutcome(
                "timed-out", seconds=seconds, reason=f"the call ran past its {timeout:g} s budget"
            )
        return HarnessOutcome("raised", seconds=seconds, traceback=text if isinstance(text, str) else None)
    return HarnessOutcome("crashed", seconds=seconds, reason=str(message.get("reason")))


def _interrupt(pid: int) -> bool:
    try:
        os.kill(pid, signal.SIGINT)
    except OSError:
        return False
    return True
