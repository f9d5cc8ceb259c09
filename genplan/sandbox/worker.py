"""The sandbox worker: a long-lived process that forks one confined child per run.

Started by :mod:`genplan.sandbox.pool` with ``python -m genplan.sandbox.worker CONFIG`` (inside
bubblewrap unless isolation is off), with a clean environment. It talks to genplan over its
standard input and output in frames (:mod:`genplan.sandbox.channel`):

1. it imports what children will need (the allowed modules, the seccomp binding), then sends
   ``{"ready": true, ...}`` with a report on its isolation;
2. for each request ``{"source", "harness", "args", "timeout", "limits"}`` (whose
   ``limits.hash_seed`` must be the worker's own ``PYTHONHASHSEED``) it imports the harness
   (only from modules under ``genplan.``), compiles the program under the policy once per source
   (:mod:`genplan.sandbox.compiled`: no code of the program runs in the worker), forks a child
   (:func:`run_child`) that runs the program's top level and the harness, reads the
   child's result frame with a cap and a deadline, sends ``SIGINT`` when the budget runs out and
   kills the child's process group after a grace period, and answers one frame
   ``{"status", "value", "seconds", "traceback", "reason", "output", "stdout"}``;
3. it exits at the end of its input.

The child's frame is hostile data: the worker checks every field's type, and decides time-outs
and the run's seconds from its own clock (from the fork to the child's answer: a program that
works at its top level, or claims a smaller time, is still charged for all of it).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

from genplan.sandbox.channel import (
    ChannelError,
    ChannelFault,
    FrameReader,
    encode,
    read_frame,
    write_body,
    write_frame,
)
from genplan.sandbox.child import run_child
from genplan.sandbox.compiled import CompiledPrograms
from genplan.sandbox.confine import prepare_seccomp, seccomp_available
from genplan.sandbox.limits import MIB, Limits
from genplan.sandbox.views import preload_allowed_modules

REQUEST_CAP = 1024 * MIB
"""The largest request the worker reads, in bytes."""

STATUSES = frozenset({"success", "raised", "crashed", "bad-output"})
"""Statuses a child may claim (``timed-out`` is the worker's to decide)."""

TEXT_CAP = 256 * 1024
"""Characters kept of a traceback, reason or output repr."""


def load_harness(path: str) -> Callable[..., Any]:
    """The harness function named ``"genplan.module:function"``.

    Raises:
        ValueError: the path is malformed or outside ``genplan.``, or names no function.
    """
    module_name, _, function_name = path.partition(":")
    if not module_name.startswith("genplan.") or not function_name.isidentifier():
        raise ValueError(f"a harness must be named 'genplan.<module>:<function>', not {path!r}")
    function = getattr(importlib.import_module(module_name), function_name, None)
    if not callable(function):
        raise ValueError(f"{path!r} names no function")
    return function


def _text(value: object) -> str | None:
    return value[:TEXT_CAP] if type(value) is str else None


def _checked_report(report: Any, stdout_cap: int) -> dict[str, Any]:
    """The child's frame as a response, every field of the right type, or ``CRASHED``."""
    if type(report) is not dict or report.get("status") not in STATUSES:
        return {"status": "crashed", "reason": "the run sent a malformed result"}
    seconds = report.get("seconds")
    stdout = report.get("stdout")
    return {
        "status": report["status"],
        "value": report.get("value") if report["status"] == "success" else None,
        "seconds": float(seconds) if type(seconds) is int or type(seconds) is float else None,
        "traceback": _text(report.get("traceback")),
        "reason": _text(report.get("reason")),
        "output": _text(report.get("output")),
        "stdout": stdout[:stdout_cap] if type(stdout) is str else "",
    }


def _signal_reason(status: int | None) -> str:
    if status is None:
        return "the process did not finish"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        extra = {
            "SIGXCPU": " (CPU time limit exceeded)",
            "SIGKILL": " (killed, possibly for using too much memory)",
            "SIGSEGV": " (segmentation fault, possibly a stack overflow from deep recursion)",
            "SIGXFSZ": " (tried to write a file)",
            "SIGSYS": " (a forbidden system call)",
        }.get(name, "")
        return f"the process was killed by {name}{extra}"
    return f"the process exited with code {os.WEXITSTATUS(status)} before returning a result"


def _kill(pid: int) -> None:
    """Kill ``pid``'s process group, and ``pid`` should it have no group yet."""
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(OSError):
            kill(pid, signal.SIGKILL)


def _reap(pid: int, wait_seconds: float) -> int | None:
    """Wait up to ``wait_seconds`` for ``pid`` to exit on its own, then kill its group; the status."""
    end = time.monotonic() + wait_seconds
    status: int | None = None
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done or time.monotonic() >= end:
            break
        time.sleep(0.002)
    _kill(pid)
    if not done:
        _, status = os.waitpid(pid, 0)
        return None if status is None else status
    return status


def serve(
    request: dict[str, Any],
    harness: Callable[..., Any],
    config: dict[str, Any],
    programs: CompiledPrograms | None = None,
    reaped: list[int] | None = None,
) -> dict[str, Any]:
    """Run one request in a forked child; the response frame.

    The program is compiled here, before the fork, once per source (``programs`` keeps the code
    objects; ``None`` compiles in the child); the child runs its top level and the harness. A
    child that answered is killed with its process group at once; with ``reaped`` given, its
    process id is added there instead of waiting for it to exit, and the caller reaps it after
    sending the answer (an exiting process takes milliseconds to tear down) and before the next
    fork.
    """
    limits = Limits(**request["limits"])
    timeout = float(request["timeout"])
    cap = limits.max_result_bytes + 8 * limits.max_output_bytes + 4 * MIB
    started = time.monotonic()  # compiling counts toward the run's budget, as in the child
    code = programs.code(request["source"]) if programs is not None else None
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns
        os.close(read_end)
        drop = config.get("drop_to")
        run_child(request, harness, write_end, tuple(drop) if drop else None, config["require_seccomp"], code)
    os.close(write_end)
    reader = FrameReader(read_end, cap, limits.max_result_values + 64)
    interrupted = killed = False
    problem: ChannelError | None = None
    try:
        while not reader.done:
            now = time.monotonic()
            limit = started + timeout + (limits.grace_seconds if interrupted else 0.0)
            if now >= limit:
                if interrupted:
                    killed = True
                    break
                interrupted = True
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGINT)
                continue
            readable, _, _ = select.select([read_end], [], [], limit - now)
            if readable:
                reader.feed()
    except ChannelError as error:
        problem = error
    finally:
        os.close(read_end)
    elapsed = time.monotonic() - started
    if problem is None and not killed and reaped is not None:
        _kill(pid)  # the run has answered: it dies now, and is reaped once the answer is sent
        reaped.append(pid)
        status = None
    else:
        status = _reap(pid, 0.5 if problem is not None and problem.fault is ChannelFault.CLOSED else 0.0)
    late = interrupted or elapsed > timeout
    if killed:
        return {
            "status": "timed-out",
            "seconds": max(elapsed, timeout),
            "reason": f"the program did not stop within {limits.grace_seconds:g} s of the interrupt sent after the "
            f"{timeout:g} s budget (for example inside a long C-level call, or it caught the interrupt), "
            "so it was killed",
        }
    if problem is not None:
        if problem.fault is ChannelFault.OVERSIZED:
            reason = f"the run's result was too large: {problem.detail}"
        else:
            reason = _signal_reason(status) if problem.fault is ChannelFault.CLOSED else problem.detail
        return {"status": "timed-out" if late else "crashed", "seconds": elapsed, "reason": reason}
    try:
        response = _checked_report(reader.value(), limits.max_output_bytes)
    except ChannelError as error:
        kind = "too large a result" if error.fault is ChannelFault.OVERSIZED else "a malformed result"
        response = {"status": "crashed", "reason": f"the run sent {kind}: {error.detail}"}
    response["seconds"] = elapsed  # measured here, outside the program: never the child's claim
    if late:
        response.update(status="timed-out", value=None, seconds=max(elapsed, timeout))
    return response


