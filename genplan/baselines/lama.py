"""The LAMA-first baseline: Fast Downward (``--alias lama-first``) from the ``up-fast-downward`` package.

The package ships the planner and runs offline; install it with ``pip install "genplan[planner]"``.
How the planner is run (its own session, a wall-clock budget that kills every process it
started, a memory limit, a temporary folder) is :mod:`genplan.plans.fast_downward`. Its plan is
returned for validation like any other.
"""

from __future__ import annotations

from pathlib import Path

from genplan.pddl.problem import Problem
from genplan.plans.fast_downward import INSTALL_HINT, PlannerRun, find_driver, run_planner

LamaResult = PlannerRun
"""Outcome of one LAMA-first run: :class:`genplan.plans.fast_downward.PlannerRun` (plan, wall-clock
seconds with the full budget on a time-out as Figure 3 counts it, whether it timed out, the
planner's last lines when it found no plan)."""


def _driver() -> Path | None:
    return find_driver()


def lama_available() -> bool:
    """Whether the ``up-fast-downward`` package and its planner are installed."""
    return _driver() is not None


def run_lama(problem: Problem, timeout: float = 30.0, memory_limit: str = "8G") -> LamaResult:
    """Solve ``problem`` with LAMA-first within ``timeout`` seconds (wall clock).

    Args:
        problem: the problem to solve.
        timeout: wall-clock seconds for the whole planner (translator and search); on a
            time-out every process the planner started is killed.
        memory_limit: Fast Downward's ``--overall-memory-limit`` (e.g. ``"8G"``); a planner that
            runs out of memory finds no plan and says so in :attr:`LamaResult.message`.

    Raises:
        RuntimeError: the planner is not installed (``pip install "genplan[planner]"``).
    """
    driver = _driver()
    if driver is None:
        raise RuntimeError(f"LAMA-first needs the up-fast-downward package: {INSTALL_HINT}")
    return run_planner(
        problem, driver, options=["--alias", "lama-first"], timeout=timeout, memory_limit=memory_limit
    )
