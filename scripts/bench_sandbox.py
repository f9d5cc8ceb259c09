"""Benchmark: the sandbox's costs (issue 3). Prints figures as ratios from one run; asserts nothing.

* start overhead per sandboxed run (a trivial program; target at most 20 ms);
* run-time overhead of the policy on a search-heavy program against plain CPython (target at
  most 1.3x), beside RestrictedPython's default policy and guards.

Run: ``python scripts/bench_sandbox.py``
"""

from __future__ import annotations

import statistics
import time

from RestrictedPython import compile_restricted, safe_globals
from RestrictedPython.Eval import default_guarded_getitem, default_guarded_getiter
from RestrictedPython.Guards import guarded_iter_unpack_sequence, guarded_unpack_sequence
from timing import median_seconds

from genplan.sandbox import load_trusted, run_program

TRIVIAL = "def get_plan(objects, init, goal):\n    return []\n"

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


def main() -> None:
    run_program(TRIVIAL, set(), set(), set(), timeout=10)  # warm up
    starts = []
    for _ in range(50):
        start = time.perf_counter()
        run_program(TRIVIAL, set(), set(), set(), timeout=10)
        starts.append(time.perf_counter() - start)
    median_start = statistics.median(starts)
    print(
        f"start overhead per sandboxed run: median {median_start * 1000:.1f} ms over 50 runs (target <= 20 ms)"
    )

    plain = _plain(SEARCH_HEAVY)
    ours = load_trusted(SEARCH_HEAVY)
    default = _restricted_default(SEARCH_HEAVY)
    assert plain(set(), set(), set()) == ours(set(), set(), set()) == default(set(), set(), set())
    plain_seconds = median_seconds(lambda: plain(set(), set(), set()), 5)
    ours_seconds = median_seconds(lambda: ours(set(), set(), set()), 5)
    default_seconds = median_seconds(lambda: default(set(), set(), set()), 5)
    sandboxed = median_seconds(lambda: run_program(SEARCH_HEAVY, set(), set(), set(), timeout=60), 3)
    print(f"search-heavy program, plain CPython:            {plain_seconds * 1000:8.1f} ms")
    print(
        f"  genplan policy (in-process):                  {ours_seconds * 1000:8.1f} ms  = {ours_seconds / plain_seconds:.2f}x (target <= 1.3x)"
    )
    print(
        f"  genplan policy (sandboxed, incl. start):      {sandboxed * 1000:8.1f} ms  = {sandboxed / plain_seconds:.2f}x"
    )
    print(
        f"  RestrictedPython default policy and guards:   {default_seconds * 1000:8.1f} ms  = {default_seconds / plain_seconds:.2f}x"
    )


if __name__ == "__main__":
    main()