def _check_request(request: Any, hash_seed: int | None = None) -> dict[str, Any]:
    if type(request) is not dict:
        raise ValueError("a request must be a JSON object")
    if type(request.get("source")) is not str or type(request.get("harness")) is not str:
        raise ValueError("a request needs 'source' and 'harness' strings")
    if type(request.get("args")) is not list or type(request.get("limits")) is not dict:
        raise ValueError("a request needs 'args' (a list) and 'limits' (an object)")
    if type(request.get("timeout")) not in (int, float) or not request["timeout"] > 0:
        raise ValueError("a request needs a positive 'timeout'")
    limits = Limits(**request["limits"])
    if hash_seed is not None and limits.hash_seed != hash_seed:
        raise ValueError(f"it asks for hash seed {limits.hash_seed}, this worker runs with {hash_seed}")
    return request


def main(argv: list[str] | None = None) -> int:
    """The worker's main loop (see the module docstring); the exit code."""
    config = json.loads((argv if argv is not None else sys.argv[1:])[0])
    requests, responses = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # only genplan's own kill stops the worker
    preload_allowed_modules()
    seccomp_problem = seccomp_available()
    config["require_seccomp"] = seccomp_problem is None
    if seccomp_problem is None:
        prepare_seccomp()  # each child adds its own process id to a copy and loads it
    harnesses: dict[str, Callable[..., Any]] = {}
    for name in config.get("preload_harnesses", []):
        harnesses[name] = load_harness(name)
    programs = CompiledPrograms(1, collect_garbage=True)  # the program it runs, and no other
    write_frame(
        responses,
        {
            "ready": True,
            "pid": os.getpid(),
            "uid": os.getuid(),
            "children_run_as": config.get("drop_to"),
            "seccomp": seccomp_problem is None,
            "seccomp_problem": seccomp_problem,
        },
    )
    os.dup2(devnull, 2)
    while _serve_next(requests, responses, harnesses, config, programs):
        pass  # each request and response lived in _serve_next's frame only, gone before the next fork
    return 0


