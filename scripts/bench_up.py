"""Side by side in unified-planning: the genplan engine, Fast Downward and pyperplan through
``OneshotPlanner`` on the same problems of a built-in domain. Prints figures from one run;
asserts nothing.

Two problem sets, each read by UP's PDDL reader once, outside the timing: the domain's small
training problems (genplan's generators, seed 0, with the built-in domain file) and the paper's
evaluation problems (seed 0, ``domains/<domain>/paper/seed0``, with the paper's domain file),
the first ``--n`` of each. Each engine is
made once (``OneshotPlanner(name=...)``) and then solves every problem with ``solve(problem,
timeout=T)``; the time is that call's wall clock, everything the engine does for the problem
(both PDDL engines write it with UP's writer first; genplan also loads it, runs the program in
its sandbox and checks the plan with VAL before it answers). The engines:

* ``genplan``: the domain's saved program (``params={"program": DOMAIN}``), sandboxed;
* ``fast-downward``: Fast Downward's LAMA-first (the ``up-fast-downward`` engine's default);
* ``pyperplan``: weighted A* with h_add (the ``up-pyperplan`` engine's default), when
  ``up-pyperplan`` is installed. It does not honour a timeout, so it runs in a forked child that
  is killed at ``T`` (its time is measured inside the child).

Every plan any engine returns is checked the same way, by genplan's checker (VAL) on the problem
as UP's writer writes it, and its cost is that check's: a column shows the seconds and the plan
cost, ``invalid`` for a plan the check refused, or the engine's status when it gave no plan. The
machine's load average is printed at the start and the end: on a shared machine the figures
taken under load are upper bounds.

Run: ``python scripts/bench_up.py`` (the ``up`` extra; ``pip install up-pyperplan`` adds the
pyperplan column); ``--domain ferry --n 3 --sets training`` for another domain or a quick look.
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import os
import statistics
import tempfile
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unified_planning.environment import get_environment
from unified_planning.io import PDDLReader
from unified_planning.shortcuts import OneshotPlanner

import genplan.up
from genplan.paths import builtin_domain_file, data_folder
from genplan.pddl.generate import write_problems
from genplan.pddl.problem_sets import natural_key
from genplan.plans.costs import cost_text
from genplan.plans.validate import check_plan
from genplan.up.pddl import pddl_text

ENGINES = ("genplan", "fast-downward", "pyperplan")


@dataclass(frozen=True)
class Answer:
    """One engine's answer to one problem: wall-clock seconds and what the check made of it."""

    seconds: float
    shown: str  # the plan cost, "invalid", or the engine's status
    cost: float | None
    metrics: dict[str, str] | None = (
        None  # the engine's own figures (genplan: program_seconds, check_seconds)
    )


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def _checked(problem: Any, plan: Any, status: str, seconds: float, metrics: dict[str, str] | None) -> Answer:
    """The answer, its plan checked by genplan's checker (VAL) on the problem as UP writes it."""
    if plan is None:
        return Answer(seconds, status.lower(), None, metrics)
    text = pddl_text(problem)
    lines = [line for line in text.writer.get_plan(plan).splitlines() if line.strip()]
    verdict = check_plan(genplan.up.load_up_problem(problem).problem, lines)
    if not verdict.valid or verdict.cost is None:
        return Answer(seconds, "invalid", None, metrics)
    return Answer(seconds, cost_text(verdict.cost), verdict.cost, metrics)


def _solve(planner: Any, problem: Any, timeout: float) -> tuple[Any, str, float, dict[str, str]]:
    start = time.perf_counter()
    result = planner.solve(problem, timeout=timeout)
    return result.plan, result.status.name, time.perf_counter() - start, dict(result.metrics)


def _solve_in_child(name: str, problem: Any, timeout: float) -> tuple[Any, str, float, dict[str, str]]:
    """``name``'s answer from a forked child killed at ``timeout`` (for engines that ignore it)."""
    receive, send = multiprocessing.get_context("fork").Pipe(duplex=False)

    def child() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with OneshotPlanner(name=name) as planner:
                plan, status, seconds, _ = _solve(planner, problem, timeout)
        steps = (
            None
            if plan is None
            else [(str(step.action.name), [str(p) for p in step.actual_parameters]) for step in plan.actions]
        )
        send.send((steps, status, seconds))

    process = multiprocessing.get_context("fork").Process(target=child)
    process.start()
    ready = receive.poll(timeout)
    if not ready:
        process.kill()
        process.join()
        return None, "TIMEOUT", timeout, {}
    steps, status, seconds = receive.recv()
    process.join()
    if steps is None:
        return None, status, seconds, {}
    from unified_planning.plans import ActionInstance, SequentialPlan

    objects = problem.environment.expression_manager
    plan = SequentialPlan(
        [
            ActionInstance(problem.action(a), tuple(objects.ObjectExp(problem.object(o)) for o in args))
            for a, args in steps
        ]
    )
    return plan, status, seconds, {}


