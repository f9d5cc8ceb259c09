"""The machine a run's seconds were measured on: its usable cores and its load.

Every timing genplan records (a problem's seconds, a search's, a benchmark's) depends on what
else the machine was doing, so records keep the load average beside them: read once when a run
starts and once when it ends (:class:`MachineWatch`).
"""

from __future__ import annotations

import os
from typing import Any


def usable_cpus() -> int:
    """The cores this process may run on (its CPU affinity; ``os.cpu_count()`` off Linux)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages, rounded to 2 decimals, or ``None`` where the
    platform has none."""
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:  # pragma: no cover - no load average on this platform
        return None


class MachineWatch:
    """The machine's figures for one run: cores, and the load when the watch was made and when
    :meth:`figures` is asked."""

    def __init__(self) -> None:
        self.start = load_average()

    def figures(self) -> dict[str, Any]:
        """``{"cpus": N, "load_average": {"start": [1m, 5m, 15m], "end": [...]}}``."""
        return {"cpus": usable_cpus(), "load_average": {"start": self.start, "end": load_average()}}
