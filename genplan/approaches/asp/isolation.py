"""Run :func:`~genplan.approaches.asp.clingo_run.run_request` in a child process with limits.

Why not genplan's sandbox (:func:`genplan.sandbox.run_untrusted` with a harness here): an
encoding is not Python, and clingo's time limit needs a thread that calls
``Control.interrupt`` (clingo's search does not return to Python, so a signal handler cannot
stop it), while a sandbox child run as an unprivileged user may start no thread (its
``RLIMIT_NPROC`` is 0; clingo then fails with "can't start new thread"). Stopping clingo by the
worker's interrupt instead would lose what a check learnt before its time ran out. So this
module is the ASP approach's own isolation layer; nothing else in the approach depends on how
the child is made: :func:`run_isolated` takes and returns JSON-able dicts.

The child is a fresh interpreter (``python -m genplan.approaches.asp.isolation``) in a new
session and an empty working directory, with a minimal environment (no API keys). Before it
reads the request it lowers its own limits: address space (:data:`DEFAULT_MEMORY_BYTES`), CPU
seconds (the time limit plus a margin), file size 0 (no file writes), no core files. The
request comes on stdin and the response goes to stdout, both JSON; the parent kills the
child's whole process group when it overruns the time limit (grounding cannot be
interrupted from inside). It counts the answer's bytes as they arrive and stops reading (and
kills the child) past :data:`MAX_RESPONSE_BYTES`, so an oversized answer never sits whole in
genplan's memory; of the child's standard error it keeps the last :data:`STDERR_TAIL_BYTES`.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import resource
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

DEFAULT_MEMORY_BYTES = 4 * 1024**3
"""Address-space limit of a clingo child (4 GiB): grounding can blow up."""

MAX_RESPONSE_BYTES = 64 * 1024**2
"""Largest response read from a child (64 MiB)."""

STDERR_TAIL_BYTES = 64 * 1024
"""Bytes of a child's standard error kept (the last ones: they name the error)."""

READ_CHUNK_BYTES = 64 * 1024
"""Bytes read from a child's pipe at a time."""

GRACE_SECONDS = 2.0
"""How long past its time limit a child may take (grounding is not interruptible) before it is killed."""

