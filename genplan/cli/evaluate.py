"""``genplan evaluate``: run a program on a domain's evaluation problems and report."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tqdm import tqdm

from genplan.approaches.generalized_plan.evaluate import evaluate_program, summarize
from genplan.cli.sandbox_options import add_isolation_argument, sandbox_limits
from genplan.pddl.problem_sets import load_domain_problems


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``evaluate`` subcommand and its flags to ``subparsers``; return its parser."""
    parser = subparsers.add_parser(
        "evaluate",
        help="evaluate a program on a domain's evaluation problems",
        description="Run PROGRAM's get_plan on the evaluation problems in parallel, sandboxed, validate "
        "every plan, and report the fraction solved (Silver et al. 2024, Sec. 5).",
    )
    parser.add_argument("--program", type=Path, required=True, help="Python file defining get_plan")
    parser.add_argument("--domain", required=True, help="built-in domain name or a folder with domain.pddl")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n", type=int, default=30, help="evaluation problems (default 30)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per problem (default 30)")
    parser.add_argument("--workers", type=int, default=None, help="parallel runs (default: cores)")
    parser.add_argument(
        "--json", type=Path, default=None, help="write per-problem results and the summary here"
    )
    parser.add_argument("--work-dir", type=Path, default=Path("runs"), help="where generated problems go")
    add_isolation_argument(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan evaluate``; return the exit code (errors surface as GenplanError)."""
    limits = sandbox_limits(args)
    problems = load_domain_problems(args.domain, args.seed, args.n, args.work_dir)
    program = args.program.read_text()
    with tqdm(
        total=len(problems.evaluation), desc="evaluating", unit="problem", file=sys.stderr, disable=None
    ) as bar:
        checks = evaluate_program(
            program,
            problems.evaluation,
            timeout=args.timeout,
            workers=args.workers,
            on_result=lambda _check, _problem: bar.update(1),
            limits=limits,
        )
    summary = summarize(checks)
    for check in checks:
        row = check.to_json()
        length = row["plan_length"] if row["plan_length"] is not None else "-"
        print(f"{row['problem']:<24} {row['status']:<18} {row['seconds']:>9.4f} s  plan length {length}")
    median = f"{summary.median_seconds:.4f} s" if summary.median_seconds is not None else "n/a"
    print(
        f"Solved {summary.solved}/{summary.total} (fraction {summary.fraction_solved:.2f}); median runtime {median}"
    )
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                {
                    "summary": summary.to_json(),
                    "isolation": limits.isolation.value,
                    "problems": [c.to_json() for c in checks],
                },
                indent=2,
            )
            + "\n"
        )
    return 0
