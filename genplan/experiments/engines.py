"""Where grid tasks run: in this process, on a local process pool, or on Dask distributed.

Every engine takes the same :class:`Task` list and yields each task's :class:`Finished` as it
finishes (in completion order), and ``None`` every ``tick`` seconds while nothing finished, so
a progress bar stays live. Task functions and arguments must be picklable for the pool and
Dask (module-level functions, dataclasses; never a model object: workers build their own).

Dask (:class:`DaskEngine`) is the default: an embedded :class:`distributed.LocalCluster` of
one single-threaded worker process per core, or an existing cluster by scheduler address
(``tcp://HOST:8786``, e.g. started by ``dask-jobqueue`` on SLURM or PBS). When a worker dies
the scheduler runs its tasks again elsewhere (up to ``distributed.scheduler.allowed-failures``
times, 3 by default, then the task fails with ``KilledWorker``); each task has one future, so
its result reaches the client once.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Task:
    """One unit of work: ``function(*args)``, named ``key`` (unique within a run)."""

    key: str
    function: Callable[..., Any]
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Finished:
    """A task's outcome: its ``value``, or the ``error`` it raised (then ``value`` is ``None``)."""

    task: Task
    value: Any = None
    error: BaseException | None = None


class Engine(Protocol):
    """Runs tasks somewhere; see the module docstring.

    Attributes:
        name: ``sequential``, ``pool`` or ``dask``.
        workers: tasks that can run at once.
        dashboard: the Dask dashboard's address, or ``None``.
    """

    @property
    def name(self) -> str: ...

    @property
    def workers(self) -> int: ...

    @property
    def dashboard(self) -> str | None: ...

    def run(self, tasks: Sequence[Task], *, tick: float = 1.0) -> Iterator[Finished | None]:
        """Each task's outcome as it finishes; ``None`` after ``tick`` seconds without one."""
        ...

    def running(self) -> int:
        """Tasks running now (an estimate where the engine cannot tell exactly)."""
        ...

    def close(self) -> None:
        """Release the engine's processes (a cluster it started is shut down)."""
        ...


def usable_cores() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class SequentialEngine:
    """Runs each task in this process, one after the other (debugging, tests, the reference)."""

    name = "sequential"
    workers = 1
    dashboard: str | None = None

    def __init__(self) -> None:
        self._running = 0

    def run(self, tasks: Sequence[Task], *, tick: float = 1.0) -> Iterator[Finished | None]:
        """Run every task in order."""
        for task in tasks:
            self._running = 1
            try:
                finished = Finished(task, task.function(*task.args))
            except Exception as error:  # a failing task must not stop the others
                finished = Finished(task, None, error)
            self._running = 0
            yield finished

    def running(self) -> int:
        """1 while a task runs, else 0."""
        return self._running

    def close(self) -> None:
        """Nothing to release."""


class PoolEngine:
    """Runs tasks on a local :class:`concurrent.futures.ProcessPoolExecutor` (genplan's grid
    engine before Dask; kept as the benchmark's reference). A worker that dies breaks the
    pool: its tasks and every task still queued fail."""

    name = "pool"
    dashboard: str | None = None

    def __init__(self, workers: int | None = None):
        self.workers = workers or usable_cores()
        self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.workers)
        self._pending = 0

    def run(self, tasks: Sequence[Task], *, tick: float = 1.0) -> Iterator[Finished | None]:
        """Submit every task; yield outcomes as they finish."""
        futures = {self._pool.submit(task.function, *task.args): task for task in tasks}
        pending = set(futures)
        while pending:
            self._pending = len(pending)
            done, pending = concurrent.futures.wait(pending, timeout=tick, return_when="FIRST_COMPLETED")
            if not done:
                yield None
            for future in done:
                error = future.exception()
                yield Finished(futures[future], None if error else future.result(), error)
        self._pending = 0

    def running(self) -> int:
        """At most ``workers`` of the unfinished tasks."""
        return min(self.workers, self._pending)

    def close(self) -> None:
        """Shut the pool down."""
        self._pool.shutdown(cancel_futures=True)


WORKER_ENVIRONMENT = {"PYTHONHASHSEED": "0"}
"""Set in every embedded worker before it starts, so genplan's own processes iterate sets
alike everywhere (model-written programs get the run's hash seed from the sandbox,
:attr:`genplan.sandbox.Limits.hash_seed`, whatever this is)."""


EMBEDDED_CONFIG = {
    "distributed.worker.daemon": False,
    "distributed.worker.profile.enabled": False,
}
"""Dask settings of the embedded cluster: workers may start processes of their own (the
sandbox, LAMA-first), and the statistical profiler (it samples every running task's stack
every 10 ms, CPU time the tasks need on a small machine) is off."""


