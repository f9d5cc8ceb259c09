"""Benchmark: how far AutoToS's search gets with *correct* components, beside the generalized plan.

AutoToS solves each problem by BFS over the model's successor function and goal test (Cao et
al., AAAI 2025). To see what the search itself can do, whatever a model writes, this runs the
evaluation harness with the test oracles' correct components (``tests/oracles/components.py``,
test code, used here only as stand-ins for perfect model output) on every training problem and
on the first evaluation problems of each built-in domain, and prints, per domain, the problems
solved, how the others ended, the states expanded, and the saved generalized-plan run's result
on the same evaluation problems.

Run: ``python scripts/bench_autotos_search.py [--budget 60] [--eval 5] [--domains all]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from oracles.components import GOAL, SUCCESSORS  # noqa: E402

from genplan.approaches.autotos.evaluate import solve_problem  # noqa: E402
from genplan.approaches.autotos.sandboxed import sandbox_runner  # noqa: E402
from genplan.approaches.autotos.settings import AutoToSSettings  # noqa: E402
from genplan.approaches.base import ProblemResult  # noqa: E402
from genplan.paths import builtin_domain_names, data_folder  # noqa: E402
from genplan.pddl.problem_sets import load_domain_problems  # noqa: E402
from genplan.sandbox import Isolation, Limits  # noqa: E402


def _line(label: str, results: list[ProblemResult]) -> str:
    solved = [r for r in results if r.solved]
    others = Counter(r.status for r in results if not r.solved)
    seconds = f"median {statistics.median(r.seconds for r in solved):.2f} s" if solved else "-"
    expanded = max((r.details.get("expanded", 0) for r in results), default=0)
    rest = ", ".join(f"{status} {count}" for status, count in sorted(others.items())) or "-"
    return f"  {label:<10} {len(solved):>2}/{len(results):<2} solved ({seconds}); others: {rest}; most expanded {expanded}"


def _generalized_plan(domain: str, count: int) -> str:
    results = data_folder("synthesized") / domain / "main-seed0" / "results.json"
    if not results.is_file():
        return "no saved run"
    rows = json.loads(results.read_text())[:count]
    return f"{sum(r['status'] == 'solved' for r in rows)}/{len(rows)} solved"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per search (the paper's is 600)")
    parser.add_argument("--eval", type=int, default=5, help="evaluation problems per domain")
    parser.add_argument("--domains", default="all")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--isolation", default="bwrap", choices=[i.value for i in Isolation])
    args = parser.parse_args()
    domains = builtin_domain_names() if args.domains == "all" else args.domains.split(",")
    settings = AutoToSSettings(search_seconds=args.budget)
    runner = sandbox_runner(Limits(isolation=Isolation(args.isolation)))
    print(f"BFS over correct components, {args.budget:g} s per search, sandboxed")
    with tempfile.TemporaryDirectory() as work, ThreadPoolExecutor(args.workers) as pool:
        for domain in domains:
            problems = load_domain_problems(domain, 0, args.eval, Path(work))
            program = SUCCESSORS[domain] + "\n" + GOAL

            def run(problem: object, program: str = program) -> ProblemResult:
                return solve_problem(program, problem, problem.name, settings, runner)  # type: ignore[attr-defined]

            training = list(pool.map(run, problems.training))
            evaluation = list(pool.map(run, problems.evaluation))
            sizes = [len(p.object_types) for p in problems.evaluation]
            print(
                f"{domain}: training {len(problems.training[0].object_types)}-{len(problems.training[-1].object_types)} objects, evaluation {min(sizes)}-{max(sizes)}"
            )
            print(_line("training", training))
            print(_line("evaluation", evaluation))
            print(
                f"  generalized plan (saved run, same evaluation problems): {_generalized_plan(domain, args.eval)}"
            )


if __name__ == "__main__":
    main()
