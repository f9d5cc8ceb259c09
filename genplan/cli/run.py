"""``genplan run --approach NAME --domain D``: run any registered approach on a domain.

The approach's settings are flags of their own (``genplan run --approach NAME --help`` lists
them); :func:`execute` is shared with ``genplan synthesize``, the paper's name for the
generalized-plan approach.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.approaches import approach_names, get_approach
from genplan.cli.arguments import positive_int, positive_seconds
from genplan.cli.commands import command_help
from genplan.cli.model_options import (
    add_model_arguments,
    backend_from_arguments,
    build_model,
    choose_backend,
    no_model,
)
from genplan.cli.problem_options import (
    add_problem_arguments,
    choose_generators,
    load_problems,
    problem_selection,
)
from genplan.cli.reference_options import add_reference_arguments, chosen_references
from genplan.cli.sandbox_options import add_isolation_argument, sandbox_limits
from genplan.cli.settings_options import add_settings_arguments, settings_from_arguments
from genplan.errors import ConfigurationError
from genplan.pddl.problem_sets import domain_short_name

if TYPE_CHECKING:  # imported where used, so `genplan --help` and `genplan solve` start fast
    from genplan.approaches.base import Approach, ProblemResult, RunRecord
    from genplan.llm.spec import BackendSpec
    from genplan.pddl.selection import Selection


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags every approach run shares: the domain, problems, budgets, run folder, saving."""
    parser.add_argument(
        "--domain",
        required=True,
        help="built-in domain name or a folder with domain.pddl (or, for approaches that read English, "
        "with description.md, e.g. mcp)",
    )
    add_problem_arguments(parser, training_only=True)
    parser.add_argument(
        "--no-size-check",
        action="store_true",
        help="train on the training problems only, as the paper did (default: also check one evaluation-sized "
        "problem last, which catches correct but slow programs)",
    )
    parser.add_argument(
        "--eval-timeout",
        type=positive_seconds,
        default=30.0,
        help="seconds per evaluation problem (default 30)",
    )
    parser.add_argument(
        "--workers", type=positive_int, default=None, help="parallel evaluation runs (default: cores)"
    )
    parser.add_argument(
        "--runs-dir", type=Path, default=Path("runs"), help="where run folders go (default ./runs)"
    )
    parser.add_argument(
        "--save",
        action="store_true",
        help="copy the run's conversation, artifacts and results beside the saved runs: synthesized/<domain>/ of "
        "the source checkout genplan runs from, else ./synthesized/<domain>/; a new run never replaces a saved "
        "one (it gets the next free <label>-seed<S>-<N>), and a replay of a saved run is not saved again",
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="with --save: replace the saved run of this label and seed"
    )
    add_reference_arguments(parser)
    add_isolation_argument(parser)


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


def run_domain_name(args: argparse.Namespace, selection: Selection | None) -> str:
    """The domain folder of a run: the domain's short name, plus the ``selection`` when problems
    were chosen (``gripper-paper``, ``blocksworld-by-length-4-8-12-x2``), so runs on different
    problem sets never share a folder or a saved recording."""
    name = domain_short_name(args.domain)
    return name if selection is None else f"{name}-{selection.slug()}"