def problem_sets(domain: str, count: int, sets: Sequence[str], folder: Path) -> list[tuple[str, Path, Path]]:
    """``(set, domain file, problem file)`` of the first ``count`` problems of each set."""
    chosen = []
    if "training" in sets:
        generated = write_problems(domain, "train", 0, folder)[:count]
        chosen += [("training", builtin_domain_file(domain), path) for path in generated]
    if "paper" in sets:
        paper = data_folder("domains") / domain / "paper" / "seed0"
        files = sorted((p for p in paper.glob("*.pddl") if p.name != "domain.pddl"), key=natural_key)[:count]
        chosen += [("paper", paper / "domain.pddl", path) for path in files]
    return chosen


def run(domain: str, count: int, timeout: float, engines: Sequence[str], sets: Sequence[str]) -> None:
    print(f"Start: {_load()}")
    with tempfile.TemporaryDirectory() as folder:
        chosen = problem_sets(domain, count, sets, Path(folder))
        problems = [PDDLReader().parse_problem(str(d), str(p)) for _, d, p in chosen]
    print(
        f"{domain}: the first {count} of each of {', '.join(sets)} (seed 0); every engine made once; "
        f"timeout {timeout:g} s per solve"
    )
    planners = {}
    for name in engines:
        if name == "pyperplan":
            continue  # made in each forked child
        params = {"program": domain} if name == "genplan" else {}
        planners[name] = OneshotPlanner(name=name, params=params)
    answers: dict[str, list[Answer]] = {name: [] for name in engines}
    header = f"{'problem':<20}{'objects':>8}" + "".join(f"{name + ' s':>16}{'cost':>8}" for name in engines)
    print(header)
    for (kind, _, path), problem in zip(chosen, problems):
        row = f"{kind + '/' + path.stem:<20}{len(problem.all_objects):>8}"
        for name in engines:
            if name == "pyperplan":
                plan, status, seconds, metrics = _solve_in_child(name, problem, timeout)
            else:
                plan, status, seconds, metrics = _solve(planners[name], problem, timeout)
            answer = _checked(problem, plan, status, seconds, metrics)
            answers[name].append(answer)
            row += f"{answer.seconds:>16.3f}{answer.shown:>8}"
        print(row, flush=True)
    for planner in planners.values():
        planner.destroy()
    for name in engines:
        solved = [a for a in answers[name] if a.cost is not None]
        median = statistics.median(a.seconds for a in solved) if solved else float("nan")
        total = sum(a.cost for a in solved if a.cost is not None)
        print(
            f"{name}: {len(solved)}/{len(chosen)} solved with a valid plan; median {median:.3f} s; "
            f"total cost {cost_text(total)} over the problems it solved"
        )
    inside = [a.metrics for a in answers.get("genplan", []) if a.cost is not None and a.metrics]
    if inside:
        program = statistics.median(float(m["program_seconds"]) for m in inside)
        check = statistics.median(float(m["check_seconds"]) for m in inside)
        print(
            f"genplan's solves, medians: the program in its sandbox {program:.3f} s, the plan check "
            f"{check:.3f} s; the rest is writing the problem (UP's writer) and loading it"
        )
    both = [
        (g, f)
        for g, f in zip(answers.get("genplan", []), answers.get("fast-downward", []))
        if g.cost is not None and f.cost is not None
    ]
    if both:
        faster = sum(g.seconds < f.seconds for g, f in both)
        cheaper = sum(g.cost is not None and f.cost is not None and g.cost < f.cost for g, f in both)
        dearer = sum(g.cost is not None and f.cost is not None and g.cost > f.cost for g, f in both)
        print(
            f"genplan beside fast-downward on the {len(both)} both solved: faster on {faster}; "
            f"plan cost lower on {cheaper}, higher on {dearer}, equal on {len(both) - cheaper - dearer}"
        )
    print(f"End: {_load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--domain", default="gripper", help="a built-in domain with the paper's problems and a saved program"
    )
    parser.add_argument("--n", type=int, default=10, help="how many problems of each set (default 10)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per solve (default 30)")
    parser.add_argument(
        "--sets", default="training,paper", help="training, paper or both, comma-separated (default both)"
    )
    args = parser.parse_args()
    get_environment().credits_stream = None
    engines = [name for name in ENGINES if name != "pyperplan" or importlib.util.find_spec("up_pyperplan")]
    run(args.domain, args.n, args.timeout, engines, args.sets.split(","))


if __name__ == "__main__":
    main()
