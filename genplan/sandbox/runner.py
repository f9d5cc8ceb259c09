"""Running one untrusted program on one problem in a child process (Sec. 4.2).

The child is forked (``multiprocess``, fork start method: a few milliseconds), lowers its own
limits (address space, CPU seconds, file size 0, stdin closed, output captured with a cap),
compiles the program under the sandbox policy and calls ``get_plan`` on copies of the inputs.
When the budget runs out the parent sends SIGINT, which raises ``KeyboardInterrupt`` inside
the program, and the child reports where it was interrupted; a child that does not answer
within a grace period (a long C-level call, or a program that swallows the interrupt) is
killed, and the outcome says so.

Defence in depth: no ``os``, ``subprocess``, ``socket`` or ``open`` is reachable from the
program (the policy), and even so the child cannot write files (RLIMIT_FSIZE = 0) or grow
past its address-space limit. RLIMIT_NPROC is set to the current count where it applies (it
does not bind root).
"""

from __future__ import annotations

import math
import os
import resource
import signal
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import multiprocess

from genplan.plans.shape import capped_repr, output_shape_error
from genplan.sandbox.outcome import RunOutcome, RunStatus
from genplan.sandbox.policy import PolicyViolation, compile_program, new_program_module
from genplan.sandbox.tracebacks import format_exception

GIB = 1024**3


@dataclass(frozen=True)
class Limits:
    """Resource limits of a sandboxed run.

    Attributes:
        address_space_bytes: RLIMIT_AS of the child (default 2 GiB).
        cpu_seconds: RLIMIT_CPU of the child; ``None`` means the time budget plus 5 s.
        max_output_bytes: what the program may print before it is stopped (default 1 MiB).
        recursion_limit: Python recursion limit in the child.
        grace_seconds: how long a child may take to answer the interrupt before it is killed.
    """

    address_space_bytes: int = 2 * GIB
    cpu_seconds: int | None = None
    max_output_bytes: int = 1024 * 1024
    recursion_limit: int = 10_000
    grace_seconds: float = 2.0


class _OutputLimitExceeded(BaseException):
    """Raised inside the child when the program prints more than allowed."""


class _CappedWriter:
    """A text stream that keeps at most ``cap`` characters, then stops the program."""

    def __init__(self, cap: int):
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.exceeded = False

    def write(self, text: str) -> int:
        self.size += len(text)
        if self.size > self.cap:
            self.exceeded = True
            raise _OutputLimitExceeded
        self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def getvalue(self) -> str:
        return "".join(self.parts)


def _apply_limits(limits: Limits, timeout: float) -> None:
    def lower(kind: int, value: int) -> None:
        try:
            _soft, hard = resource.getrlimit(kind)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(kind, (value, value))
        except (ValueError, OSError):
            pass

    lower(resource.RLIMIT_AS, limits.address_space_bytes)
    lower(resource.RLIMIT_CPU, limits.cpu_seconds or math.ceil(timeout) + 5)
    lower(resource.RLIMIT_FSIZE, 0)
    lower(resource.RLIMIT_CORE, 0)
    if hasattr(resource, "RLIMIT_NPROC"):
        lower(resource.RLIMIT_NPROC, 0)


