"""``genplan validate``: check a plan file against a domain and problem, VAL-style."""

from __future__ import annotations

import argparse
from pathlib import Path

from genplan.cli.commands import command_help
from genplan.errors import ValidatorError
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import load_problem
from genplan.plans.costs import cost_text
from genplan.plans.failures import FailureKind
from genplan.plans.validate import CHECKERS, check_plan, read_plan_lines


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``validate`` subcommand and its flags to ``subparsers``; return its parser."""
    parser = subparsers.add_parser(
        "validate",
        help=command_help("validate"),
        description="Print the verdict and the plan repair advice; exit 0 when the plan is valid, 1 when not.",
    )
    parser.add_argument("domain", type=Path, help="domain PDDL file")
    parser.add_argument("problem", type=Path, help="problem PDDL file")
    parser.add_argument("plan", type=Path, help="plan file: one action per line, ';' comments allowed")
    parser.add_argument(
        "--checker", choices=CHECKERS, default="auto", help="default: VAL where it can take the plan"
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan validate``; return the exit code (errors surface as GenplanError).

    A failing step is named by the plan file's line; steps count from 1, as VAL counts them, e.g.
    ``plan.txt:4: (stack o3 o2) has an unsatisfied precondition at time 3``. A valid plan of a
    problem with action costs is shown with its total cost (VAL's "Final value").

    Raises:
        ValidatorError: the plan could not be checked within the checker's deadline (no
            verdict: exit status 2, never "invalid").
    """
    problem = load_problem(args.problem, load_domain(args.domain))
    numbered = read_plan_lines(args.plan)
    plan = [action for _, action in numbered]
    verdict = check_plan(problem, plan, checker=args.checker)
    if verdict.notice:
        print(verdict.notice)
    if verdict.valid:
        cost = (
            f", cost {cost_text(verdict.cost)}"
            if problem.minimize_total_cost and verdict.cost is not None
            else ""
        )
        print(f"Plan valid ({len(plan)} actions{cost}; checked by {verdict.checker_used}).")
        return 0
    if verdict.kind is FailureKind.TIMEOUT:
        raise ValidatorError(f"{args.plan}: {verdict.message}; no verdict on the plan")
    kind = verdict.kind.value if verdict.kind else "invalid"
    print(f"Plan invalid ({kind}; checked by {verdict.checker_used}).")
    step = verdict.failing_step
    if step is not None and 0 <= step < len(numbered):
        print(f"{args.plan}:{numbered[step][0]}: {verdict.message}")
    else:
        print(verdict.message)
    return 1
