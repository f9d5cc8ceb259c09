"""Benchmark: plan quality of the saved generalized plans, beside LAMA-first, as the IPC scores it.

For every built-in PDDL domain with saved programs (``synthesized/<domain>/*/program.py``, but
for No Names programs, which expect obfuscated names), on
the domain's evaluation problems (seed 0, the generators the saved run recorded), this prints
the IPC quality and agile scores (:mod:`genplan.plans.scores`, sums over the problems) of

* every saved program (sandboxed, ``--timeout`` seconds per problem, every plan checked), and
* LAMA-first (Fast Downward) on the same problems,

against two references: LAMA-first's costs and optimal costs (A* with LM-cut within
``--optimal-timeout`` seconds; problems it does not finish have no reference, and C* is then
the best plan compared). C* is always at most the best compared plan (the IPC rule). It also
prints each saved program's mean quality against optimal costs on its **training** problems,
the figure that picks the domains for quality-feedback runs (``--quality-feedback``).

Reference costs are cached under ``RUNS_DIR/cache/references`` (``--runs-dir``, default
``runs``), so a second run is fast.

Run: ``python scripts/bench_quality.py [--domains gripper,miconic] [--n 30] [--timeout 30]
[--optimal-timeout 60]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from genplan.approaches.base import problem_key
from genplan.approaches.generalized_plan.checking import check_program
from genplan.approaches.generalized_plan.solver import saved_programs
from genplan.baselines import lama_available, run_lama
from genplan.paths import builtin_domain_names
from genplan.pddl.problem_sets import CURRENT_GENERATORS, load_domain_problems
from genplan.plans.references import planner_references
from genplan.plans.scores import Attempt, quality_score, score
from genplan.plans.validate import check_plan


def _generators(run: Path) -> str:
    try:
        value = json.loads((run / "metadata.json").read_text()).get("generators")
    except (OSError, ValueError):
        value = None
    return value if isinstance(value, str) else CURRENT_GENERATORS


def _program_attempts(program: str, problems: list, keys: list[str], timeout: float) -> list[Attempt]:
    attempts = []
    for key, problem in zip(keys, problems):
        check = check_program(program, problem, timeout=timeout)
        cost = check.verdict.cost if check.solved and check.verdict is not None else None
        attempts.append(Attempt(key, cost, check.seconds if cost is not None else None))
    return attempts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--domains", default=None, help="comma-separated (default: every built-in PDDL domain)"
    )
    parser.add_argument("--n", type=int, default=30, help="evaluation problems per domain (default 30)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per problem (default 30)")
    parser.add_argument("--optimal-timeout", type=float, default=60.0, help="A* LM-cut seconds per problem")
    parser.add_argument("--runs-dir", type=Path, default=Path("runs"))
    args = parser.parse_args()
    if not lama_available():
        raise SystemExit('this benchmark needs Fast Downward: pip install "genplan[planner]"')
    cache = args.runs_dir / "cache" / "references"
    domains = args.domains.split(",") if args.domains else builtin_domain_names()
    print(
        f"{args.n} evaluation problems per domain, seed 0, {args.timeout:g} s each (agile T = {args.timeout:g} s); "
        f"optimal references A* LM-cut within {args.optimal_timeout:g} s; quality and agile: sums over the problems"
    )
    header = (
        "| domain | program | solved | quality vs LAMA | quality vs optimal | agile | "
        "LAMA solved | LAMA quality vs optimal | LAMA agile | optimal known | training quality vs optimal |"
    )
    print(header)
    print("|" + "|".join(" --- " for _ in range(11)) + "|")
    training_quality: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as work:
        for domain in domains:
            runs = [run for run in saved_programs(domain) if "no-names" not in run.name]  # obfuscated names
            if not runs:
                continue
            problems = load_domain_problems(
                domain, 0, args.n, Path(work) / domain, generators=_generators(runs[0])
            )
            evaluation = list(problems.evaluation)
            keys = [problem_key(p, problems.root) for p in evaluation]
            keyed = list(zip(keys, evaluation))
            optimal = planner_references("optimal", keyed, cache_dir=cache, timeout=args.optimal_timeout)
            lama_attempts = []
            for key, problem in keyed:
                planned = run_lama(problem, args.timeout)
                verdict = check_plan(problem, planned.plan) if planned.plan is not None else None
                cost = verdict.cost if verdict is not None and verdict.valid else None
                lama_attempts.append(Attempt(key, cost, planned.seconds if cost is not None else None))
            lama_costs = {a.problem: a.cost for a in lama_attempts}
            training = list(problems.training)
            training_keyed = [(p.name, p) for p in training]
            training_optimal = planner_references(
                "optimal", training_keyed, cache_dir=cache, timeout=args.optimal_timeout
            )
            for run in runs:
                program = (run / "program.py").read_text()
                attempts = _program_attempts(program, evaluation, keys, args.timeout)
                compared = {"program": attempts, "lama": lama_attempts}
                versus_lama = score(compared, lama_costs, args.timeout)
                versus_optimal = score(compared, optimal.costs, args.timeout)
                train = _program_attempts(program, training, [p.name for p in training], args.timeout)
                ratios = [
                    quality_score(a.cost, training_optimal.costs.get(a.problem))
                    for a in train
                    if training_optimal.costs.get(a.problem) is not None
                ]
                mean_training = statistics.mean(ratios) if ratios else float("nan")
                name = f"{domain}/{run.name}"
                training_quality[name] = mean_training
                solved = sum(a.cost is not None for a in attempts)
                lama_solved = sum(a.cost is not None for a in lama_attempts)
                known = sum(c is not None for c in optimal.costs.values())
                row = [
                    domain,
                    run.name,
                    f"{solved}/{len(attempts)}",
                    f"{versus_lama['program'].quality.get('all', 0):.2f}",
                    f"{versus_optimal['program'].quality.get('all', 0):.2f}",
                    f"{versus_optimal['program'].agile.get('all', 0):.2f}",
                    f"{lama_solved}/{len(lama_attempts)}",
                    f"{versus_optimal['lama'].quality.get('all', 0):.2f}",
                    f"{versus_optimal['lama'].agile.get('all', 0):.2f}",
                    f"{known}/{len(keys)}",
                    f"{mean_training:.3f} ({len(ratios)}/{len(training)})",
                ]
                print("| " + " | ".join(row) + " |", flush=True)
    lowest = sorted(training_quality.items(), key=lambda item: item[1])[:5]
    print("\nLowest mean training quality against optimal costs:")
    for name, value in lowest:
        print(f"  {name}: {value:.3f}")


if __name__ == "__main__":
    main()
