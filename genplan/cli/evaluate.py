"""``genplan evaluate``: run a program on a domain's evaluation problems and report."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from genplan.cli.arguments import positive_int, positive_seconds
from genplan.cli.problem_options import add_problem_arguments, choose_generators, load_problems
from genplan.cli.sandbox_options import add_isolation_argument, sandbox_limits
from genplan.errors import ConfigurationError


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``evaluate`` subcommand and its flags to ``subparsers``; return its parser."""
    parser = subparsers.add_parser(
        "evaluate",
        help="evaluate a program on a domain's evaluation problems",
        description="Run PROGRAM's get_plan on the evaluation problems in parallel, sandboxed, validate "
        "every plan, and report the fraction solved and the first failure of each kind (Silver et al. 2024, "
        "Sec. 5). Exit code 0 when at least one problem is solved, 1 when none is, 2 on an error.",
    )
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--program", type=Path, help="Python file defining get_plan")
    given.add_argument(
        "--policy", type=Path, help="a lifted decision list (policy.txt of a pg3, pe or pc run) to execute"
    )
    parser.add_argument("--domain", required=True, help="built-in domain name or a folder with domain.pddl")
    add_problem_arguments(parser)
    parser.add_argument(
        "--timeout", type=positive_seconds, default=30.0, help="seconds per problem (default 30)"
    )
    parser.add_argument("--workers", type=positive_int, default=None, help="parallel runs (default: cores)")
    parser.add_argument(
        "--json", type=Path, default=None, help="write per-problem results and the summary here"
    )
    parser.add_argument("--work-dir", type=Path, default=Path("runs"), help="where generated problems go")
    add_isolation_argument(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan evaluate``; return the exit code: 0 when at least one problem is
    solved, 1 when none is (errors surface as GenplanError, exit code 2)."""
    from tqdm import tqdm

    from genplan.approaches.base import problem_key
    from genplan.approaches.generalized_plan.evaluate import evaluate_program, summarize
    from genplan.approaches.generalized_plan.solver import read_program
    from genplan.cli.run import describe_problem_set
    from genplan.pddl.described import DescribedTask

    if args.policy is not None:
        return run_policy(args)
    limits = sandbox_limits(args)  # first: a missing sandbox stops the command at once
    program = read_program(args.program)
    generators, _ = choose_generators(args)
    problems = load_problems(args, args.work_dir, generators=generators)
    if isinstance(problems, DescribedTask):
        raise ConfigurationError(
            f"{args.domain} is a task in English; genplan evaluate runs a program on PDDL problems"
        )
    # Only evaluation problems are used here: the paper's files owe nothing to genplan's generators.
    used_generators = None if problems.problem_set.startswith("paper") else problems.generators
    print(
        f"{problems.name}: {len(problems.evaluation_sources)} evaluation problems, "
        f"{describe_problem_set(problems.problem_set, used_generators)}",
        file=sys.stderr,
    )
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
    rows = [
        {**check.to_json(), "problem": problem_key(problem, problems.root)}
        for check, problem in zip(checks, problems.evaluation)
    ]
    width = max([24, *(len(row["problem"]) for row in rows)])
    for row in rows:
        length = row["plan_length"] if row["plan_length"] is not None else "-"
        print(f"{row['problem']:<{width}} {row['status']:<18} {row['seconds']:>9.4f} s  plan length {length}")
    first_failures: dict[str, dict[str, object]] = {}
    for row in rows:
        if row["status"] != "solved":
            first_failures.setdefault(str(row["status"]), row)
    for status, row in first_failures.items():
        count = summary.statuses[status]
        print(f"{status} ({count} problem{'s' * (count != 1)}), first on {row['problem']}:")
        print(textwrap.indent(reason_excerpt(row["message"]), "    "))
    median = f"{summary.median_seconds:.4f} s" if summary.median_seconds is not None else "n/a"
    print(
        f"Solved {summary.solved}/{summary.total} (fraction {summary.fraction_solved:.2f}); median runtime {median}"
    )
    if args.json is not None:
        report = {
            "summary": summary.to_json(),
            "isolation": limits.isolation.value,
            "domain": problems.name,
            "problem_set": problems.problem_set,
            "generators": used_generators,
            "problems": rows,
        }
        text = json.dumps(report, indent=2) + "\n"
        try:
            args.json.write_text(text)
        except OSError as error:
            raise ConfigurationError(f"cannot write {args.json}: {error.strerror or error}") from error
    return 0 if summary.solved else 1


def run_policy(args: argparse.Namespace) -> int:
    """``genplan evaluate --policy FILE``: execute a saved decision list on the evaluation problems,
    check each plan, print one line per problem and the fraction solved; exit code as :func:`run`.

    Raises:
        ConfigurationError: the file cannot be read or is not a decision list for the domain.
    """
    from genplan.approaches.base import problem_key
    from genplan.approaches.pg3.approach import evaluate_policy
    from genplan.approaches.pg3.policy import parse_policy
    from genplan.pddl.described import DescribedTask

    try:
        text = args.policy.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigurationError(f"cannot read the policy {args.policy}: {error}") from error
    generators, _ = choose_generators(args)
    problems = load_problems(args, args.work_dir, generators=generators)
    if isinstance(problems, DescribedTask):
        raise ConfigurationError(f"{args.domain} is a task in English; a policy runs on PDDL problems")
    policy = parse_policy(text, problems.domain, str(args.policy))
    solved = 0
    rows = []
    for problem in problems.evaluation:
        result = evaluate_policy(policy, problem, problem_key(problem, problems.root), args.timeout)
        solved += result.solved
        rows.append(result.to_json())
        length = result.plan_length if result.plan_length is not None else "-"
        print(f"{result.problem:<24} {result.status:<18} {result.seconds:>9.4f} s  plan length {length}")
    total = len(rows)
    print(f"Solved {solved}/{total} (fraction {solved / total if total else 0.0:.2f})")
    if args.json is not None:
        try:
            args.json.write_text(json.dumps({"domain": problems.name, "problems": rows}, indent=2) + "\n")
        except OSError as error:
            raise ConfigurationError(f"cannot write {args.json}: {error.strerror or error}") from error
    return 0 if solved else 1


def reason_excerpt(message: object, lines: int = 6) -> str:
    """The telling part of a failure message: a traceback's last lines (where and what was
    raised), or the first lines of plan advice; at most ``lines`` lines."""
    text = str(message or "no reason recorded").strip()
    parts = text.splitlines()
    if parts and parts[0].startswith("Traceback"):
        parts = parts[-lines:]
    elif len(parts) > lines:
        parts = [*parts[: lines - 1], "..."]
    return "\n".join(parts)
