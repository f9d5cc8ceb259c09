"""Benchmark: ``genplan solve`` with a saved program on small problems, beside LAMA-first (issue 12).

Both are timed as a user meets them, wall clock from process start to plan file, in one run on
the same problems: ``genplan solve --domain D PROBLEM -o PLAN`` (the console script, a fresh
interpreter each time) and LAMA-first through Fast Downward's driver (``genplan.baselines.lama``,
translator and search). The problems are the three smallest training problems of every
built-in domain with a saved program (seed 0). Also printed: ``genplan --help`` (start-up
alone) and the machine's load, which matters on a shared machine. Target: ``genplan solve`` at
most 0.25 s per small problem. Asserts nothing.

Run: ``python scripts/bench_solve.py`` (needs the ``planner`` extra for the LAMA-first column).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from genplan.approaches.generalized_plan.solver import saved_programs
from genplan.baselines.lama import lama_available, run_lama
from genplan.paths import builtin_domain_file, builtin_domain_names
from genplan.pddl.generate import write_problems
from genplan.pddl.problem import load_problem

REPEAT = 3
TARGET_SECONDS = 0.25


def _genplan_command() -> list[str]:
    script = Path(sys.executable).parent / "genplan"
    if script.is_file():
        return [str(script)]
    found = shutil.which("genplan")
    return [found] if found else [sys.executable, "-m", "genplan"]


def _wall(command: list[str], cwd: Path) -> float:
    """Median wall-clock seconds of ``REPEAT`` runs of ``command`` (each must succeed)."""
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def main() -> None:
    genplan = _genplan_command()
    print(f"machine: {_load()}")
    with tempfile.TemporaryDirectory(prefix="genplan-bench-solve-") as work:
        folder = Path(work)
        help_seconds = _wall([*genplan, "--help"], folder)
        print(f"genplan --help: {help_seconds:.3f} s wall (start-up alone)")
        print(f"{'problem':<24} {'genplan solve':>14} {'LAMA-first':>11}")
        ours: list[float] = []
        theirs: list[float] = []
        for domain in builtin_domain_names():
            if not saved_programs(domain):
                print(f"{domain:<24} no saved program, skipped")
                continue
            paths = write_problems(domain, "train", 0, folder / domain)[:3]
            for path in paths:
                plan = folder / f"{domain}-{path.stem}.plan"
                solve = _wall([*genplan, "solve", "--domain", domain, str(path), "-o", str(plan)], folder)
                ours.append(solve)
                lama_text = "n/a"
                if lama_available():
                    problem = load_problem(path, builtin_domain_file(domain))
                    runs = [run_lama(problem, timeout=60) for _ in range(REPEAT)]
                    lama = statistics.median(r.seconds for r in runs)
                    theirs.append(lama)
                    lama_text = f"{lama:.3f} s"
                print(f"{domain + '/' + path.stem:<24} {solve:>12.3f} s {lama_text:>11}")
        print(
            f"median over {len(ours)} problems: genplan solve {statistics.median(ours):.3f} s "
            f"(target <= {TARGET_SECONDS} s), max {max(ours):.3f} s"
            + (f"; LAMA-first {statistics.median(theirs):.3f} s, max {max(theirs):.3f} s" if theirs else "")
        )
    print(f"machine: {_load()}")


if __name__ == "__main__":
    main()