def _child(
    connection: Any, source: str, inputs: tuple[Any, Any, Any], limits: Limits, timeout: float
) -> None:
    """Body of the child process: never returns, always exits with ``os._exit``."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    writer = _CappedWriter(limits.max_output_bytes)
    message: dict[str, Any]
    started = time.perf_counter()
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        for descriptor in (0, 1, 2):
            os.dup2(devnull, descriptor)
        sys.stdin = None  # type: ignore[assignment]
        sys.stdout = sys.stderr = writer  # type: ignore[assignment]
        _apply_limits(limits, timeout)
        sys.setrecursionlimit(limits.recursion_limit)
        try:
            code = compile_program(source)
        except (SyntaxError, PolicyViolation) as error:
            message = {"status": RunStatus.RAISED, "traceback": format_exception(error, source)}
        else:
            module = new_program_module()
            exec(code, module.__dict__)
            get_plan = module.__dict__.get("get_plan")
            if not callable(get_plan):
                raise NameError(
                    "name 'get_plan' is not defined: the program must define get_plan(objects, init, goal)"
                )
            objects, init, goal = inputs
            started = time.perf_counter()
            value = get_plan(set(objects), set(init), set(goal))
            seconds = time.perf_counter() - started
            problem = output_shape_error(value)
            if writer.exceeded:
                raise _OutputLimitExceeded
            if problem is None:
                message = {"status": RunStatus.SUCCESS, "plan": list(value), "seconds": seconds}
            else:
                message = {
                    "status": RunStatus.BAD_OUTPUT,
                    "reason": problem,
                    "output": capped_repr(value),
                    "seconds": seconds,
                }
    except KeyboardInterrupt as error:
        message = {"status": RunStatus.TIMED_OUT, "traceback": format_exception(error, source)}
    except _OutputLimitExceeded:
        message = {
            "status": RunStatus.CRASHED,
            "reason": f"the program printed more than {limits.max_output_bytes} bytes (output limit)",
        }
    except MemoryError as error:
        message = {
            "status": RunStatus.CRASHED,
            "reason": f"the program ran out of memory (limit {limits.address_space_bytes / GIB:g} GiB)",
            "traceback": format_exception(error, source),
        }
    except RecursionError as error:
        trace = format_exception(error, source).splitlines()
        shown = "\n".join([*trace[:7], "  ...", *trace[-3:]]) if len(trace) > 12 else "\n".join(trace)
        message = {
            "status": RunStatus.CRASHED,
            "reason": f"maximum recursion depth ({limits.recursion_limit}) exceeded:\n{shown}",
        }
    except BaseException as error:
        message = {"status": RunStatus.RAISED, "traceback": format_exception(error, source)}
    message.setdefault("seconds", time.perf_counter() - started)
    message["stdout"] = writer.getvalue()[: limits.max_output_bytes]
    try:
        connection.send(message)
    except BaseException:
        os._exit(3)
    os._exit(0)


def _signal_reason(exitcode: int | None) -> str:
    if exitcode is None:
        return "the process did not finish"
    if exitcode < 0:
        number = -exitcode
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        extra = {
            "SIGXCPU": " (CPU time limit exceeded)",
            "SIGKILL": " (killed, possibly for using too much memory)",
            "SIGSEGV": " (segmentation fault, possibly a stack overflow from deep recursion)",
            "SIGXFSZ": " (tried to write a file)",
        }.get(name, "")
        return f"the process was killed by {name}{extra}"
    return f"the process exited with code {exitcode} before returning a result"


def run_program(
    source: str,
    objects: Iterable[Any],
    init: Iterable[Any],
    goal: Iterable[Any],
    *,
    timeout: float = 30.0,
    limits: Limits | None = None,
) -> RunOutcome:
    """Run ``get_plan(objects, init, goal)`` of an untrusted program in a sandboxed child.

    Args:
        source: Python source defining ``get_plan``.
        objects, init, goal: the problem as ``get_plan`` receives it (Sec. 4.1); the program
            gets its own copies.
        timeout: the budget in seconds (the paper's 30 s), counted from the child's start.
        limits: resource limits (defaults: 2 GiB address space, 1 MiB output).

    Returns:
        A :class:`RunOutcome`. Never raises for anything the program does; a compile-time
        policy violation or syntax error is a ``RAISED`` outcome, so it reaches the model as
        exception feedback.
    """
    limits = limits or Limits()
    context = multiprocess.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    inputs = (frozenset(objects), frozenset(init), frozenset(goal))
    process = context.Process(target=_child, args=(sender, source, inputs, limits, timeout), daemon=True)
    started = time.perf_counter()
    process.start()
    sender.close()
    message: dict[str, Any] | None = None
    killed_reason: str | None = None
    try:
        if receiver.poll(timeout):
            message = receiver.recv()
        else:
            if process.is_alive():
                os.kill(process.pid, signal.SIGINT)
            if receiver.poll(limits.grace_seconds):
                message = receiver.recv()
            else:
                killed_reason = (
                    f"the program did not stop within {limits.grace_seconds:g} s of the interrupt sent after "
                    f"the {timeout:g} s budget (for example inside a long C-level call, or it caught the "
                    "interrupt), so it was killed"
                )
    except (EOFError, OSError):
        message = None
    finally:
        if process.is_alive():
            process.kill()
        process.join(5)
        receiver.close()
    elapsed = time.perf_counter() - started
    if killed_reason is not None:
        return RunOutcome(RunStatus.TIMED_OUT, seconds=max(elapsed, timeout), reason=killed_reason)
    if message is None:
        return RunOutcome(RunStatus.CRASHED, seconds=elapsed, reason=_signal_reason(process.exitcode))
    status = message["status"]
    seconds = float(message.get("seconds", elapsed))
    if status is RunStatus.TIMED_OUT:
        seconds = max(seconds, timeout)
    return RunOutcome(
        status=status,
        plan=message.get("plan"),
        seconds=seconds,
        traceback=message.get("traceback"),
        reason=message.get("reason"),
        output=message.get("output"),
        stdout=message.get("stdout", ""),
    )
