"""Benchmark: one evaluation grid (saved programs, 7 domains x 30 problems, one task per
problem) sequentially, on a local process pool and on the embedded Dask cluster (issue 17).

Problems are generated and parsed first, outside the timings. Printed side by side: wall time
of each engine (the pool and Dask also with their start-up and shut-down), Dask against the
pool (target: at most 1.2x), and, from the per-task times measured in the sequential run, how
the wall time falls with more workers (a greedy schedule of the measured tasks; overheads
aside). Every engine must give the same statuses.

Run: ``python scripts/bench_grid.py [--workers 2] [--n 30]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from genplan.approaches.generalized_plan.solver import saved_programs
from genplan.experiments.engines import DaskEngine, PoolEngine, SequentialEngine, usable_cores
from genplan.experiments.evaluation import EvaluationJob, evaluate_jobs, makespan
from genplan.paths import builtin_domain_names
from genplan.pddl.problem_sets import load_domain_problems


def load_jobs(n: int, work: Path) -> list[EvaluationJob]:
    jobs = []
    for domain in builtin_domain_names():
        programs = saved_programs(domain)
        if not programs:
            print(f"{domain:<9} no saved program, skipped")
            continue
        problems = load_domain_problems(domain, 0, n, work)
        jobs.append(
            EvaluationJob(domain, (programs[0] / "program.py").read_text(), tuple(problems.evaluation), 30.0)
        )
    return jobs


def statuses(results: dict[str, list[dict]]) -> dict[str, list[str]]:
    return {name: [r["status"] for r in rows] for name, rows in results.items()}


def timed_runs(jobs: list[EvaluationJob], workers: int) -> dict[str, tuple[float, float, dict]]:
    """One run of each engine: ``name -> (run seconds, seconds with start and stop, results)``."""
    runs = {}
    started = time.perf_counter()
    results = evaluate_jobs(jobs, SequentialEngine())
    seconds = time.perf_counter() - started
    runs["sequential"] = (seconds, seconds, results)
    for name, make in (
        ("pool", lambda: PoolEngine(workers)),
        ("dask", lambda: DaskEngine(workers, dashboard=None)),
    ):
        started = time.perf_counter()
        engine = make()
        ready = time.perf_counter()
        results = evaluate_jobs(jobs, engine)
        finished = time.perf_counter()
        engine.close()
        runs[name] = (finished - ready, time.perf_counter() - started, results)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--workers", type=int, default=usable_cores(), help="pool and Dask workers (default: cores)"
    )
    parser.add_argument("--n", type=int, default=30, help="evaluation problems per domain (default 30)")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="rounds of all three engines, interleaved; the best of each counts",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        started = time.perf_counter()
        jobs = load_jobs(args.n, Path(work))
        tasks = sum(len(job.problems) for job in jobs)
        print(
            f"{len(jobs)} domains, {tasks} tasks; problems parsed in {time.perf_counter() - started:.0f} s (not timed)"
        )
        load_before = os.getloadavg()[0]
        rounds = [timed_runs(jobs, args.workers) for _ in range(args.repeat)]
        load_after = os.getloadavg()[0]
    print(
        f"load average {load_before:.1f} before and {load_after:.1f} after, on {usable_cores()} cores "
        "(other work on the machine slows every engine; the best round of each counts)"
    )

    reference = statuses(rounds[0]["sequential"][2])
    same = all(statuses(r[name][2]) == reference for r in rounds for name in r)
    solved = sum(status == "solved" for rows in reference.values() for status in rows)
    print(
        f"\nsolved {solved}/{tasks} in every engine and round: {'yes' if same else 'NO: the engines disagree'}"
    )
    print(
        f"\n{'engine':<28} {'workers':>7} {'best run s':>10} {'with start/stop s':>18}   every round (run s)"
    )
    labels = {
        "sequential": "sequential (this process)",
        "pool": "process pool",
        "dask": "Dask, embedded LocalCluster",
    }
    best = {}
    for name, label in labels.items():
        run = min(r[name][0] for r in rounds)
        total = min(r[name][1] for r in rounds)
        best[name] = (run, total)
        workers = 1 if name == "sequential" else args.workers
        every = ", ".join(f"{r[name][0]:.1f}" for r in rounds)
        print(f"{label:<28} {workers:>7} {run:>10.1f} {total:>18.1f}   {every}")
    print(
        f"\nDask / pool: {best['dask'][0] / best['pool'][0]:.2f}x running, "
        f"{best['dask'][1] / best['pool'][1]:.2f}x with start-up and shut-down (target <= 1.2x)"
    )

    fastest = min(rounds, key=lambda r: r["sequential"][0])["sequential"][2]
    times = [r["task_seconds"] for job in jobs for r in fastest[job.name]]
    per_domain = {job.name: sum(r["task_seconds"] for r in fastest[job.name]) for job in jobs}
    print(
        f"\nper-task seconds (best sequential round): total {sum(times):.1f}, median {statistics.median(times):.3f}, "
        f"max {max(times):.2f}; by domain: " + ", ".join(f"{d} {s:.1f}" for d, s in per_domain.items())
    )
    print("projected wall time from these tasks (greedy schedule, overheads aside):")
    for workers in (1, 2, 4, 8, 16, 32, 64):
        seconds = makespan(times, workers)
        print(f"  {workers:>3} workers: {seconds:7.1f} s  (speed-up {sum(times) / seconds:5.1f}x)")


if __name__ == "__main__":
    main()
