"""``genplan evaluate``: run a program on a domain's evaluation problems and report."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from genplan.cli.arguments import positive_int, positive_seconds
from genplan.cli.commands import command_help
from genplan.cli.problem_options import (
    add_problem_arguments,
    choose_generators,
    load_problems,
    problem_selection,
)
from genplan.cli.reference_options import add_reference_arguments, chosen_references
from genplan.cli.sandbox_options import add_isolation_argument, sandbox_limits
from genplan.errors import ConfigurationError
from genplan.plans.untrusted_text import shown_text


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``evaluate`` subcommand and its flags to ``subparsers``; return its parser."""
    parser = subparsers.add_parser(
        "evaluate",
        help=command_help("evaluate"),
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
        "--eval-timeout",
        "--timeout",
        dest="eval_timeout",
        type=positive_seconds,
        default=30.0,
        help="seconds per evaluation problem (default 30; --timeout is its old name, deprecated)",
    )
    parser.add_argument("--workers", type=positive_int, default=None, help="parallel runs (default: cores)")
    parser.add_argument(
        "--json", type=Path, default=None, help="write per-problem results and the summary here"
    )
    parser.add_argument(
        "--runs-dir",
        "--work-dir",
        dest="runs_dir",
        type=Path,
        default=Path("runs"),
        help="where generated problems go (default ./runs, as for genplan run; --work-dir is its old name, "
        "deprecated)",
    )
    parser.add_argument(
        "--name-mapping",
        type=Path,
        default=None,
        help="a No-Names run's name_mapping.json: the program sees every problem in its names "
        "(default: the name_mapping.json beside the program, if any)",
    )
    parser.add_argument(
        "--plans",
        type=Path,
        default=None,
        metavar="DIR",
        help="save every valid plan as DIR/<problem key>.plan (Fast Downward's sas_plan format, cost last)",
    )
    add_reference_arguments(parser)
    add_isolation_argument(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan evaluate``; return the exit code: 0 when at least one problem is
    solved, 1 when none is (errors surface as GenplanError, exit code 2)."""
    from tqdm import tqdm

    from genplan.approaches.base import ProblemResult, found_plan, problem_key, write_plans
    from genplan.approaches.generalized_plan.evaluate import evaluate_program, summarize
    from genplan.approaches.generalized_plan.renaming import (
        find_name_mapping,
        load_name_mapping,
        plan_to_original,
        rename_problems,
    )
    from genplan.approaches.generalized_plan.solver import read_program
    from genplan.cli.run import describe_problem_set
    from genplan.experiments.quality import scores_json, scores_text
    from genplan.pddl.described import DescribedTask
    from genplan.plans.costs import cost_text
    from genplan.plans.scores import Attempt, score

    if args.policy is not None:
        return run_policy(args)
    limits = sandbox_limits(args)  # first: a missing sandbox stops the command at once
    program = read_program(args.program)
    generators, _ = choose_generators(args)
    problems = load_problems(args, problem_selection(args), args.runs_dir, generators=generators)
    if isinstance(problems, DescribedTask):
        raise ConfigurationError(
            f"{args.domain} is a task in English; genplan evaluate runs a program on PDDL problems"
        )
    # Only evaluation problems are used here: the paper's files owe nothing to genplan's generators.
    used_generators = None if problems.problem_set.startswith(("paper", "planbench")) else problems.generators
    print(
        f"{problems.name}: {problems.describe_count()}, "
        f"{describe_problem_set(problems.problem_set, used_generators)}",
        file=sys.stderr,
    )
    evaluated = list(problems.evaluation)
    mapping_file = find_name_mapping(args.program, args.name_mapping)
    mapping = load_name_mapping(mapping_file) if mapping_file is not None else None
    if mapping_file is not None and mapping is not None:
        evaluated, mapping = rename_problems(evaluated, mapping)  # extended with the problems' names
        print(f"The program sees every problem in the names of {mapping_file} (No Names).", file=sys.stderr)
    keyed = [(problem_key(problem, problems.root), problem) for problem in problems.evaluation]
    references = chosen_references(args, keyed, problems.root, args.runs_dir, problems.name)
    with tqdm(
        total=len(problems.evaluation), desc="evaluating", unit="problem", file=sys.stderr, disable=None
    ) as bar:

        def advance(_check: object, _problem: object) -> None:
            bar.update(1)

        checks = evaluate_program(
            program,
            evaluated,
            timeout=args.eval_timeout,
            workers=args.workers,
            on_result=advance,
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
        cost = cost_text(row["plan_cost"]) if row["plan_cost"] is not None else "-"
        print(
            f"{row['problem']:<{width}} {row['status']:<18} {row['seconds']:>9.4f} s  "
            f"plan length {length}  cost {cost}"
        )
    if args.plans is not None:
        results = [
            ProblemResult(row["problem"], row["status"], row["plan_length"], row["seconds"], plan=plan)
            for row, check, problem in zip(rows, checks, problems.evaluation)
            if check.verdict is not None
            and (
                plan := found_plan(
                    problem,
                    check.verdict,
                    # a No-Names program's plan is saved in the problem's own names
                    plan_to_original(check.outcome.plan, mapping)
                    if mapping is not None and check.outcome.plan is not None
                    else check.outcome.plan,
                )
            )
        ]
        try:
            written = write_plans(args.plans, results)
        except OSError as error:
            raise ConfigurationError(
                f"cannot write plans in {args.plans}: {error.strerror or error}"
            ) from error
        print(f"Saved {len(written)} plans in {args.plans}", file=sys.stderr)
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
    attempts = [
        Attempt(row["problem"], row["plan_cost"], row["seconds"])
        if row["status"] == "solved"
        else Attempt(row["problem"], None, None)
        for row in rows
    ]
    costs = dict(references.costs) if references is not None else {}
    sums = score({"program": attempts}, costs, args.eval_timeout)["program"]
    scores = scores_json(sums, references, args.eval_timeout)
    print(scores_text(scores))
    if args.json is not None:
        report = {
            "summary": summary.to_json(),
            "isolation": limits.isolation.value,
            "domain": problems.name,
            "problem_set": problems.problem_set,
            "generators": used_generators,
            "scores": scores,
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
    problems = load_problems(args, problem_selection(args), args.runs_dir, generators=generators)
    if isinstance(problems, DescribedTask):
        raise ConfigurationError(f"{args.domain} is a task in English; a policy runs on PDDL problems")
    policy = parse_policy(text, problems.domain, str(args.policy))
    solved = 0
    rows = []
    for problem in problems.evaluation:
        result = evaluate_policy(policy, problem, problem_key(problem, problems.root), args.eval_timeout)
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
    raised), or the first lines of plan advice; at most ``lines`` lines, each escaped (no
    terminal control sequences) and capped, since a program controls the text."""
    text = str(message or "no reason recorded").strip()
    parts = text.split("\n")
    if parts and parts[0].startswith("Traceback"):
        parts = parts[-lines:]
    elif len(parts) > lines:
        parts = [*parts[: lines - 1], "..."]
    return "\n".join(shown_text(part, LINE_SHOWN) for part in parts)


LINE_SHOWN = 300
"""Characters of one line of a failure message that ``genplan evaluate`` prints."""
