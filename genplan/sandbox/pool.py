"""genplan's side of the sandbox workers: start them, send requests, read answers with deadlines.

A :class:`SandboxWorker` is one worker process (:mod:`genplan.sandbox.worker`), started by exec
(:func:`genplan.sandbox.isolation.worker_command`) with a clean environment in a new session.
It serves one request at a time. The process-wide :class:`WorkerPool` keeps idle workers per
isolation kind and hash seed (:attr:`Limits.hash_seed` is the worker's ``PYTHONHASHSEED``, fixed
when it starts) and starts another when all are busy, so parallel callers (evaluation runs
problems on every core) each get their own; workers live until genplan exits.

A process forked from genplan starts with an empty pool of its own. Workers are started from
one long-lived thread: bubblewrap's ``--die-with-parent`` ends the
sandbox when the *thread* that started it ends, and callers' threads come and go.

Whatever a worker sends is read as hostile data: a frame cap, a deadline (the run's budget
plus the grace period plus :data:`ANSWER_SLACK_SECONDS`), exact field types. A worker that
answers late, malformed or not at all is killed and replaced, and the run is ``CRASHED``.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import subprocess
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from genplan.sandbox.channel import MAX_VALUES, ChannelError, ChannelFault, read_frame, write_frame
from genplan.sandbox.isolation import (
    ENABLE_HELP,
    IsolationUnavailable,
    protect_caller,
    unprivileged_ids,
    worker_command,
    worker_environment,
)
from genplan.sandbox.limits import MIB, Isolation, Limits

START_SECONDS = 30.0
"""How long a new worker may take to report ready."""

ANSWER_SLACK_SECONDS = 10.0
"""How long past a run's budget and grace period genplan waits for its worker's answer."""

PRELOADED_HARNESSES = ("genplan.sandbox.harness:call_get_plan",)


class _Launcher:
    """Starts processes from one thread that lives as long as genplan (see the module docstring)."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Callable[[], Any], Future]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def call(self, action: Callable[[], Any]) -> Any:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._loop, name="genplan-sandbox-launcher", daemon=True
                )
                self._thread.start()
        future: Future = Future()
        self._jobs.put((action, future))
        return future.result()

    def _loop(self) -> None:
        while True:
            action, future = self._jobs.get()
            try:
                future.set_result(action())
            except BaseException as error:
                future.set_exception(error)


_LAUNCHER = _Launcher()


