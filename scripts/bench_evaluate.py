"""Benchmark: evaluating saved programs on all seven domains x 30 evaluation problems (issue 5).

Prints the wall time of the evaluation alone (problems are generated and parsed first, outside
the timing). Target: at most 60 s on 2 cores. Domains without a saved program are listed and
skipped.

Run: ``python scripts/bench_evaluate.py``
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from genplan.approaches.generalized_plan.evaluate import evaluate_program, summarize
from genplan.approaches.generalized_plan.solver import saved_programs
from genplan.paths import PAPER_DOMAINS
from genplan.pddl.problem_sets import load_domain_problems


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        jobs = []
        for domain in PAPER_DOMAINS:
            programs = saved_programs(domain)
            if not programs:
                print(f"{domain:<9} no saved program, skipped")
                continue
            problems = load_domain_problems(domain, 0, 30, Path(work))
            jobs.append((domain, (programs[0] / "program.py").read_text(), list(problems.evaluation)))
        total = 0.0
        for domain, program, evaluation in jobs:
            start = time.perf_counter()
            summary = summarize(evaluate_program(program, evaluation, timeout=30))
            seconds = time.perf_counter() - start
            total += seconds
            print(f"{domain:<9} {summary.solved:>2}/{summary.total} solved  {seconds:6.1f} s")
        print(
            f"total evaluation wall time: {total:.1f} s for {sum(len(j[2]) for j in jobs)} problems (target <= 60 s)"
        )


if __name__ == "__main__":
    main()
