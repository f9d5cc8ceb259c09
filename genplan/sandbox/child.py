"""One run in a child the sandbox worker forked: confine, compile, call the harness, report.

The child puts itself in a new session (its own process group), points standard input and
output at ``/dev/null``, closes every other inherited descriptor, then confines itself
(:mod:`genplan.sandbox.confine`) before it runs the program's top level (compiled by the worker
before the fork, or here when the worker could not compile it). It reports one frame of JSON on
its result pipe (:mod:`genplan.sandbox.channel`) and exits with ``os._exit``. The report is a
claim: the worker checks it, and decides time-outs itself.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import types
from collections.abc import Callable
from typing import Any, NoReturn

from genplan.sandbox.channel import ChannelError, check_shape, json_copy, write_frame
from genplan.sandbox.confine import apply_limits, drop_privileges, install_seccomp
from genplan.sandbox.harness import BadOutput
from genplan.sandbox.limits import GIB, Limits
from genplan.sandbox.outcome import OUT_OF_MEMORY
from genplan.sandbox.policy import PolicyViolation, compile_program
from genplan.sandbox.runtime import new_program_module
from genplan.sandbox.tracebacks import format_exception


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
        if type(text) is not str:
            text = str(text)
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


def _isolate(result_fd: int, limits: Limits, timeout: float, drop_to: tuple[int, int] | None) -> bool:
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(devnull, descriptor)
    os.closerange(3, result_fd)
    os.closerange(result_fd + 1, 1 << 16)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for number in (signal.SIGTERM, signal.SIGPIPE, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    apply_limits(limits, timeout, unprivileged=drop_to is not None or os.geteuid() != 0)
    drop_privileges(drop_to)
    return install_seccomp()


def _execute(
    source: str,
    harness: Callable[..., Any],
    arguments: list[Any],
    limits: Limits,
    compiled: types.CodeType | None = None,
) -> dict[str, Any]:
    writer = _CappedWriter(limits.max_output_bytes)
    sys.stdin = None  # type: ignore[assignment]
    sys.stdout = sys.stderr = writer  # type: ignore[assignment]
    sys.setrecursionlimit(limits.recursion_limit)
    started = time.perf_counter()
    message: dict[str, Any]
    try:
        try:
            code = compiled if compiled is not None else compile_program(source)
        except (SyntaxError, PolicyViolation) as error:
            message = {"status": "raised", "traceback": format_exception(error, source)}
        else:
            module = new_program_module()
            exec(code, module.__dict__)
            started = time.perf_counter()
            value = harness(module.__dict__, *arguments)
            seconds = time.perf_counter() - started
            if writer.exceeded:
                raise _OutputLimitExceeded
            try:
                value = json_copy(value)
            except TypeError as error:
                raise RuntimeError(f"the harness returned something that is not JSON: {error}") from None
            message = {"status": "success", "value": value, "seconds": seconds}
    except BadOutput as error:
        message = {"status": "bad-output", "reason": str(error.reason), "output": error.output}
    except _OutputLimitExceeded:
        message = {
            "status": "crashed",
            "reason": f"the program printed more than {limits.max_output_bytes} bytes (output limit)",
        }
    except MemoryError as error:
        message = {
            "status": "crashed",
            "reason": f"{OUT_OF_MEMORY} (limit {limits.address_space_bytes / GIB:g} GiB)",
            "traceback": format_exception(error, source),
        }
    except RecursionError as error:
        trace = format_exception(error, source).splitlines()
        shown = "\n".join([*trace[:7], "  ...", *trace[-3:]]) if len(trace) > 12 else "\n".join(trace)
        message = {
            "status": "crashed",
            # the limit in force: the program may have set its own (sys.setrecursionlimit)
            "reason": f"maximum recursion depth ({sys.getrecursionlimit()}) exceeded:\n{shown}",
        }
    except BaseException as error:  # the program's own exception, KeyboardInterrupt included
        message = {"status": "raised", "traceback": format_exception(error, source)}
    message.setdefault("seconds", time.perf_counter() - started)
    message["stdout"] = writer.getvalue()[: limits.max_output_bytes]
    return message


def _too_big(message: dict[str, Any], limits: Limits) -> dict[str, Any] | None:
    if message.get("status") != "success":
        return None
    text = json.dumps(message["value"], ensure_ascii=False, separators=(",", ":"))
    size = len(text.encode("utf-8"))
    reason = None
    if size > limits.max_result_bytes:
        reason = f"the result has {size} bytes as JSON, over the limit of {limits.max_result_bytes} bytes"
    else:
        try:
            check_shape(text, max_values=limits.max_result_values)
        except ChannelError as error:
            reason = f"the result is too large: {error.detail} (values in the result)"
    if reason is None:
        return None
    return {"status": "crashed", "reason": reason, "seconds": message["seconds"], "stdout": message["stdout"]}


def run_child(
    request: dict[str, Any],
    harness: Callable[..., Any],
    result_fd: int,
    drop_to: tuple[int, int] | None,
    require_seccomp: bool,
    compiled: types.CodeType | None = None,
) -> NoReturn:
    """The body of the child (never returns).

    Args:
        request: the worker's checked request (``source``, ``args``, ``timeout``, ``limits``).
        harness: the harness function, imported by the worker.
        result_fd: the write end of the result pipe.
        drop_to: the user and group to become, or ``None``.
        require_seccomp: refuse to run the program if the filter cannot be installed.
        compiled: the program compiled under the policy by the worker before the fork, or
            ``None`` to compile it here (a source the worker could not compile: the error is
            reported from here).
    """
    limits = Limits(**request["limits"])
    try:
        installed = _isolate(result_fd, limits, request["timeout"], drop_to)
        if require_seccomp and not installed:
            raise OSError("the seccomp filter is not available")
    except BaseException as error:
        message = {"status": "crashed", "reason": f"the sandbox could not confine the run: {error}"}
    else:
        message = _execute(request["source"], harness, request["args"], limits, compiled)
        message = _too_big(message, limits) or message
    try:
        write_frame(result_fd, message)
    except BaseException:
        os._exit(3)
    os._exit(0)