class SandboxWorker:
    """One sandbox worker process.

    Args:
        isolation: how to isolate it.
        hash_seed: its ``PYTHONHASHSEED`` (:attr:`Limits.hash_seed`), the same for every program it runs.
        wait: wait for the worker's ready report here; ``False`` returns as soon as the process
            is started, and :meth:`wait_ready` waits (the worker boots meanwhile).

    Raises:
        IsolationUnavailable: the worker did not start (no ``bwrap``, or bubblewrap failed,
            for example without user namespaces); the message says how to enable isolation.
    """

    def __init__(self, isolation: Isolation, hash_seed: int = 0, *, wait: bool = True):
        self.isolation = isolation
        self.hash_seed = hash_seed
        config: dict[str, Any] = {"preload_harnesses": list(PRELOADED_HARNESSES), "hash_seed": hash_seed}
        if os.geteuid() == 0:
            config["drop_to"] = list(unprivileged_ids())
        if isolation is Isolation.NONE and os.geteuid() != 0:
            protect_caller()  # programs run as this very user: keep them out of /proc/<genplan>/
        command = worker_command(isolation, json.dumps(config))
        self.process: subprocess.Popen[bytes] = _LAUNCHER.call(
            lambda: subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=worker_environment(hash_seed),
                cwd="/",
                close_fds=True,
                start_new_session=True,
            )
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self._requests = self.process.stdin.fileno()
        self._answers = self.process.stdout.fileno()
        self._started = time.monotonic()
        self.report: dict[str, Any] = {}
        if wait:
            self.wait_ready()

    @property
    def ready(self) -> bool:
        """Whether the worker has reported ready (:meth:`wait_ready`)."""
        return bool(self.report)

    def wait_ready(self) -> None:
        """Wait for the worker's ready report (at most :data:`START_SECONDS` from its start).

        Raises:
            IsolationUnavailable: the worker did not start; the message says how to enable
                isolation.
        """
        if self.report:
            return
        try:
            ready = read_frame(self._answers, MIB, self._started + START_SECONDS)
        except ChannelError as error:
            detail = self._stop_and_read_errors()
            reason = f" ({detail})" if detail else f" ({error.detail})"
            raise IsolationUnavailable(self._help(reason)) from None
        if type(ready) is not dict or ready.get("ready") is not True:
            self.close()
            raise IsolationUnavailable(self._help(": the worker did not report ready"))
        self.report = ready
        self.process.stderr.close()  # type: ignore[union-attr]

    def _help(self, reason: str) -> str:
        if self.isolation is Isolation.BWRAP:
            return ENABLE_HELP.format(reason=reason)
        return f"the sandbox worker could not start{reason}"

    def _stop_and_read_errors(self) -> str:
        self.kill()
        assert self.process.stderr is not None
        text = self.process.stderr.read(4000).decode("utf-8", "replace").strip()
        return " ".join(text.split())[-1000:]

    @property
    def alive(self) -> bool:
        """Whether the process is still running."""
        return self.process.poll() is None

    def run(
        self, request: dict[str, Any], deadline: float, answer_cap: int, max_values: int = MAX_VALUES
    ) -> dict[str, Any]:
        """Send ``request``; its answer, read by ``deadline`` (``time.monotonic()``).

        Raises:
            ChannelError: the worker died, answered late, oversized or malformed (the worker is
                killed then).
        """
        try:
            write_frame(self._requests, request)
            return read_frame(self._answers, answer_cap, deadline, max_values)
        except (ChannelError, OSError) as error:
            self.kill()
            if isinstance(error, ChannelError):
                raise
            raise ChannelError(ChannelFault.CLOSED, f"the sandbox worker stopped ({error})") from None

    def kill(self) -> None:
        """Kill the worker (and with it, under bubblewrap, everything in its sandbox)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()

    def close(self, wait: bool = True) -> None:
        """Let the worker exit at the end of its input, killing it if it does not within 2 s (or
        if it has not reported ready yet, or ``wait`` is false: at genplan's exit, where nothing
        is left to wait for and killing it ends everything in its sandbox at once)."""
        if not self.report or not wait:
            with contextlib.suppress(OSError):
                self.process.stdin.close()  # type: ignore[union-attr]
            self.kill()
            return
        try:
            self.process.stdin.close()  # type: ignore[union-attr]
            self.process.wait(timeout=2)
        except Exception:
            pass
        self.kill()


class WorkerPool:
    """Idle sandbox workers per isolation kind and hash seed, shared by every caller in this process."""

    def __init__(self) -> None:
        self._idle: dict[tuple[Isolation, int], list[SandboxWorker]] = {}
        self._all: list[SandboxWorker] = []
        self._lock = threading.Lock()

    def prestart(self, isolation: Isolation, hash_seed: int = 0) -> None:
        """Start a worker with ``isolation`` and ``hash_seed`` now, without waiting for it.

        It boots while the caller does other work (``genplan solve`` reads the problem and the
        program meanwhile); the next :meth:`acquire` of its kind takes it and waits for its
        ready report there, so a worker that cannot start raises ``IsolationUnavailable`` then.
        Does nothing when a worker of that kind is already idle or starting, or when none can
        start (the next :meth:`acquire` raises then).
        """
        key = (isolation, hash_seed)
        with self._lock:
            if any(worker.alive for worker in self._idle.get(key, [])):
                return
            try:
                worker = SandboxWorker(isolation, hash_seed, wait=False)
            except (IsolationUnavailable, OSError):
                return  # no worker can start: acquire says why, when a run needs one
            self._idle.setdefault(key, []).append(worker)
            self._all.append(worker)

    def acquire(self, isolation: Isolation, hash_seed: int = 0) -> SandboxWorker:
        """An idle worker with ``isolation`` and ``hash_seed`` (a prestarted one once it is
        ready), or a new one (``IsolationUnavailable`` when none can start)."""
        with self._lock:
            idle = self._idle.setdefault((isolation, hash_seed), [])
            while idle:
                worker = idle.pop()
                if worker.alive or not worker.ready:
                    break
            else:
                worker = None
        if worker is not None:
            try:
                worker.wait_ready()
            except IsolationUnavailable:
                self.release(worker)  # dead: dropped
                raise
            return worker
        worker = SandboxWorker(isolation, hash_seed)
        with self._lock:
            self._all.append(worker)
        return worker

    def release(self, worker: SandboxWorker) -> None:
        """Give ``worker`` back (a dead one is dropped)."""
        with self._lock:
            if worker.alive:
                self._idle.setdefault((worker.isolation, worker.hash_seed), []).append(worker)
            else:
                self._all = [w for w in self._all if w is not worker]

    def close(self, wait: bool = True) -> None:
        """Stop every worker (``wait``: give each up to 2 s to exit on its own first)."""
        with self._lock:
            workers, self._all, self._idle = self._all, [], {}
        for worker in workers:
            worker.close(wait)

    def forget(self) -> None:
        """Drop every worker without touching it (in a forked child: they belong to the parent)."""
        self._lock = threading.Lock()
        self._idle, self._all = {}, []


POOL = WorkerPool()


def _close_at_exit() -> None:
    """Stop the workers at genplan's exit without waiting for them (``genplan solve`` would
    wait some 30 ms for an idle worker to shut down)."""
    POOL.close(wait=False)


atexit.register(_close_at_exit)


def _after_fork_in_child() -> None:
    # A process forked from genplan (a process pool, say) must not share the parent's workers:
    # two processes writing requests into one pipe would read each other's answers.
    POOL.forget()
    _LAUNCHER.__init__()  # type: ignore[misc]


os.register_at_fork(after_in_child=_after_fork_in_child)


def answer_cap(limits: Limits) -> int:
    """The largest answer genplan reads from a worker for a run with ``limits``."""
    return limits.max_result_bytes + 8 * limits.max_output_bytes + 8 * MIB


def prestart_worker(isolation: Isolation = Isolation.BWRAP, hash_seed: int = 0) -> None:
    """Start a sandbox worker in the background (:meth:`WorkerPool.prestart`): it boots (about
    0.1 s) while the caller prepares its first run, which then finds it ready or nearly so."""
    POOL.prestart(isolation, hash_seed)


def isolation_report(isolation: Isolation = Isolation.BWRAP) -> dict[str, Any]:
    """Start (or reuse) a worker and return its report on its isolation.

    Returns:
        ``{"isolation": "bwrap", "children_run_as": [uid, gid] or None, "seccomp": bool,
        "seccomp_problem": str or None, ...}``.

    Raises:
        IsolationUnavailable: the worker cannot start with ``isolation``.
    """
    worker = POOL.acquire(isolation)
    try:
        return {"isolation": isolation.value, **worker.report}
    finally:
        POOL.release(worker)