_ENVIRONMENT_KEYS = ("PATH", "PYTHONPATH", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR")


class _AnswerTooLarge(Exception):
    """The child's answer passed the byte limit while it was read."""


def child_command(memory_bytes: int, cpu_seconds: int) -> list[str]:
    """The argument list that starts a clingo child (this module run as a program)."""
    return [sys.executable, "-m", "genplan.approaches.asp.isolation", str(memory_bytes), str(cpu_seconds)]


def _exchange(
    process: subprocess.Popen[bytes], data: bytes, timeout: float, max_answer_bytes: int
) -> tuple[bytes, bytes]:
    """Send ``data`` to the child's stdin and read its stdout and stderr until both close.

    Returns:
        ``(answer, stderr tail)``: the answer whole (at most ``max_answer_bytes`` bytes), the
        last :data:`STDERR_TAIL_BYTES` bytes of standard error.

    Raises:
        _AnswerTooLarge: the answer passed ``max_answer_bytes`` (reading stopped there).
        subprocess.TimeoutExpired: the pipes were still open after ``timeout`` seconds.
    """
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    deadline = time.monotonic() + timeout
    answer = bytearray()
    errors = bytearray()
    pending = memoryview(data)
    with selectors.DefaultSelector() as selector:
        os.set_blocking(process.stdin.fileno(), False)
        selector.register(process.stdin, selectors.EVENT_WRITE)
        selector.register(process.stdout, selectors.EVENT_READ)
        selector.register(process.stderr, selectors.EVENT_READ)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                raise subprocess.TimeoutExpired(process.args, timeout)
            for key, _ in selector.select(left):
                stream = key.fileobj
                if stream is process.stdin:
                    try:
                        written = os.write(process.stdin.fileno(), pending[:READ_CHUNK_BYTES])
                    except BrokenPipeError:  # the child stopped reading: its answer says why
                        written = len(pending)
                    pending = pending[written:]
                    if not pending:
                        selector.unregister(process.stdin)
                        process.stdin.close()
                    continue
                chunk = os.read(key.fd, READ_CHUNK_BYTES)
                if not chunk:
                    selector.unregister(stream)
                elif stream is process.stdout:
                    answer += chunk
                    if len(answer) > max_answer_bytes:
                        raise _AnswerTooLarge
                else:
                    errors += chunk
                    del errors[:-STDERR_TAIL_BYTES]
    process.stdout.close()
    process.stderr.close()
    return bytes(answer), bytes(errors)


def run_isolated(
    request: dict[str, Any],
    *,
    memory_bytes: int = DEFAULT_MEMORY_BYTES,
    max_answer_bytes: int = MAX_RESPONSE_BYTES,
) -> dict[str, Any]:
    """Carry out ``request`` in a limited child process.

    Args:
        request: as :func:`~genplan.approaches.asp.clingo_run.run_request`; its
            ``time_limit`` (seconds) bounds the child's wall clock (plus :data:`GRACE_SECONDS`).
        memory_bytes: the child's address-space limit.
        max_answer_bytes: the largest answer read (bytes of JSON); reading stops past it.

    Returns:
        The child's response, or one of genplan's making: ``status`` ``timeout`` (killed past
        its time), ``crashed`` (died, e.g. out of memory; the message says which limit) or
        ``error`` (an unreadable or oversized answer).
    """
    time_limit = float(request.get("time_limit", 30.0))
    cpu_seconds = math.ceil(time_limit + GRACE_SECONDS) + 1
    environment = {k: os.environ[k] for k in _ENVIRONMENT_KEYS if k in os.environ}
    command = child_command(memory_bytes, cpu_seconds)
    started = time.monotonic()
    workdir = tempfile.mkdtemp(prefix="genplan-clingo-")
    try:
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=workdir,
            env=environment,
            start_new_session=True,
        )
        try:
            out, err = _exchange(
                process, json.dumps(request).encode(), time_limit + GRACE_SECONDS, max_answer_bytes
            )
            process.wait(timeout=GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            _stop(process)
            return _made(
                "timeout",
                f"clingo was stopped after {time_limit:g} s (grounding or solving ran past the time limit)",
                started,
            )
        except _AnswerTooLarge:
            _stop(process)
            return _made(
                "error",
                f"clingo's answer was larger than {max_answer_bytes:,} bytes (reading stopped there)",
                started,
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if process.returncode != 0:
        return _made("crashed", _death_message(process.returncode, err, memory_bytes), started)
    try:
        response = json.loads(out)
    except ValueError:
        return _made("error", "clingo's process gave no readable answer", started)
    if not isinstance(response, dict) or not isinstance(response.get("status"), str):
        return _made("error", "clingo's process gave no readable answer", started)
    return response


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Kill the child's process group, reap it and close its pipes (nothing more is read)."""
    _kill_group(process)
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


def _made(status: str, message: str, started: float) -> dict[str, Any]:
    return {"status": status, "messages": [message], "seconds": round(time.monotonic() - started, 6)}


def _death_message(returncode: int, stderr: bytes, memory_bytes: int) -> str:
    text = stderr.decode(errors="replace")
    if returncode < 0:
        name = signal.Signals(-returncode).name
        if -returncode == signal.SIGXCPU:
            return "clingo's process ran out of CPU time and was stopped"
        return f"clingo's process was killed by {name}"
    if "MemoryError" in text or "bad_alloc" in text or "memory" in text.lower():
        return f"clingo ran out of memory (limit {memory_bytes // 1024**2} MiB) while grounding or solving"
    last = text.strip().splitlines()[-1] if text.strip() else f"exit status {returncode}"
    return f"clingo's process failed: {last[:300]}"


def _limit_self(memory_bytes: int, cpu_seconds: int) -> None:
    """Lower this process's limits, soft and hard alike, so nothing later can raise them."""
    for limit, value in (
        (resource.RLIMIT_AS, memory_bytes),
        (resource.RLIMIT_CPU, cpu_seconds),
        (resource.RLIMIT_FSIZE, 0),
        (resource.RLIMIT_CORE, 0),
    ):
        _, hard = resource.getrlimit(limit)
        bound = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(limit, (bound, bound))


def _child_main(arguments: list[str]) -> int:
    """The child: limits first, then one request from stdin, its response to stdout."""
    memory_bytes, cpu_seconds = int(arguments[0]), int(arguments[1])
    _limit_self(memory_bytes, cpu_seconds)
    from genplan.approaches.asp.clingo_run import run_request

    request = json.loads(sys.stdin.buffer.read())
    try:
        response = run_request(request)
    except MemoryError:
        response = {
            "status": "crashed",
            "messages": [f"clingo ran out of memory (limit {memory_bytes // 1024**2} MiB)"],
        }
    sys.stdout.write(json.dumps(response))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
