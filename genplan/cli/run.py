"""``genplan run --approach NAME --domain D``: run any registered approach on a domain.

The approach's settings are flags of their own (``genplan run --approach NAME --help`` lists
them); the flags become one :class:`~genplan.requests.request.RunRequest`, composed and run by
:func:`~genplan.requests.compose.compose`. :func:`execute` is shared with ``genplan synthesize``,
the paper's name for the generalized-plan approach.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from genplan.approaches import approach_names, get_approach
from genplan.cli.commands import command_help
from genplan.cli.model_options import add_model_arguments
from genplan.cli.request_options import add_run_arguments, request_from_arguments
from genplan.cli.settings_options import add_settings_arguments

if TYPE_CHECKING:  # imported where used, so `genplan --help` and `genplan solve` start fast
    from genplan.approaches.base import Approach, ProblemResult, RunRecord
    from genplan.requests.compose import RunStart
    from genplan.requests.request import RunRequest


def _chosen_approach(argv: Sequence[str] | None) -> str | None:
    """The ``--approach`` named in ``argv``, if any (to add that approach's own flags)."""
    peek = argparse.ArgumentParser(add_help=False)
    peek.add_argument("--approach")
    known, _ = peek.parse_known_args(list(argv or []))
    return known.approach if known.approach in approach_names() else None


def register(
    subparsers: argparse._SubParsersAction, argv: Sequence[str] | None = None
) -> argparse.ArgumentParser:
    """Add the ``run`` subcommand; the approach named in ``argv`` adds its settings' flags."""
    names = approach_names()
    parser = subparsers.add_parser(
        "run",
        help=command_help("run"),
        description="Run a registered approach on a domain's problems and evaluate it. "
        "`genplan run --approach NAME --help` lists that approach's settings.",
    )
    parser.add_argument("--approach", required=True, choices=names, help="the approach to run")
    add_run_arguments(parser)
    add_model_arguments(parser)
    chosen = _chosen_approach(argv)
    if chosen is not None:
        approach = get_approach(chosen)
        add_settings_arguments(parser, approach.settings_type, f"{chosen} settings ({approach.summary})")
    return parser


class _ConsoleProgress:
    """Notes to stderr and a progress bar over evaluation problems."""

    def __init__(self) -> None:
        self.bar: Any = None

    def note(self, text: str) -> None:
        print(f"  {text}", file=sys.stderr)

    def start_problems(self, total: int) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, desc="evaluating", unit="problem", file=sys.stderr, disable=None)

    def problem_done(self, result: ProblemResult) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def print_start(start: RunStart) -> None:
    """What will run, before it runs: the choices' notes (stdout), then one line on stderr."""
    from genplan.pddl.described import DescribedTask
    from genplan.pddl.selection import describe_problem_set

    for line in start.notes:
        print(line)
    problems = start.problems
    what = (
        "a task in English"
        if isinstance(problems, DescribedTask)
        else f"{len(problems.training)} training and {problems.describe_count()} "
        f"({describe_problem_set(problems.problem_set, problems.generators)})"
    )
    print(
        f"genplan: {problems.name}, {start.approach.name} ({start.label}), seed {start.request.seed}, model "
        f"{start.model.name} via {start.model.backend}; {what}; run folder {start.folder}",
        file=sys.stderr,
    )


def execute(request: RunRequest) -> int:
    """Compose and run ``request``, print its record; return the exit code.

    Raises:
        GenplanError: a bad domain, no model set up, or a backend failure (printed by the CLI).
    """
    from genplan.approaches.base import uses_sandbox
    from genplan.cli.sandbox_options import warn_without_bubblewrap
    from genplan.requests.compose import compose

    if uses_sandbox(get_approach(request.approach)):
        warn_without_bubblewrap(request.isolation)
    progress = _ConsoleProgress()
    try:
        run = compose(request, progress=progress, on_start=print_start)
    finally:
        progress.close()
    print_record(run.record, run.approach)
    print(f"Run folder: {run.folder}")
    if run.saved is not None:
        print(run.saved.note)
    return 0


def print_record(record: RunRecord, approach: Approach[Any, Any]) -> None:
    """The run's outcome for a person: what ran, the approach's own lines, evaluation, cost."""
    from genplan.pddl.selection import describe_problem_set

    print(
        f"Domain {record.domain}, approach {record.approach} ({record.label}), seed {record.seed}, "
        f"model {record.model}; problems: {describe_problem_set(record.problem_set, record.generators)}"
    )
    for line in approach.describe(record):
        print(line)
    median = f"{record.median_seconds:.4f} s" if record.median_seconds is not None else "n/a"
    if record.problems:
        print(
            f"Evaluation: {record.solved}/{len(record.problems)} solved (fraction {record.fraction_solved:.2f}); "
            f"median runtime {median}; statuses {record.statuses}; {record.describe_checkers()}"
        )
    else:
        print("Evaluation: none (no evaluation problems: --n 0)")
    by_level = solved_by_level(record)
    if by_level:
        print(
            "By level: "
            + ", ".join(f"{level} {solved}/{total}" for level, (solved, total) in by_level.items())
        )
    feedback = ", ".join(f"{kind} {count}" for kind, count in record.feedback.items()) or "none"
    queries = (
        "" if record.world_model_queries is None else f"; world-model queries {record.world_model_queries}"
    )
    if record.scores is not None:
        from genplan.runs.quality import scores_text

        print(scores_text(record.scores))
    print(f"LLM calls: {record.llm_calls}; feedback: {feedback}{queries}")
    if record.prompt_tokens is None or record.completion_tokens is None:
        print("Tokens: not reported (the answers came without token counts)")
    else:
        print(f"Tokens: {record.prompt_tokens} prompt, {record.completion_tokens} completion")


def solved_by_level(record: RunRecord) -> dict[str, tuple[int, int]]:
    """Solved and total evaluation problems per IPC difficulty level (``easy``, ``medium``,
    ``hard``) of the problem keys, in that order; empty when no key has a level."""
    from genplan.pddl.problem_sets import IPC_LEVELS, problem_level

    counts: dict[str, list[int]] = {}
    for result in record.problems:
        level = problem_level(result.problem)
        if level is not None:
            entry = counts.setdefault(level, [0, 0])
            entry[0] += result.solved
            entry[1] += 1
    return {level: (counts[level][0], counts[level][1]) for level in IPC_LEVELS if level in counts}


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan run``; return the exit code."""
    approach = get_approach(args.approach)
    return execute(request_from_arguments(args, approach.name, approach.settings_type))
