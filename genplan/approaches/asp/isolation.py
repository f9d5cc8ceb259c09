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
interrupted from inside) and reads at most :data:`MAX_RESPONSE_BYTES` of its answer.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import resource
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

GRACE_SECONDS = 2.0
"""How long past its time limit a child may take (grounding is not interruptible) before it is killed."""

_ENVIRONMENT_KEYS = ("PATH", "PYTHONPATH", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR")


def run_isolated(request: dict[str, Any], *, memory_bytes: int = DEFAULT_MEMORY_BYTES) -> dict[str, Any]:
    """Carry out ``request`` in a limited child process.

    Args:
        request: as :func:`~genplan.approaches.asp.clingo_run.run_request`; its
            ``time_limit`` (seconds) bounds the child's wall clock (plus :data:`GRACE_SECONDS`).
        memory_bytes: the child's address-space limit.

    Returns:
        The child's response, or one of genplan's making: ``status`` ``timeout`` (killed past
        its time), ``crashed`` (died, e.g. out of memory; the message says which limit) or
        ``error`` (an unreadable answer).
    """
    time_limit = float(request.get("time_limit", 30.0))
    cpu_seconds = math.ceil(time_limit + GRACE_SECONDS) + 1
    environment = {k: os.environ[k] for k in _ENVIRONMENT_KEYS if k in os.environ}
    command = [
        sys.executable,
        "-m",
        "genplan.approaches.asp.isolation",
        str(memory_bytes),
        str(cpu_seconds),
    ]
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
            out, err = process.communicate(json.dumps(request).encode(), timeout=time_limit + GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            process.communicate()
            return _made(
                "timeout",
                f"clingo was stopped after {time_limit:g} s (grounding or solving ran past the time limit)",
                started,
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if process.returncode != 0:
        return _made("crashed", _death_message(process.returncode, err, memory_bytes), started)
    if len(out) > MAX_RESPONSE_BYTES:
        return _made("error", f"clingo's answer was larger than {MAX_RESPONSE_BYTES} bytes", started)
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
