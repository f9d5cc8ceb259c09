"""``genplan evaluate``: run a program on a domain's evaluation problems and report."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:  # imported where used, so `genplan --help` starts fast
    from genplan.approaches.base import ProblemResult
    from genplan.pddl.problem import Problem
    from genplan.pddl.problem_sets import DomainProblems
    from genplan.plans.references import References
    from genplan.runs.machine import MachineWatch
    from genplan.sandbox import Limits


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
    from genplan.approaches.base import problem_key
    from genplan.cli.run import describe_problem_set
    from genplan.pddl.described import DescribedTask
    from genplan.runs.machine import MachineWatch

    machine = MachineWatch()  # the load beside the seconds the report gives

    # First: a missing sandbox stops a program's evaluation at once (a policy runs no model code).
    limits = sandbox_limits(args) if args.policy is None else None
    generators, _ = choose_generators(args)
    problems = load_problems(args, problem_selection(args), args.runs_dir, generators=generators)
    if isinstance(problems, DescribedTask):
        what = "a program" if args.policy is None else "a policy"
        raise ConfigurationError(f"{args.domain} is a task in English; {what} runs on PDDL problems")
    # Only evaluation problems are used here: the paper's files owe nothing to genplan's generators.
    used_generators = None if problems.problem_set.startswith(("paper", "planbench")) else problems.generators
    print(
        f"{problems.name}: {problems.describe_count()}, "
        f"{describe_problem_set(problems.problem_set, used_generators)}",
        file=sys.stderr,
    )
    keyed = [(problem_key(problem, problems.root), problem) for problem in problems.evaluation]
    references = chosen_references(args, keyed, problems.root, args.runs_dir, problems.name)
    if args.policy is not None:
        results = _policy_results(args, problems, keyed)
    else:
        assert limits is not None
        results = _program_results(args, keyed, limits)
    return _report(
        args,
        results,
        references,
        {
            "isolation": limits.isolation.value if limits is not None else None,
            "domain": problems.name,
            "problem_set": problems.problem_set,
            "generators": used_generators,
        },
        machine,
    )


def _program_results(
    args: argparse.Namespace, keyed: list[tuple[str, Problem]], limits: Limits
) -> list[ProblemResult]:
    """Run ``--program`` on every problem in the sandbox, ``--workers`` at once, and check
    every plan; a No Names program sees the problems renamed and its plans are kept in the
    problems' own names."""
    from genplan.approaches.generalized_plan.evaluate import evaluate_program
    from genplan.approaches.generalized_plan.renaming import (
        find_name_mapping,
        load_name_mapping,
        plan_to_original,
        rename_problems,
    )
    from genplan.approaches.generalized_plan.solver import read_program

    program = read_program(args.program)
    evaluated = [problem for _, problem in keyed]
    mapping_file = find_name_mapping(args.program, args.name_mapping)
    mapping = load_name_mapping(mapping_file) if mapping_file is not None else None
    if mapping_file is not None and mapping is not None:
        evaluated, mapping = rename_problems(evaluated, mapping)  # extended with the problems' names
        print(f"The program sees every problem in the names of {mapping_file} (No Names).", file=sys.stderr)
    with _progress(len(keyed)) as advance:
        checks = evaluate_program(
            program,
            evaluated,
            timeout=args.eval_timeout,
            workers=args.workers,
            on_result=lambda _check, _problem: advance(),
            limits=limits,
        )
    return [
        check.to_result(
            key,
            problem,
            # a No-Names program's plan is kept in the problem's own names
            plan_to_original(check.outcome.plan, mapping)
            if mapping is not None and check.outcome.plan is not None
            else None,
        )
        for check, (key, problem) in zip(checks, keyed)
    ]