def _serve_next(
    requests: int,
    responses: int,
    harnesses: dict[str, Callable[..., Any]],
    config: dict[str, Any],
    programs: CompiledPrograms,
) -> bool:
    """Read one request, run it, answer it; ``False`` at the end of the input.

    A function of its own, so that nothing of one run (its request, the problem, the plan it
    returned) is alive in the worker when it forks the next run's child.
    """
    try:
        request = read_frame(requests, REQUEST_CAP, None)
    except ChannelError:
        return False
    reaped: list[int] = []
    body = _answer(request, harnesses, config, programs, reaped)
    del request
    write_body(responses, body)
    for pid in reaped:  # killed before the answer was sent; gone before the next fork
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    return True


def _answer(
    request: Any,
    harnesses: dict[str, Callable[..., Any]],
    config: dict[str, Any],
    programs: CompiledPrograms | None = None,
    reaped: list[int] | None = None,
) -> bytes:
    """The encoded response to ``request`` (never raises: a refusal or a crash is an answer)."""
    try:
        checked = _check_request(request, config.get("hash_seed"))
        harness = harnesses.get(checked["harness"]) or load_harness(checked["harness"])
        harnesses[checked["harness"]] = harness
        response = serve(checked, harness, config, programs, reaped)
    except Exception as error:
        response = {"status": "crashed", "reason": f"the sandbox worker refused the request: {error}"}
    try:
        return encode(response)
    except Exception as error:  # whatever came back, the worker answers and lives on
        return encode({"status": "crashed", "reason": f"the run's result could not be sent ({error})"})


if __name__ == "__main__":
    sys.exit(main())
