"""``genplan evaluate``: run a given program or policy on a domain's evaluation problems and report.

Evaluating is a run like any other: the flags become a :class:`~genplan.requests.request.RunRequest`
for the ``evaluate-program`` or ``evaluate-policy`` approach (their settings' flags generated as
``run``'s are), composed by :func:`~genplan.requests.compose.compose` in a scratch run folder,
so its results are a run record; this module prints and writes them.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import textwrap
import typing
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.cli.arguments import positive_int, positive_seconds
from genplan.cli.commands import command_help
from genplan.cli.problem_options import PROBLEM_FLAGS, add_problem_arguments
from genplan.cli.reference_options import REFERENCE_FLAGS, add_reference_arguments
from genplan.cli.sandbox_options import add_isolation_argument
from genplan.cli.settings_options import add_setting_argument
from genplan.errors import ConfigurationError
from genplan.plans.untrusted_text import shown_text

if TYPE_CHECKING:  # imported where used, so `genplan --help` starts fast
    from genplan.requests.compose import ComposedRun, RunStart

EVALUATE_FLAGS = (
    "domain",
    *PROBLEM_FLAGS,
    "eval_timeout",
    "workers",
    "runs_dir",
    *REFERENCE_FLAGS,
    "isolation",
)
"""The run request values ``evaluate``'s flags set (by destination)."""

PROGRAM, POLICY = "evaluate-program", "evaluate-policy"
"""The approaches ``evaluate`` runs: a given program, or a given policy."""


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``evaluate`` subcommand and its flags to ``subparsers``; return its parser."""
    from genplan.approaches import get_approach
    from genplan.requests.request import request_default

    parser = subparsers.add_parser(
        "evaluate",
        help=command_help("evaluate"),
        description="Run PROGRAM's get_plan on the evaluation problems in parallel, sandboxed, validate "
        "every plan, and report the fraction solved and the first failure of each kind (Silver et al. 2024, "
        "Sec. 5). Exit code 0 when at least one problem is solved, 1 when none is, 2 on an error.",
    )
    given = parser.add_mutually_exclusive_group(required=True)
    for name in (PROGRAM, POLICY):  # the settings' flags: --program and --name-mapping, --policy
        settings_type = get_approach(name).settings_type
        hints = typing.get_type_hints(settings_type)
        for settings_field in fields(settings_type):
            main = settings_field.name in ("program", "policy")
            add_setting_argument(given if main else parser, settings_field, hints[settings_field.name])
    parser.add_argument("--domain", required=True, help="built-in domain name or a folder with domain.pddl")
    add_problem_arguments(parser)
    parser.add_argument(
        "--eval-timeout",
        "--timeout",
        dest="eval_timeout",
        type=positive_seconds,
        help=f"seconds per evaluation problem (default {request_default('eval_timeout'):g}; --timeout is its "
        "old name, deprecated)",
    )
    parser.add_argument("--workers", type=positive_int, help="parallel runs (default: cores)")
    parser.add_argument(
        "--json", type=Path, default=None, help="write per-problem results and the summary here"
    )
    parser.add_argument(
        "--runs-dir",
        "--work-dir",
        dest="runs_dir",
        type=Path,
        help=f"where generated problems go (default ./{request_default('runs_dir')}, as for genplan run; "
        "--work-dir is its old name, deprecated)",
    )
    parser.add_argument(
        "--plans",
        type=Path,
        default=None,
        metavar="DIR",
        help="save every valid plan as DIR/<problem key>.plan (Fast Downward's sas_plan format, cost last)",
    )
    add_reference_arguments(parser)
    add_isolation_argument(parser, default=None)
    return parser


def _print_start(start: RunStart) -> None:
    """The problems to evaluate, on stderr."""
    from genplan.pddl.problem_sets import DomainProblems
    from genplan.pddl.selection import describe_problem_set, shipped

    problems = start.problems
    assert isinstance(problems, DomainProblems)  # the evaluations take PDDL problems only
    # Only evaluation problems are used here: shipped files owe nothing to genplan's generators.
    generators = None if shipped(start.request.selection) else problems.generators
    print(
        f"{problems.name}: {problems.describe_count()}, {describe_problem_set(problems.problem_set, generators)}",
        file=sys.stderr,
    )


class _Bar:
    """A progress bar over the evaluation problems on stderr, and the run's notes."""

    def __init__(self) -> None:
        self.bar: Any = None

    def note(self, text: str) -> None:
        print(text, file=sys.stderr)

    def start_problems(self, total: int) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, desc="evaluating", unit="problem", file=sys.stderr, disable=None)

    def problem_done(self, result: object) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan evaluate``; return the exit code: 0 when at least one problem is
    solved, 1 when none is (errors surface as GenplanError, exit code 2)."""
    from genplan.approaches import get_approach
    from genplan.cli.request_options import request_from_arguments
    from genplan.cli.sandbox_options import warn_without_bubblewrap
    from genplan.requests.compose import compose

    name = POLICY if args.setting_policy is not None else PROGRAM
    # Evaluating trains nothing: no size-check problems are generated.
    request = request_from_arguments(
        args, name, get_approach(name).settings_type, flags=EVALUATE_FLAGS, extra={"size_check": False}
    )
    if name == PROGRAM:
        warn_without_bubblewrap(request.isolation)
    bar = _Bar()
    with tempfile.TemporaryDirectory(prefix="genplan-evaluate-") as scratch:
        try:
            run = compose(replace(request, folder=Path(scratch) / "run"), progress=bar, on_start=_print_start)
        finally:
            bar.close()
    return _report(args, run)


def _report(args: argparse.Namespace, run: ComposedRun) -> int:
    """Print one line per problem (status, seconds, plan length and cost, checker), save the
    valid plans (``--plans``), print the first failure of each kind, the fraction solved with
    the median runtime and who checked the plans, and the scores; write ``--json``; return the
    exit code."""
    from genplan.approaches.base import write_plans
    from genplan.approaches.generalized_plan.evaluate import EvaluationSummary
    from genplan.pddl.selection import shipped
    from genplan.plans.costs import cost_text
    from genplan.runs.quality import scores_text
    from genplan.runs.record import CHECKER_NAMES

    record = run.record
    results = record.problems
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
        f"median runtime {median}; {record.describe_checkers()}"
    )
    scores = record.scores or {}
    print(scores_text(scores))
    if args.json is not None:
        report = {
            "summary": summary.to_json(),
            "isolation": record.isolation,
            "domain": record.domain,
            "problem_set": record.problem_set,
            "generators": None if shipped(run.request.selection) else record.generators,
            "machine": record.machine,
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
