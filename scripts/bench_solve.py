"""Benchmark: ``genplan solve`` beside LAMA-first on small problems, and the sandbox's round trip on
heavy's evaluation problems (issue 27, item 12). Prints figures and targets from one run; asserts
nothing.

* **Small problems**: the three smallest training problems (seed 0) of every built-in domain
  with a saved program, 21 problems. Each is solved as a user meets it, wall clock from process
  start to plan file: ``genplan solve --domain D PROBLEM -o PLAN`` (the console script, a fresh
  interpreter each time, the program in the sandbox) and LAMA-first through Fast Downward's
  driver (``genplan.baselines.lama``: translator and search, a fresh interpreter too). The two
  alternate, ``--repeat`` times each, and each figure is the median. Target: ``genplan solve``
  faster than LAMA-first on every problem both solve.
* **Heavy's evaluation problems**: the 30 evaluation problems of seed 0 (the current generators;
  105 to 224 objects), solved by heavy's saved program in the sandbox (``run_program``), each
  ``--repeat`` times. The program's own time is ``get_plan`` run in-process on the same sets
  (what it costs without a sandbox); the sandbox call is ``run_program``'s wall-clock time; the
  round trip is the call less the program's own time: everything the sandbox adds. Of the round
  trip, the part outside the run (preparing and sending the problem, reading the answer) is the
  call less the run's seconds as genplan records them (the sandbox worker's clock from the fork
  of the run's child to its answer); the rest is inside the run (the fork, confinement,
  compiling the program under the policy, building its sets). Each figure is the least of the
  repeats (the least disturbed run, on a shared machine). Target: round trip at most the
  program's own time on every problem.

The machine's load average is printed at the start and the end: on a shared machine figures
taken under load are upper bounds. Subprocesses run with Python's bytecode cache on (as a user's
installation has it), whatever ``PYTHONDONTWRITEBYTECODE`` says.

Run: ``python scripts/bench_solve.py`` (needs the ``planner`` extra for the LAMA-first column);
``--domains gripper --per-domain 1 --heavy 1 --repeat 1`` for a quick look.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from genplan.approaches.generalized_plan.solver import saved_programs
from genplan.baselines.lama import lama_available, run_lama
from genplan.paths import builtin_domain_file, builtin_domain_names
from genplan.pddl.generate import write_problems
from genplan.pddl.problem import load_problem
from genplan.sandbox import load_trusted, run_program

LAMA_TIMEOUT_SECONDS = 60.0


def _genplan_command() -> list[str]:
    script = Path(sys.executable).parent / "genplan"
    if script.is_file():
        return [str(script)]
    found = shutil.which("genplan")
    return [found] if found else [sys.executable, "-m", "genplan"]


def _wall(command: list[str], cwd: Path) -> float | None:
    """Wall-clock seconds of one run of ``command``; ``None`` when it fails."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True)
    seconds = time.perf_counter() - start
    return seconds if done.returncode == 0 else None


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def _verdict(met: bool) -> str:
    return "target met" if met else "target missed"


def small_problems(domains: Sequence[str], per_domain: int, repeat: int, folder: Path) -> bool | None:
    """Print ``genplan solve`` beside LAMA-first per problem; whether solve was faster on every
    problem both solved (``None`` when none was compared)."""
    genplan = _genplan_command()
    help_times = [_wall([*genplan, "--help"], folder) or 0.0 for _ in range(repeat)]
    print(f"genplan --help: {statistics.median(help_times):.3f} s wall (start-up alone)")
    have_lama = lama_available()
    if not have_lama:
        print("LAMA-first is not installed (pip install '.[planner]'): its column is n/a")
    print(f"{'problem':<24} {'genplan solve':>14} {'LAMA-first':>11}  faster")
    compared = faster = 0
    ours: list[float] = []
    theirs: list[float] = []
    for domain in domains:
        if not saved_programs(domain):
            print(f"{domain:<24} no saved program, skipped")
            continue
        for path in write_problems(domain, "train", 0, folder / domain)[:per_domain]:
            plan = folder / f"{domain}-{path.stem}.plan"
            problem = load_problem(path, builtin_domain_file(domain))
            solve_times: list[float | None] = []
            lama_times: list[float | None] = []
            for _ in range(repeat):  # alternating, so a change of load meets both alike
                solve_times.append(
                    _wall([*genplan, "solve", "--domain", domain, str(path), "-o", str(plan)], folder)
                )
                if have_lama:
                    run = run_lama(problem, timeout=LAMA_TIMEOUT_SECONDS)
                    lama_times.append(run.seconds if run.plan is not None else None)
            solve = (
                None if None in solve_times else statistics.median(t for t in solve_times if t is not None)
            )
            lama = (
                None
                if not lama_times or None in lama_times
                else statistics.median(t for t in lama_times if t)
            )
            both = solve is not None and lama is not None
            if both:
                compared += 1
                faster += solve < lama  # type: ignore[operator]
                theirs.append(lama)  # type: ignore[arg-type]
            if solve is not None:
                ours.append(solve)
            solve_text = f"{solve:.3f} s" if solve is not None else "failed"
            lama_text = f"{lama:.3f} s" if lama is not None else ("no plan" if lama_times else "n/a")
            mark = ("yes" if solve < lama else "no") if both else "-"  # type: ignore[operator]
            print(f"{domain + '/' + path.stem:<24} {solve_text:>14} {lama_text:>11}  {mark}")
    if ours:
        summary = f"median over {len(ours)} problems: genplan solve {statistics.median(ours):.3f} s"
        if theirs:
            summary += f", LAMA-first {statistics.median(theirs):.3f} s"
        print(summary)
    if not compared:
        return None
    print(
        f"genplan solve faster than LAMA-first on {faster} of {compared} problems both solved: "
        f"{_verdict(faster == compared)}"
    )
    return faster == compared


