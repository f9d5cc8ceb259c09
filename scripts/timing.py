"""The benchmarks' shared timer."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(action: Callable[[], object], repeat: int = 5) -> float:
    """Median wall-clock seconds of ``repeat`` calls of ``action``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def best_seconds(action: Callable[[], object], repeat: int = 5) -> float:
    """Fewest wall-clock seconds of ``repeat`` calls of ``action``: on a shared machine the least
    disturbed run (the estimator ``timeit`` recommends)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)
