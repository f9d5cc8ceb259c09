"""Benchmark: evaluating saved programs on the paper's seven domains x 30 evaluation problems (issues 5, 12).

The timer covers the whole job and says which part is which: generating the problems (as data,
and writing the files as ``genplan`` does), loading them (binding the data to the parsed
domain; no text is parsed), and the evaluation itself (sandboxed runs in parallel, every plan
checked). Target: the evaluation at most 60 s on 2 cores. Domains without a saved program are
listed and skipped. The machine's load is printed beside the figures. ``scripts/bench_sandbox.py``
reuses :func:`evaluation_jobs` and :func:`evaluate_all` for its side-by-side figures.

Run: ``python scripts/bench_evaluate.py``
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from genplan.approaches.generalized_plan.evaluate import evaluate_program, summarize
from genplan.approaches.generalized_plan.solver import saved_programs
from genplan.paths import PAPER_DOMAINS, builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.generate import generate_problems, save_problems
from genplan.pddl.problem import Problem, bind_problem
from genplan.sandbox import Limits

Job = tuple[str, str, list[Problem]]
"""``(domain, program source, evaluation problems)``."""


def domain_job(domain: str, work: Path, n: int = 30) -> tuple[Job | None, dict[str, float]]:
    """The job of one domain (``None`` without a saved program) and the seconds spent generating
    and loading its problems."""
    programs = saved_programs(domain)
    if not programs:
        return None, {}
    program = (programs[0] / "program.py").read_text()
    start = time.perf_counter()
    saved = save_problems(generate_problems(domain, "eval", 0, n), work / domain)
    generated = time.perf_counter()
    parsed = load_domain(builtin_domain_file(domain))
    evaluation = [bind_problem(g.problem, parsed, path) for path, g in saved]
    loaded = time.perf_counter()
    return (domain, program, evaluation), {"generate": generated - start, "load": loaded - generated}


def evaluation_jobs(work: Path, n: int = 30) -> list[Job]:
    """The job of each paper domain with a saved program (others are listed and skipped)."""
    jobs = []
    for domain in PAPER_DOMAINS:
        job, _ = domain_job(domain, work, n)
        if job is None:
            print(f"{domain:<9} no saved program, skipped")
        else:
            jobs.append(job)
    return jobs


def evaluate_all(jobs: list[Job], limits: Limits | None = None, verbose: bool = True) -> float:
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
    argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    ).parse_args()
    print(f"machine: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    start_all = time.perf_counter()
    totals = {"generate": 0.0, "load": 0.0, "evaluate": 0.0}
    problems = 0
    print(f"{'domain':<9} {'solved':>6}  {'generate':>9} {'load':>8} {'evaluate':>9}")
    with tempfile.TemporaryDirectory() as work:
        for domain in PAPER_DOMAINS:
            job, parts = domain_job(domain, Path(work))
            if job is None:
                print(f"{domain:<9} no saved program, skipped")
                continue
            _, program, evaluation = job
            start = time.perf_counter()
            summary = summarize(evaluate_program(program, evaluation, timeout=30, limits=Limits()))
            parts["evaluate"] = time.perf_counter() - start
            for key, seconds in parts.items():
                totals[key] += seconds
            problems += summary.total
            print(
                f"{domain:<9} {summary.solved:>2}/{summary.total}  {parts['generate']:8.2f}s {parts['load']:7.2f}s "
                f"{parts['evaluate']:8.2f}s"
            )
    wall = time.perf_counter() - start_all
    print(
        f"total for {problems} problems: generate {totals['generate']:.1f} s, load {totals['load']:.1f} s, "
        f"evaluate {totals['evaluate']:.1f} s (target <= 60 s); whole benchmark {wall:.1f} s wall"
    )
    print(f"machine: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