class DaskEngine:
    """Runs tasks on Dask distributed: an embedded ``LocalCluster`` or a cluster's scheduler.

    Args:
        workers: worker processes of the embedded cluster (default: the usable cores); ignored
            with ``scheduler``.
        scheduler: an existing scheduler's address (``tcp://HOST:8786``), or ``None`` to start
            an embedded cluster (one thread per worker, workers allowed to start processes of
            their own, as the sandbox does; dashboard on 127.0.0.1, port 8787 or a free one).
        client: an existing :class:`distributed.Client` to use as is (notebooks).
        dashboard: the embedded cluster's dashboard address, on loopback unless an interface is
            asked for (``"0.0.0.0:8787"`` for every interface); ``None``: no dashboard (Dask's
            scheduler still opens an HTTP listener: it serves nothing and is bound to loopback on
            a free port).

    Raises:
        ConfigurationError: the scheduler cannot be reached.
    """

    name = "dask"

    def __init__(
        self,
        workers: int | None = None,
        scheduler: str | None = None,
        client: Any = None,
        dashboard: str | None = "127.0.0.1:8787",
    ):
        import dask
        from distributed import Client, LocalCluster

        self._cluster = None
        self._own_client = client is None
        if client is not None:
            self.client = client
        elif scheduler is not None:
            from genplan.errors import ConfigurationError

            try:
                self.client = Client(scheduler, timeout="20s")
            except (OSError, TimeoutError) as error:
                raise ConfigurationError(
                    f"cannot reach the Dask scheduler at {scheduler}: {error}; start one with "
                    "`dask scheduler` (and workers with `dask worker ADDRESS`), or leave out --scheduler "
                    "to run on this machine"
                ) from error
        else:
            off: dict[str, object] = {"distributed.scheduler.http.routes": []} if dashboard is None else {}
            with dask.config.set({**EMBEDDED_CONFIG, **off}):
                self._cluster = LocalCluster(
                    n_workers=workers or usable_cores(),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address="127.0.0.1:0" if dashboard is None else dashboard,
                    scheduler_kwargs={"dashboard": False} if dashboard is None else None,
                    env=dict(WORKER_ENVIRONMENT),
                )
            self.client = Client(self._cluster)
        self._keys: set[str] = set()

    @property
    def workers(self) -> int:
        """Worker threads of the cluster now (at least 1)."""
        info = self.client.scheduler_info()
        return max(1, sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()))

    @property
    def dashboard(self) -> str | None:
        """The dashboard's address, or ``None`` when the dashboard is off (``bokeh`` missing)."""
        try:
            import bokeh  # noqa: F401
        except ImportError:
            return None
        return str(self.client.dashboard_link)

    def run(self, tasks: Sequence[Task], *, tick: float = 1.0) -> Iterator[Finished | None]:
        """Submit every task (one future each); yield outcomes as they finish."""
        from distributed import wait

        run_id = uuid.uuid4().hex[:8]
        futures = {}
        for task in tasks:
            future = self.client.submit(task.function, *task.args, key=f"{task.key}-{run_id}", pure=False)
            futures[future] = task
        self._keys = {future.key for future in futures}
        pending = set(futures)
        while pending:
            try:
                done, pending = wait(pending, timeout=tick, return_when="FIRST_COMPLETED")
            except TimeoutError:
                yield None
                continue
            for future in done:
                task = futures.pop(future)
                self._keys.discard(future.key)
                if future.status == "finished":
                    value, error = future.result(), None
                else:
                    value, error = None, future.exception()
                future.release()
                yield Finished(task, value, error)

    def running(self) -> int:
        """Tasks of this engine that workers hold (at most one per worker thread: a worker
        may hold the next task while it runs one)."""
        processing = self.client.processing()
        held = sum(1 for keys in processing.values() for key in keys if key in self._keys)
        return min(held, self.workers)

    def close(self) -> None:
        """Close the client, and the embedded cluster if this engine started it.

        Tasks still running (after Ctrl-C) are cancelled; the embedded cluster's workers and
        nannies are told not to log their shutdown (``Async instruction ... ended with
        CancelledError``, ``Worker process still alive after 4.0 seconds, killing``): the CLI
        says once that the grid was interrupted and what was kept.
        """
        if self._cluster is not None:
            with contextlib.suppress(Exception):  # a worker already gone has nothing to say
                self.client.run(_quiet_shutdown_logs)
            with _quiet_loggers(_SHUTDOWN_LOGGERS):
                if self._own_client:
                    self.client.close()
                self._cluster.close()
            return
        if self._own_client:
            self.client.close()


_SHUTDOWN_LOGGERS = ("distributed.worker.state_machine", "distributed.nanny", "distributed.worker")
"""Loggers of ``distributed`` that report the cancelled tasks and killed workers of a shutdown."""


def _quiet_shutdown_logs() -> None:
    """In a worker process: only errors from the loggers of :data:`_SHUTDOWN_LOGGERS` from now on."""
    for name in _SHUTDOWN_LOGGERS:
        logging.getLogger(name).setLevel(logging.ERROR)


@contextlib.contextmanager
def _quiet_loggers(names: Sequence[str]) -> Iterator[None]:
    """Only errors from the loggers ``names`` while the block runs (their levels are restored)."""
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def make_engine(name: str, workers: int | None = None, scheduler: str | None = None) -> Engine:
    """``sequential``, ``pool`` or ``dask`` (``scheduler`` implies ``dask``).

    Raises:
        ConfigurationError: an unknown engine, or a scheduler that cannot be reached.
    """
    from genplan.errors import ConfigurationError

    if scheduler is not None or name == "dask":
        return DaskEngine(workers, scheduler)
    if name == "pool":
        return PoolEngine(workers)
    if name == "sequential":
        return SequentialEngine()
    raise ConfigurationError(f"unknown engine {name!r}; use dask (default), pool or sequential")