def _policy_results(
    args: argparse.Namespace, problems: DomainProblems, keyed: list[tuple[str, Problem]]
) -> list[ProblemResult]:
    """Execute the decision list of ``--policy`` on every problem, ``--workers`` at once, and
    check every plan (PG3, PE and PC's evaluation, :func:`~genplan.approaches.pg3.approach.
    evaluate_policy`).

    Raises:
        ConfigurationError: the file cannot be read or is not a decision list for the domain.
    """
    from concurrent.futures import ThreadPoolExecutor

    from genplan.approaches.pg3.approach import evaluate_policy
    from genplan.approaches.pg3.policy import parse_policy
    from genplan.runs.session import default_workers

    try:
        text = args.policy.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigurationError(f"cannot read the policy {args.policy}: {error}") from error
    policy = parse_policy(text, problems.domain, str(args.policy))
    with _progress(len(keyed)) as advance:

        def one(pair: tuple[str, Problem]) -> ProblemResult:
            result = evaluate_policy(policy, pair[1], pair[0], args.eval_timeout)
            advance()
            return result

        workers = max(1, min(args.workers or default_workers(), len(keyed) or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(one, keyed))


@contextmanager
def _progress(total: int) -> Iterator[Callable[[], None]]:
    """A progress bar over ``total`` problems on stderr; yields the function that advances it."""
    from tqdm import tqdm

    with tqdm(total=total, desc="evaluating", unit="problem", file=sys.stderr, disable=None) as bar:

        def advance() -> None:
            bar.update(1)

        yield advance


def _report(
    args: argparse.Namespace,
    results: list[ProblemResult],
    references: References | None,
    header: dict[str, object],
    machine: MachineWatch,
) -> int:
    """Print one line per problem (status, seconds, plan length and cost, checker), save the
    valid plans (``--plans``), print the first failure of each kind, the fraction solved with
    the median runtime and who checked the plans, and the scores; write ``--json``; return the
    exit code."""
    from genplan.approaches.base import write_plans
    from genplan.approaches.generalized_plan.evaluate import EvaluationSummary
    from genplan.experiments.quality import score_records, scores_json, scores_text
    from genplan.plans.costs import cost_text
    from genplan.runs.record import CHECKER_NAMES, RunRecord, describe_checkers

    summary = EvaluationSummary.of_results(results)
    rows = [result.to_json() for result in results]
    width = max([24, *(len(row["problem"]) for row in rows)])
    for row in rows:
        length = row["plan_length"] if row["plan_length"] is not None else "-"
        cost = cost_text(row["plan_cost"]) if row["plan_cost"] is not None else "-"
        checker = CHECKER_NAMES.get(row["checked_by"], "-") if row["checked_by"] else "-"
        print(
            f"{row['problem']:<{width}} {row['status']:<18} {row['seconds']:>9.4f} s  "
            f"plan length {length}  cost {cost}  checked by {checker}"
        )
    if args.plans is not None:
        try:
            written = write_plans(args.plans, results)
        except OSError as error:
            raise ConfigurationError(
                f"cannot write plans in {args.plans}: {error.strerror or error}"
            ) from error
        print(f"Saved {len(written)} plans in {args.plans}", file=sys.stderr)
    first_failures: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row["status"] != "solved":
            first_failures.setdefault(str(row["status"]), row)
    for status, row in first_failures.items():
        count = summary.statuses[status]
        print(f"{status} ({count} problem{'s' * (count != 1)}), first on {row['problem']}:")
        print(textwrap.indent(reason_excerpt(row["message"]), "    "))
    median = f"{summary.median_seconds:.4f} s" if summary.median_seconds is not None else "n/a"
    print(
        f"Solved {summary.solved}/{summary.total} (fraction {summary.fraction_solved:.2f}); "
        f"median runtime {median}; {describe_checkers(results)}"
    )
    record = RunRecord("evaluate", "", {}, "", 0, "", "", "", problems=results)
    sums = score_records({"evaluate": record}, references, args.eval_timeout)["evaluate"]
    scores = scores_json(sums, references, args.eval_timeout)
    print(scores_text(scores))
    if args.json is not None:
        report = {
            "summary": summary.to_json(),
            **header,
            "machine": machine.figures(),
            "scores": scores,
            "problems": rows,
        }
        text = json.dumps(report, indent=2) + "\n"
        try:
            args.json.write_text(text)
        except OSError as error:
            raise ConfigurationError(f"cannot write {args.json}: {error.strerror or error}") from error
    return 0 if summary.solved else 1


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
