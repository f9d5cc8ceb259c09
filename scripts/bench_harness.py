"""Benchmark: the harness at the speed of its programs (issue 36). Prints every figure of the
issue's targets beside its target, from one run, with the machine's load at the start and the
end; asserts nothing. On a shared machine figures taken under load are upper bounds.

* **Evaluation, sandboxed / in-process**, per built-in domain with a saved program: the saved
  program on 30 evaluation problems (seed 0), every plan checked, in the sandbox and with the
  program run in this process (``load_trusted``), alternating, the median of ``--repeat`` runs
  each. Target: at most 1.3x on every domain.
* **Plan-check share** of the in-process evaluation: the seconds spent in plan checking over the
  seconds spent running programs and checking plans (summed over the worker threads). Target:
  at most 50%.
* **Heavy, call / program**: heavy's saved program on problems of growing size (evaluation
  problems of seed 0 at generator scales 1 to ``--heavy-scales``): the sandbox call
  (``run_program`` on a loaded problem, its arguments packed once) beside the program's own time
  (``get_plan`` in this process on the same sets), each the least of ``--repeat`` runs. Target:
  at most 1.3x at every size.
* **A trivial program's call**: ``get_plan`` returning ``[]``, the median of 100 sandbox calls.
  Target: at most 5 ms.
* **solve / solve --trusted**: ``genplan solve`` on a heavy training problem as a user runs it (a
  fresh interpreter each time), sandboxed and trusted, alternating, median of ``--repeat`` each.
  Target: at most 1.2x.
* **Quality references**: optimal costs (A* with LM-cut) of a ``--quality-problems`` training
  set of ``--quality-domain`` (generated, seed 0, growing sizes) within the default
  ``--quality-budget``: wall time and the longest silence between progress lines. Target:
  within the budget, a line at least every 10 s. ``--quality-problems 0`` skips it.

Run: ``python scripts/bench_harness.py`` (about 10 minutes on 2 cores; needs the ``planner``
extra for the quality references); ``--domains heavy --repeat 1 --quality-problems 0`` for a quick look.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

from bench_evaluate import domain_job
from timing import best_seconds

import genplan.approaches.generalized_plan.checking as checking
from genplan.approaches.generalized_plan.evaluate import evaluate_program, summarize
from genplan.approaches.generalized_plan.plan_quality import OPTIMAL, reference_costs
from genplan.approaches.generalized_plan.settings import QUALITY_BUDGET_SECONDS
from genplan.approaches.generalized_plan.solver import saved_programs
from genplan.paths import PAPER_DOMAINS, builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.generate import generate_problems, write_problems
from genplan.pddl.problem import Problem, bind_problem
from genplan.plans.fast_downward import find_driver
from genplan.runs.observations import Observations
from genplan.sandbox import Limits, RunOutcome, RunStatus, load_trusted, run_program

TRIVIAL = "def get_plan(objects, init, goal):\n    return []\n"


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def _mark(met: bool) -> str:
    return "met" if met else "MISSED"


class _Clock:
    """Seconds summed over threads, per kind of work."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.lock = threading.Lock()

    def timed(self, kind: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                with self.lock:
                    self.seconds[kind] = self.seconds.get(kind, 0.0) + time.perf_counter() - start

        return wrapper


def _in_process(program: str, objects: Any, init: Any, goal: Any, **_: object) -> RunOutcome:
    """``run_program`` without the sandbox: the program in this process."""
    start = time.perf_counter()
    plan = load_trusted(program)(objects, init, goal)
    return RunOutcome(RunStatus.SUCCESS, plan=list(plan), seconds=time.perf_counter() - start)


@contextmanager
def _programs_in_process(clock: _Clock | None = None) -> Iterator[None]:
    run = _in_process if clock is None else clock.timed("run", _in_process)
    check = checking.check_plan if clock is None else clock.timed("check", checking.check_plan)
    with mock.patch.object(checking, "run_program", run), mock.patch.object(checking, "check_plan", check):
        yield


def evaluation(domains: list[str], repeat: int, work: Path) -> None:
    print("evaluation of the saved program on 30 problems, sandboxed / in-process (target <= 1.3x)")
    clock = _Clock()
    limits = Limits()
    for domain in domains:
        job, _ = domain_job(domain, work)
        if job is None:
            print(f"  {domain:<9} no saved program, skipped")
            continue
        _, program, problems = job
        evaluate_program(program, problems, timeout=30, limits=limits)  # warm: workers, VAL, packing
        sandboxed, in_process = [], []
        solved = 0
        for _ in range(repeat):
            start = time.perf_counter()
            solved = summarize(evaluate_program(program, problems, timeout=30, limits=limits)).solved
            sandboxed.append(time.perf_counter() - start)
            with _programs_in_process(clock):
                start = time.perf_counter()
                evaluate_program(program, problems, timeout=30, limits=limits)
                in_process.append(time.perf_counter() - start)
        ratio = statistics.median(sandboxed) / statistics.median(in_process)
        print(
            f"  {domain:<9} {solved:>2}/{len(problems)} solved  sandboxed {statistics.median(sandboxed):6.2f} s  "
            f"in-process {statistics.median(in_process):6.2f} s  {ratio:5.2f}x  {_mark(ratio <= 1.3)}"
        )
    checked, ran = clock.seconds.get("check", 0.0), clock.seconds.get("run", 0.0)
    share = checked / (checked + ran) if checked + ran else 0.0
    print(
        f"plan-check share of the in-process evaluations: {share:.0%} (checking {checked:.1f} s, programs "
        f"{ran:.1f} s, summed over threads; target <= 50%)  {_mark(share <= 0.5)}"
    )


def heavy(scales: int, repeat: int) -> None:
    print("heavy's saved program: the sandbox call / the program's own time (target <= 1.3x)")
    programs = saved_programs("heavy")
    if not programs:
        print("  no saved program for heavy, skipped")
        return
    source = (programs[0] / "program.py").read_text()
    domain = load_domain(builtin_domain_file("heavy"))
    solve = load_trusted(source)
    limits = Limits()
    sizes: list[tuple[str, Problem]] = []
    evaluation = generate_problems("heavy", "eval", 0)
    for index in (0, len(evaluation) // 2, len(evaluation) - 1):
        sizes.append((f"eval-{index:02d}", bind_problem(evaluation[index].problem, domain)))
    scale = 2
    while scale <= scales:
        generated = generate_problems("heavy", "eval", 0, 1, scale=scale)[0]
        sizes.append((f"scale {scale} eval-00", bind_problem(generated.problem, domain)))
        scale *= 2
    worst = 0.0
    for label, problem in sizes:
        own = best_seconds(lambda p=problem: solve(p.objects, p.init, p.goal), repeat)
        first = time.perf_counter()
        run_program(
            source, problem.objects, problem.init, problem.goal, timeout=120, limits=limits, reuse_for=problem
        )
        first = time.perf_counter() - first
        call = best_seconds(
            lambda p=problem: run_program(
                source, p.objects, p.init, p.goal, timeout=120, limits=limits, reuse_for=p
            ),
            repeat,
        )
        worst = max(worst, call / own)
        print(
            f"  {label:<16} {len(problem.object_types):>5} objects {len(problem.init):>7,} atoms  program "
            f"{own * 1000:8.1f} ms  call {call * 1000:8.1f} ms (first, packing: {first * 1000:8.1f} ms)  "
            f"{call / own:5.2f}x  {_mark(call / own <= 1.3)}"
        )
    print(f"  worst {worst:.2f}x")


def trivial() -> None:
    limits = Limits()
    run_program(TRIVIAL, {"a"}, set(), set(), timeout=30, limits=limits)
    times = []
    for _ in range(100):
        start = time.perf_counter()
        run_program(TRIVIAL, {"a"}, set(), set(), timeout=30, limits=limits)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(
        f"a trivial program's sandbox call: median {median * 1000:.2f} ms of 100 (target <= 5 ms)  {_mark(median <= 0.005)}"
    )


def _genplan() -> list[str]:
    script = Path(sys.executable).parent / "genplan"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "genplan"]


def solve(repeat: int, work: Path) -> None:
    problem = write_problems("heavy", "train", 0, work / "heavy-train")[-1]
    command = [*_genplan(), "solve", "--domain", "heavy", str(problem), "-o", str(work / "plan.txt")]
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times: dict[str, list[float]] = {"sandboxed": [], "trusted": []}
    for _ in range(repeat + 1):  # the first pair warms the caches, not counted
        for kind, extra in (("sandboxed", []), ("trusted", ["--trusted"])):
            start = time.perf_counter()
            subprocess.run([*command, *extra], capture_output=True, check=True, cwd=work, env=environment)
            times[kind].append(time.perf_counter() - start)
    sandboxed, trusted = (statistics.median(times[k][1:]) for k in ("sandboxed", "trusted"))
    print(
        f"genplan solve {problem.name} (heavy): sandboxed {sandboxed:.3f} s, --trusted {trusted:.3f} s: "
        f"{sandboxed / trusted:.2f}x (target <= 1.2x)  {_mark(sandboxed / trusted <= 1.2)}"
    )


def quality(domain: str, count: int) -> None:
    if find_driver() is None:
        print("quality references: Fast Downward is not installed (pip install '.[planner]'), skipped")
        return
    parsed = load_domain(builtin_domain_file(domain))
    per_scale = max(1, count // 3)
    generated = [
        g for scale in (1, 2, 3) for g in generate_problems(domain, "train", 0, per_scale, scale=scale)
    ]
    problems = [bind_problem(g.problem, parsed) for g in generated[:count]]
    stamps: list[float] = []
    lines: list[str] = []

    def note(text: str) -> None:
        stamps.append(time.monotonic())
        lines.append(text)

    start = time.monotonic()
    answers = reference_costs(problems, Observations(), budget=QUALITY_BUDGET_SECONDS, note=note)
    wall = time.monotonic() - start
    gaps = [b - a for a, b in zip([start, *stamps], stamps)] + [
        time.monotonic() - (stamps[-1] if stamps else start)
    ]
    found = sum(a.cost is not None and a.kind == OPTIMAL for a in answers)
    planned = sum(a.cost is not None and a.kind != OPTIMAL for a in answers)
    print(
        f"quality references, {len(problems)} {domain} training problems: {wall:.0f} s wall (budget "
        f"{QUALITY_BUDGET_SECONDS:g} s)  {_mark(wall <= QUALITY_BUDGET_SECONDS + 5)}; optimal cost for {found}, LAMA-first for {planned}; "
        f"longest silence {max(gaps):.1f} s (target <= 10 s)  {_mark(max(gaps) <= 10.5)}"
    )
    if lines and lines[-1].startswith("plan quality: no reference cost"):
        print(f"  {lines[-1][:160]}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--domains", default=",".join(PAPER_DOMAINS), help="domains of the evaluation figures"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timed figure")
    parser.add_argument(
        "--heavy-scales", type=int, default=8, help="largest generator scale of heavy's sizes"
    )
    parser.add_argument("--quality-domain", default="blocksworld")
    parser.add_argument("--quality-problems", type=int, default=99)
    args = parser.parse_args()
    print(f"start: {_load()}")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        trivial()
        solve(args.repeat, work)
        heavy(args.heavy_scales, args.repeat)
        evaluation(args.domains.split(","), args.repeat, work)
    if args.quality_problems:
        quality(args.quality_domain, args.quality_problems)
    print(f"end:   {_load()}")


if __name__ == "__main__":
    main()
