"""The LAMA-first baseline: Fast Downward (``--alias lama-first``) from the ``up-fast-downward`` package.

The package ships the planner and runs offline; install it with ``pip install "genplan[planner]"``.
The planner runs as a subprocess (argument list, no shell) in a temporary folder that is
always removed, under a wall-clock budget and a memory limit. Fast Downward's driver starts the
translator and the search as processes of its own, so the planner gets a session of its own and
a time-out kills the whole process group: otherwise a translator left behind keeps running (and
growing: 19 GB after 11 minutes on a 128x miconic problem) beside later measurements. Its plan is
returned for validation like any other.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from genplan.pddl.problem import Problem


@dataclass(frozen=True)
class LamaResult:
    """Outcome of one planner run.

    Attributes:
        plan: the plan found (``None`` if none).
        seconds: wall-clock seconds, the full budget on a time-out (as Figure 3 counts it).
        timed_out: the budget ran out.
        message: the planner's last output lines when it found no plan.
    """

    plan: list[str] | None
    seconds: float
    timed_out: bool
    message: str = ""


def _driver() -> Path | None:
    # Found without importing: the package's __init__ needs unified-planning, the planner does not.
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        driver = Path(location) / "downward" / "fast-downward.py"
        if driver.is_file():
            return driver
    return None


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
        raise RuntimeError('LAMA-first needs the up-fast-downward package: pip install "genplan[planner]"')
    with tempfile.TemporaryDirectory(prefix="genplan-lama-") as folder:
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
            "--alias",
            "lama-first",
            str(domain_file),
            str(problem_file),
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
            return LamaResult(None, timeout, True, f"no plan within {timeout:g} s")
        finally:
            if planner.poll() is None:
                os.killpg(planner.pid, signal.SIGKILL)
                planner.wait()
        seconds = time.perf_counter() - start
        if not plan_file.is_file():
            tail = "\n".join(output.strip().splitlines()[-3:])
            return LamaResult(None, seconds, False, tail)
        actions = [
            line.strip()
            for line in plan_file.read_text().splitlines()
            if line.strip() and not line.startswith(";")
        ]
        return LamaResult(actions, seconds, False)