def heavy_round_trips(count: int, repeat: int, folder: Path) -> bool | None:
    """Print, per heavy evaluation problem, the program's own time beside the sandbox's round
    trip; whether the round trip was at most the program's own time on every one."""
    runs = saved_programs("heavy")
    if not runs or count <= 0:
        return None
    source = (runs[0] / "program.py").read_text()
    trusted = load_trusted(source)
    run_program(source, [], [], [])  # the worker is started before the clock runs
    print(f"heavy's saved program {runs[0] / 'program.py'}; times in ms")
    print(
        f"{'problem':<10} {'objects':>7} {'atoms':>6} {'program':>8} {'sandbox call':>13} {'round trip':>11} "
        f"{'outside the run':>16}  within"
    )
    met = 0
    paths = write_problems("heavy", "eval", 0, folder / "heavy-eval")[:count]
    for path in paths:
        problem = load_problem(path, builtin_domain_file("heavy"))
        calls: list[float] = []
        outside: list[float] = []
        direct: list[float] = []
        for _ in range(repeat):
            start = time.perf_counter()
            outcome = run_program(source, problem.objects, problem.init, problem.goal)
            wall = time.perf_counter() - start
            if outcome.plan is None:
                raise SystemExit(
                    f"heavy's program failed on {path.name}: {outcome.status.value} {outcome.reason}"
                )
            calls.append(wall)
            outside.append(wall - outcome.seconds)
            objects, init, goal = set(problem.objects), set(problem.init), set(problem.goal)
            start = time.perf_counter()
            trusted(objects, init, goal)
            direct.append(time.perf_counter() - start)
        program, call = min(direct), min(calls)
        trip = call - program
        within = trip <= program
        met += within
        print(
            f"{path.stem:<10} {len(problem.objects):>7} {len(problem.init):>6} {program * 1000:>8.1f} "
            f"{call * 1000:>13.1f} {trip * 1000:>11.1f} {min(outside) * 1000:>16.1f}  {'yes' if within else 'no'}"
        )
    print(
        f"round trip at most the program's own time on {met} of {len(paths)} heavy evaluation problems: "
        f"{_verdict(met == len(paths))}"
    )
    return met == len(paths)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark (see the module docstring); exit code 0 whatever the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--domains", default=None, help="comma-separated domains (default: every built-in one)"
    )
    parser.add_argument("--per-domain", type=int, default=3, help="smallest training problems per domain (3)")
    parser.add_argument("--heavy", type=int, default=30, help="heavy evaluation problems (30; 0 skips them)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (5)")
    args = parser.parse_args(argv)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # as a user's Python runs: bytecode cached
    domains = args.domains.split(",") if args.domains else builtin_domain_names()
    print(f"machine at the start: {_load()}")
    with tempfile.TemporaryDirectory(prefix="genplan-bench-solve-") as work:
        folder = Path(work)
        fast = small_problems(domains, args.per_domain, args.repeat, folder)
        trips = heavy_round_trips(args.heavy, args.repeat, folder)
    print(f"machine at the end: {_load()}")
    print("targets:")
    print(f"  genplan solve faster than LAMA-first on every small problem both solve: {_target(fast)}")
    print(
        f"  sandbox round trip at most the program's own time on heavy's evaluation problems: {_target(trips)}"
    )
    return 0


def _target(met: bool | None) -> str:
    return "not measured" if met is None else ("met" if met else "missed")


if __name__ == "__main__":
    sys.exit(main())
