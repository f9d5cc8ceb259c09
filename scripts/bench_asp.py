"""Benchmark: clingo with correct encodings beside LAMA-first and the saved generalized plans.

The ASP approach can do no better than clingo with a correct encoding of the domain. This
measures that bound on the built-in domains' evaluation problems with the hand-written oracle
encodings of ``tests/oracles/asp/`` (test oracles: they stand in for no model's encoding), and
prints, side by side on the same problems, the fraction solved within the time limit and the
median seconds on solved problems of

* clingo (genplan's interface and frame, horizon 0, 1, 2, ... so the plans have the fewest
  steps; wall clock including the isolated child process, and clingo's own time),
* LAMA-first (Fast Downward, ``genplan.baselines.lama``; skipped when not installed),
* the saved generalized plan (``synthesized/<domain>/main-seed0/program.py``, sandboxed).

Every plan is checked with VAL. Problems run one at a time, so timings are not disturbed by
each other.

Run: ``python scripts/bench_asp.py [--domains gripper,ferry] [--n 30] [--eval-timeout 30] [--growth 1]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from oracles.asp_encodings import DOMAINS, oracle_encoding  # noqa: E402

from genplan.approaches.asp.interface import AspNames, action_text, problem_facts  # noqa: E402
from genplan.approaches.asp.solver import Clingo, ClingoStatus  # noqa: E402
from genplan.approaches.generalized_plan.checking import check_program  # noqa: E402
from genplan.approaches.generalized_plan.solver import saved_programs  # noqa: E402
from genplan.baselines import lama_available, run_lama  # noqa: E402
from genplan.pddl.problem_sets import load_domain_problems  # noqa: E402
from genplan.plans.validate import check_plan  # noqa: E402
from genplan.sandbox import Limits  # noqa: E402


def _median(times: list[float | None]) -> str:
    solved = [t for t in times if t is not None]
    return f"{statistics.median(solved):.3g} s" if solved else "-"


def _cell(times: list[float | None]) -> str:
    return f"{sum(t is not None for t in times)}/{len(times)} {_median(times):>9}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", default=",".join(DOMAINS))
    parser.add_argument("--n", type=int, default=30, help="evaluation problems per domain (default 30)")
    parser.add_argument(
        "--eval-timeout",
        "--timeout",
        dest="eval_timeout",
        type=float,
        default=30.0,
        help="seconds per evaluation problem (default 30; --timeout is its old name, deprecated)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--growth", type=float, default=1.0, help="clingo's horizon growth factor (default 1)"
    )
    parser.add_argument("--max-horizon", type=int, default=130)
    parser.add_argument("--no-lama", action="store_true")
    args = parser.parse_args()
    use_lama = lama_available() and not args.no_lama
    clingo = Clingo()
    print(
        f"{args.n} evaluation problems per domain, seed {args.seed}, {args.eval_timeout:g} s each; "
        f"solved/problems and median seconds on solved problems; clingo horizon growth {args.growth:g}"
    )
    header = f"{'domain':<9} | {'clingo (oracle)':>15} | {'clingo own':>10} | {'LAMA-first':>15} | {'saved program':>15}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as work:
        for domain in args.domains.split(","):
            problems = load_domain_problems(domain, args.seed, args.n, Path(work))
            encoding = oracle_encoding(domain)
            saved = saved_programs(domain)
            program = (saved[0] / "program.py").read_text() if saved else None
            asp: list[float | None] = []
            own: list[float | None] = []
            lama: list[float | None] = []
            generalized: list[float | None] = []
            for problem in problems.evaluation:
                names = AspNames.for_problems(problem.domain, [problem])
                result = clingo.plan(
                    encoding,
                    problem_facts(problem, names),
                    max_horizon=args.max_horizon,
                    time_limit=args.eval_timeout,
                    growth=args.growth,
                    distinct=True,
                )
                plan = [action_text(names.pddl_atom(a.flat)) for a in result.actions if a.flat is not None]
                ok = result.status is ClingoStatus.SAT and check_plan(problem, plan).valid
                asp.append(result.wall_seconds if ok else None)
                own.append(result.seconds if ok else None)
                if use_lama:
                    started = time.perf_counter()
                    planned = run_lama(problem, args.eval_timeout)
                    ok = planned.plan is not None and check_plan(problem, planned.plan).valid
                    lama.append(time.perf_counter() - started if ok else None)
                if program is not None:
                    check = check_program(program, problem, timeout=args.eval_timeout, limits=Limits())
                    generalized.append(check.seconds if check.solved else None)
            print(
                f"{domain:<9} | {_cell(asp):>15} | {_median(own):>10} | "
                f"{_cell(lama) if use_lama else 'not installed':>15} | "
                f"{_cell(generalized) if program else 'none saved':>15}",
                flush=True,
            )


if __name__ == "__main__":
    main()
