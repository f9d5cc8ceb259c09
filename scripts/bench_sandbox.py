"""Benchmark: the sandbox's costs (issues 3 and 11). Prints figures side by side with their
targets from one run; asserts nothing. The machine may be shared: the load average is printed
before and after, and figures taken under load are only upper bounds.

* per-run overhead through the persistent sandbox worker (a trivial program; median of 100
  runs; target at most 20 ms), with bubblewrap and with ``--isolation none``, and the start of a
  new worker;
* run-time overhead of the policy's guards on a search-heavy program against plain CPython
  (target at most 1.3x), with a variant that reads its own private attributes (guarded at run
  time), beside RestrictedPython's default policy and guards;
* the caller's peak memory while it reads a 64 MB result (target at most 2x the result);
* the 7-domain x 30-problem evaluation of the saved programs in the sandbox (target within 1.5x
  of the 3.9 s measured on 2 cores before the sandbox got its operating-system layers), beside
  the same evaluation with the programs run in-process (what the sandbox adds to it).

Run: ``python scripts/bench_sandbox.py``
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from unittest import mock

from bench_evaluate import evaluate_all, evaluation_jobs
from RestrictedPython import compile_restricted, safe_globals
from RestrictedPython.Eval import default_guarded_getitem, default_guarded_getiter
from RestrictedPython.Guards import guarded_iter_unpack_sequence, guarded_unpack_sequence
from timing import median_seconds

import genplan.approaches.generalized_plan.checking as checking
from genplan.sandbox import Isolation, Limits, RunOutcome, RunStatus, load_trusted, run_program
from genplan.sandbox.pool import SandboxWorker

TRIVIAL = "def get_plan(objects, init, goal):\n    return []\n"
EVALUATION_BEFORE_SECONDS = 3.9
"""The 210-problem evaluation before this sandbox (fork per run, dill results), issue 11."""

SEARCH_HEAVY = """
from collections import deque

class Cell:
    def __init__(self, row, col):
        self.row = row
        self.col = col

def neighbours(cell, size, walls):
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, c = cell[0] + dr, cell[1] + dc
        if 0 <= r < size and 0 <= c < size and (r, c) not in walls:
            yield (r, c)

def get_plan(objects, init, goal):
    size = 140
    walls = {(r, c) for r in range(size) for c in range(size) if (r * 7 + c * 13) % 11 == 0 and c % 5}
    total = 0
    for start in ((0, 0), (1, 1), (2, 2)):
        parent = {start: None}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            info = Cell(cell[0], cell[1])
            total += info.row + info.col
            for following in neighbours(cell, size, walls):
                if following not in parent:
                    parent[following] = cell
                    queue.append(following)
        counts = {}
        for cell, before in parent.items():
            key = cell[0] % 10
            counts[key] = counts.get(key, 0) + 1
        total += sum(counts[k] for k in sorted(counts))
    return [str(total)]