def execute(args: argparse.Namespace, approach: Approach, settings: Any) -> int:
    """Run ``approach`` with ``settings`` as the flags say, print its record; return the exit code.

    Raises:
        GenplanError: a bad domain, no model set up, or a backend failure (printed by the CLI).
    """
    from genplan.approaches.base import (
        RunContext,
        asks_model,
        check_capabilities,
        problem_key,
        run_folder,
        save_run,
        uses_sandbox,
        write_record,
    )
    from genplan.experiments.quality import score_records, scores_json
    from genplan.pddl.described import DescribedTask
    from genplan.pddl.domain import load_domain
    from genplan.pddl.problem_sets import described_folder, resolve_domain
    from genplan.sandbox import Isolation, Limits

    label = approach.label(settings)
    selection = problem_selection(args)  # --problems, read once and carried from here on
    domain_name = run_domain_name(args, selection)  # first: a misspelt domain is the error to report
    english = described_folder(args.domain) is not None
    check_capabilities(approach, domain=args.domain, english=english, isolation=Isolation(args.isolation))
    domain_folder = None if english else resolve_domain(args.domain)
    if domain_folder is not None:  # a domain genplan cannot read or model stops the run before any model
        load_domain(domain_folder / "domain.pddl")
    model_asked = asks_model(approach)  # pg3, pe and pc ask none
    backend: BackendSpec | None = None
    note: str | None = None
    try:
        if model_asked:  # before the problems: fail fast
            backend, note = choose_backend(backend_from_arguments(args), domain_name, label, args.seed)
    except ConfigurationError as error:  # no model and no saved run of this selection
        from genplan.cli.saved_replays import replay_note
        from genplan.runs.saved import replayed_conversation

        base = domain_short_name(args.domain)
        conversation, covering = replayed_conversation(
            approach.name, base, domain_name, label, args.seed, selection
        )
        if covering is None:  # nothing saved to replay: say what is saved
            raise ConfigurationError(
                replay_note(approach.name, base, domain_name, args.seed) + str(error)
            ) from error
        backend = backend_from_arguments(args).replaying(conversation)
        note = (
            f"No model set up: replaying the recorded conversation of the saved run "
            f"{covering.folder.parent.name}/{covering.folder.name}, whose problems include yours."
        )
    generators, generators_note = choose_generators(args, backend)
    # The sandbox handle, built once; checked (a missing bubblewrap stops the run before the
    # model) only for an approach that runs model-written code in it.
    limits = sandbox_limits(args) if uses_sandbox(approach) else Limits()
    runs_dir: Path = args.runs_dir
    chosen = build_model(backend, args.cache_dir or runs_dir / "cache") if backend is not None else no_model()
    problems = load_problems(
        args, selection, runs_dir, generators=generators, size_check=not args.no_size_check
    )
    for line in (note, generators_note, chosen.note):
        if line:
            print(line)
    folder = run_folder(runs_dir, domain_name, label, args.seed)
    what = (
        "a task in English"
        if isinstance(problems, DescribedTask)
        else f"{len(problems.training)} training and {problems.describe_count()} "
        f"({describe_problem_set(problems.problem_set, problems.generators)})"
    )
    print(
        f"genplan: {problems.name}, {approach.name} ({label}), seed {args.seed}, model {chosen.name} via "
        f"{chosen.backend}; {what}; run folder {folder}",
        file=sys.stderr,
    )
    progress = _ConsoleProgress()
    context = RunContext(
        folder=folder,
        seed=args.seed,
        model_name=chosen.name,
        backend_name=chosen.backend,
        eval_timeout=args.eval_timeout,
        workers=args.workers,
        progress=progress,
        limits=limits,
        recorded=backend.recorded_folder if backend is not None else None,
    )
    references = None
    if not isinstance(problems, DescribedTask):  # before the run: a bad reference file stops it first
        keyed = [(problem_key(problem, problems.root), problem) for problem in problems.evaluation]
        references = chosen_references(args, keyed, problems.root, runs_dir, problems.name)
    try:
        record = approach.run(problems, chosen.model, settings, context)  # capabilities checked above
    finally:
        progress.close()
    if not isinstance(problems, DescribedTask) and record.problems:
        sums = score_records({record.approach: record}, references, args.eval_timeout)[record.approach]
        record.scores = scores_json(sums, references, args.eval_timeout)
        write_record(folder, record)
    print_record(record, approach)
    print(f"Run folder: {folder}")
    if args.save:
        print(save_run(folder, domain_name, label, args.seed, overwrite=args.overwrite).note)
    return 0


def describe_problem_set(problem_set: str | None, generators: str | None) -> str:
    """The problem set for a person: ``generated (generators v2)``, ``paper (the paper's seed-0
    evaluation problems; training problems from generators v2)``."""
    from genplan.pddl.described import ENGLISH

    made = f"generators {generators}" if generators else None
    if problem_set == "generated":
        return f"generated ({made})"
    if problem_set is not None and problem_set.startswith("paper"):
        training = f"; training problems from {made}" if made else ""
        return f"{problem_set} (the paper's seed-0 evaluation problems{training})"
    if problem_set is not None and problem_set.startswith("planbench"):
        training = f"; training problems from {made}" if made else ""
        return f"{problem_set} (PlanBench's problems, shipped with genplan{training})"
    if problem_set is None:
        return "not recorded"
    if problem_set == ENGLISH:
        return "a task in English"
    return f"{problem_set} ({made})" if made else problem_set


def print_record(record: RunRecord, approach: Approach) -> None:
    """The run's outcome for a person: what ran, the approach's own lines, evaluation, cost."""
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
        from genplan.experiments.quality import scores_text

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
    try:
        settings = settings_from_arguments(args, approach.settings_type)
    except (TypeError, ValueError) as error:
        raise ConfigurationError(f"{approach.name} settings: {error}") from error
    return execute(args, approach, settings)
