"""Benchmark: evaluating saved programs on all seven domains x 30 evaluation problems (issue 5).

Prints the wall time of the evaluation alone (problems are generated and parsed first, outside
the timing), each program running in the sandbox. Target: at most 60 s on 2 cores. Domains
without a saved program are listed and skipped. ``scripts/bench_sandbox.py`` reuses
:func:`evaluation_jobs` and :func:`evaluate_all` for its side-by-side figures.

Run: ``python scripts/bench_evaluate.py``
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from genplan.approaches.generalized_plan.evaluate import evaluate_program, summarize
from genplan.approaches.generalized_plan.solver import saved_programs
from genplan.paths import PAPER_DOMAINS
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import load_domain_problems
from genplan.sandbox import Limits


def evaluation_jobs(work: Path, n: int = 30) -> list[tuple[str, str, list[Problem]]]:
    """``(domain, program source, evaluation problems)`` for each domain with a saved program."""
    jobs = []
    for domain in PAPER_DOMAINS:
        programs = saved_programs(domain)
        if not programs:
            print(f"{domain:<9} no saved program, skipped")
            continue
        problems = load_domain_problems(domain, 0, n, work)
        jobs.append((domain, (programs[0] / "program.py").read_text(), list(problems.evaluation)))
    return jobs


def evaluate_all(
    jobs: list[tuple[str, str, list[Problem]]], limits: Limits | None = None, verbose: bool = True
) -> float:
    """Evaluate every job in the sandbox; the total wall-clock seconds."""
    total = 0.0
    for domain, program, evaluation in jobs:
        start = time.perf_counter()
        summary = summarize(evaluate_program(program, evaluation, timeout=30, limits=limits))
        seconds = time.perf_counter() - start
        total += seconds
        if verbose:
            print(f"{domain:<9} {summary.solved:>2}/{summary.total} solved  {seconds:6.1f} s")
    return total


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        jobs = evaluation_jobs(Path(work))
        total = evaluate_all(jobs)
        print(
            f"total evaluation wall time: {total:.1f} s for {sum(len(j[2]) for j in jobs)} problems (target <= 60 s)"
        )


if __name__ == "__main__":
    main()