"""

PRIVATE_HEAVY = (
    SEARCH_HEAVY.replace("self.row", "self._row")
    .replace("self.col", "self._col")
    .replace("info.row + info.col", "info._row + info._col")
)


def _plain(source: str):
    namespace: dict = {}
    exec(compile(source, "<plain>", "exec"), namespace)
    return namespace["get_plan"]


def _restricted_default(source: str):
    code = compile_restricted(source, "<restricted>", "exec")
    namespace = dict(safe_globals)
    namespace.update(
        {
            "_getattr_": getattr,
            "_getitem_": default_guarded_getitem,
            "_getiter_": default_guarded_getiter,
            "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
            "_unpack_sequence_": guarded_unpack_sequence,
            "_write_": lambda obj: obj,
            "__metaclass__": type,
            "__name__": "restricted",
            "_inplacevar_": lambda op, x, y: {"+=": lambda: x + y}[op](),
        }
    )
    namespace["__builtins__"] = dict(namespace["__builtins__"], __import__=__import__, sorted=sorted, sum=sum)
    exec(code, namespace)
    return namespace["get_plan"]


def _load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def per_run_overhead() -> None:
    for isolation in (Isolation.BWRAP, Isolation.NONE):
        limits = Limits(isolation=isolation)
        run_program(TRIVIAL, set(), set(), set(), timeout=10, limits=limits)  # start the worker
        times = []
        for _ in range(100):
            start = time.perf_counter()
            outcome = run_program(TRIVIAL, set(), set(), set(), timeout=10, limits=limits)
            times.append(time.perf_counter() - start)
            assert outcome.status is RunStatus.SUCCESS
        starts = []
        for _ in range(5):
            start = time.perf_counter()
            SandboxWorker(isolation).close()
            starts.append(time.perf_counter() - start)
        print(
            f"per-run overhead, persistent worker, isolation {isolation.value:<5}: median "
            f"{statistics.median(times) * 1000:5.1f} ms over 100 runs (target <= 20 ms); "
            f"a new worker starts in {statistics.median(starts) * 1000:.0f} ms"
        )


def guard_overhead() -> None:
    for label, source in (
        ("search-heavy program", SEARCH_HEAVY),
        ("  same, private attributes", PRIVATE_HEAVY),
    ):
        plain = _plain(source)
        ours = load_trusted(source)
        assert plain(set(), set(), set()) == ours(set(), set(), set())
        plain_seconds = median_seconds(lambda plain=plain: plain(set(), set(), set()), 5)
        ours_seconds = median_seconds(lambda ours=ours: ours(set(), set(), set()), 5)
        outcome = run_program(source, set(), set(), set(), timeout=60)
        print(f"{label + ', plain CPython:':<48}{plain_seconds * 1000:8.1f} ms")
        print(
            f"  genplan policy (in-process):                  {ours_seconds * 1000:8.1f} ms  = "
            f"{ours_seconds / plain_seconds:.2f}x (target <= 1.3x)"
        )
        print(
            f"  genplan policy (sandboxed, get_plan alone):   {outcome.seconds * 1000:8.1f} ms  = "
            f"{outcome.seconds / plain_seconds:.2f}x"
        )
    default = _restricted_default(SEARCH_HEAVY)
    plain = _plain(SEARCH_HEAVY)
    plain_seconds = median_seconds(lambda: plain(set(), set(), set()), 5)
    default_seconds = median_seconds(lambda: default(set(), set(), set()), 5)
    print(
        f"  RestrictedPython default policy and guards:   {default_seconds * 1000:8.1f} ms  = "
        f"{default_seconds / plain_seconds:.2f}x (for comparison)"
    )


def _in_process(program, objects, init, goal, *, timeout, limits=None, **_: object) -> RunOutcome:
    """``run_program`` without the sandbox (its other options, e.g. ``order_seed``, do not apply)."""
    start = time.perf_counter()
    plan = load_trusted(program)(objects, init, goal)
    return RunOutcome(RunStatus.SUCCESS, plan=list(plan), seconds=time.perf_counter() - start)


def evaluation() -> None:
    with tempfile.TemporaryDirectory() as work:
        jobs = evaluation_jobs(Path(work))
        problems = sum(len(job[2]) for job in jobs)
        evaluate_all(jobs, verbose=False)  # warm up: workers started, VAL loaded
        sandboxed = evaluate_all(jobs, verbose=False)
        with mock.patch.object(checking, "run_program", _in_process):
            in_process = evaluate_all(jobs, verbose=False)
    print(
        f"evaluation of the saved programs, {len(jobs)} domains, {problems} problems, "
        f"{os.cpu_count()} cores: sandboxed {sandboxed:.1f} s = {sandboxed / EVALUATION_BEFORE_SECONDS:.2f}x of "
        f"{EVALUATION_BEFORE_SECONDS} s before (target <= 1.5x); programs in-process {in_process:.1f} s"
    )


def result_memory() -> None:
    """genplan's peak memory (tracemalloc) while it reads a result of 64 MB of JSON."""
    import tracemalloc

    size = 64 * 1024 * 1024 - 1024
    source = f"def get_plan(objects, init, goal):\n    return ['x' * {size}]\n"
    limits = Limits(grace_seconds=1.0)
    run_program(TRIVIAL, {"a"}, set(), set(), timeout=30, limits=limits)  # a worker started
    tracemalloc.start()
    outcome = run_program(source, {"a"}, set(), set(), timeout=60, limits=limits)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"caller's peak memory on a {size / 2**20:.0f} MB result ({outcome.status.value}): "
        f"{peak / 2**20:.0f} MB = {peak / size:.2f}x the result (target <= 2x)"
    )


def main() -> None:
    argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    ).parse_args()
    print(f"before: {_load()}")
    per_run_overhead()
    guard_overhead()
    result_memory()
    evaluation()
    print(f"after:  {_load()}")


if __name__ == "__main__":
    main()
