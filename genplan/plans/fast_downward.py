"""Running Fast Downward (from the ``up-fast-downward`` package) on a problem, safely.

The package ships the planner and runs offline; install it with ``pip install "genplan[planner]"``.
The planner runs as a subprocess (argument list, no shell) in a temporary folder that is
always removed, under a wall-clock budget and a memory limit. Fast Downward's driver starts the
translator and the search as processes of its own, so the planner gets a session of its own and
a time-out kills the whole process group: otherwise a translator left behind keeps running (and
growing: 19 GB after 11 minutes on a 128x miconic problem) beside later measurements.

Two configurations use it: LAMA-first (:mod:`genplan.baselines.lama`, Silver et al. 2024,
Sec. 5.1) and A* with the LM-cut heuristic for optimal plan lengths
(:mod:`genplan.plans.optimal`).
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from genplan.pddl.problem import Problem

INSTALL_HINT = 'pip install "genplan[planner]"'


@dataclass(frozen=True)
class PlannerRun:
    """Outcome of one Fast Downward run.

    Attributes:
        plan: the plan found, one action per item (``"(pick-up a)"``), or ``None``.
        seconds: wall-clock seconds, the full budget on a time-out.
        timed_out: the budget ran out (every process the planner started was killed).
        message: the planner's last output lines when it found no plan.
    """

    plan: list[str] | None
    seconds: float
    timed_out: bool
    message: str = ""


def find_driver() -> Path | None:
    """The ``fast-downward.py`` driver of the installed ``up-fast-downward`` package, or ``None``.

    Found without importing the package: its ``__init__`` needs unified-planning, the planner
    does not.
    """
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        driver = Path(location) / "downward" / "fast-downward.py"
        if driver.is_file():
            return driver
    return None


def run_planner(
    problem: Problem,
    driver: Path,
    *,
    options: Sequence[str] = (),
    search: Sequence[str] = (),
    timeout: float = 30.0,
    memory_limit: str = "8G",
) -> PlannerRun:
    """Run Fast Downward's ``driver`` on ``problem``.

    Args:
        problem: the problem (its domain goes with it).
        driver: the ``fast-downward.py`` driver (see :func:`find_driver`).
        options: driver options placed before the domain and problem files, e.g.
            ``["--alias", "lama-first"]``.
        search: component options placed after them, e.g. ``["--search", "astar(lmcut())"]``.
        timeout: wall-clock seconds for the whole planner (translator and search); on a
            time-out every process the planner started is killed.
        memory_limit: Fast Downward's ``--overall-memory-limit`` (e.g. ``"8G"``).

    Returns:
        A :class:`PlannerRun`; a planner that runs out of memory or proves the problem
        unsolvable finds no plan and says why in :attr:`PlannerRun.message`.
    """
    with tempfile.TemporaryDirectory(prefix="genplan-fd-") as folder:
        domain_file = Path(folder) / "domain.pddl"
        problem_file = Path(folder) / "problem.pddl"
        plan_file = Path(folder) / "sas_plan"
        domain_file.write_text(problem.domain.to_pddl())
        problem_file.write_text(problem.to_pddl())
        command = [
            sys.executable,
            str(driver),
            "--overall-memory-limit",
            memory_limit,
            "--plan-file",
            str(plan_file),
            *options,
            str(domain_file),
            str(problem_file),
            *search,
        ]
        start = time.perf_counter()
        planner = subprocess.Popen(
            command,
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            start_new_session=True,
        )
        try:
            output, _ = planner.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(planner.pid, signal.SIGKILL)
            planner.communicate()
            return PlannerRun(None, timeout, True, f"no plan within {timeout:g} s")
        finally:
            if planner.poll() is None:
                os.killpg(planner.pid, signal.SIGKILL)
                planner.wait()
        seconds = time.perf_counter() - start
        if not plan_file.is_file():
            tail = "\n".join(output.strip().splitlines()[-3:])
            return PlannerRun(None, seconds, False, tail)
        actions = [
            line.strip()
            for line in plan_file.read_text().splitlines()
            if line.strip() and not line.startswith(";")
        ]
        return PlannerRun(actions, seconds, False)
