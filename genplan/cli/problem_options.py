"""The problem flags every command that runs on a domain's problems shares, and loading them.

``--seed``, ``--n``, ``--problems``, ``--per-length`` and ``--generators``, for ``genplan run``,
``synthesize`` and ``evaluate`` (``genplan experiments`` takes the same values from its flags
or grid file). ``--problems`` is read once, right after argparse, by :func:`problem_selection`
into a typed selection (:mod:`genplan.pddl.selection`) that the command then carries.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from genplan.cli.arguments import non_negative_int, positive_int
from genplan.pddl.generate import CURRENT_GENERATORS, GENERATOR_VERSIONS

if TYPE_CHECKING:  # imported where used, so `genplan --help` and `genplan solve` start fast
    from genplan.llm.spec import BackendSpec
    from genplan.pddl.described import DescribedTask
    from genplan.pddl.problem_sets import DomainProblems
    from genplan.pddl.selection import Selection

SELECTIONS_HELP = (
    "paper: the paper's own evaluation problems (Silver et al. 2024, seed 0, shipped with genplan; the first "
    "--n), for fractions solved comparable with its Table 1; planbench, planbench-hard: PlanBench's problems "
    "shipped with genplan (blocksworld: 501 and 110; logistics: planbench, 286, with PlanBench's own domain; "
    "the first --n, default all); by-length:L1,L2,...: --per-length generated problems of each optimal plan "
    "length; planbench:by-length:L1,L2,...: the first --per-length PlanBench problems (file order) of each "
    "optimal plan length (planbench:by-length:2,4,6,8,10,12 for SymPlanner's Table 1); small: --n problems of "
    "the training size (Gonzalez-Pumariaga et al.'s Logistics and Gripper problems); by-length and small label optimal plan "
    "lengths with Fast Downward's A* and LM-cut, cached in RUNS_DIR/cache/optimal. Training problems stay the "
    "generated ones (but PlanBench's Logistics brings its own domain and trains on its 10 smallest)"
)
"""What ``--problems`` takes (:func:`genplan.pddl.selection.parse_selection` reads it)."""

DEFAULT_EVALUATION = 30
"""``--n``'s default for a built-in domain or a selection: the paper's 30 evaluation problems
(Silver et al. 2024, Sec. 5.1); a folder's default is every evaluation problem it holds."""


def add_problem_arguments(
    parser: argparse.ArgumentParser, *, what: str = "evaluation problems", training_only: bool = False
) -> None:
    """Add ``--seed``, ``--n``, ``--problems``, ``--per-length`` and ``--generators`` to ``parser``.

    With ``training_only`` (commands that also train: ``run``, ``synthesize``), ``--n 0`` is
    accepted and means no evaluation problems, only the training phase; otherwise ``--n`` is at
    least 1.
    """
    parser.add_argument("--seed", type=non_negative_int, default=0, help="problem seed (default 0)")
    default = (
        f"default {DEFAULT_EVALUATION}, or every evaluation problem of a folder or a shipped --problems set"
    )
    if training_only:
        parser.add_argument(
            "--n",
            type=non_negative_int,
            default=None,
            help=f"{what} ({default}; 0: none, only the training phase)",
        )
    else:
        parser.add_argument("--n", type=positive_int, default=None, help=f"{what} ({default})")
    parser.add_argument(
        "--problems",
        default=None,
        metavar="SET",
        help=f"evaluation problems other than the generated ones (built-in domains): {SELECTIONS_HELP}",
    )
    parser.add_argument(
        "--per-length",
        type=positive_int,
        default=20,
        help="problems per length for --problems by-length (default 20)",
    )
    parser.add_argument(
        "--generators",
        choices=GENERATOR_VERSIONS,
        default=None,
        help=f"the version of the problem generators of built-in domains: {CURRENT_GENERATORS} (the default) draws "
        "the paper's domains from the distributions of the paper's own problems; v1 is genplan's first generators, "
        "which the saved runs in synthesized/ were made on (a replay of a recorded run uses the version its "
        "metadata.json records)",
    )


def problem_selection(args: argparse.Namespace) -> Selection | None:
    """The ``--problems`` selection, or ``None`` for the generated problems; a command calls this
    once, right after argparse, and carries the object.

    Raises:
        ConfigurationError: a malformed ``--problems``, ``--per-length`` or ``--n``.
    """
    from genplan.pddl.selection import parse_selection

    spec = getattr(args, "problems", None)
    if spec is None:
        return None
    return parse_selection(spec, per_length=args.per_length, count=args.n)  # None: each set's default


def choose_generators(args: argparse.Namespace, backend: BackendSpec | None = None) -> tuple[str, str | None]:
    """The generator version to use and, when it was taken from a recording, a note to print.

    ``--generators`` wins; else a replay (``backend`` with a recording) uses the version the
    recorded run used, since its prompts show that version's training problems; else the
    current version.
    """
    from genplan.approaches.base import recorded_generators

    if args.generators is not None:
        return args.generators, None
    if backend is not None and backend.recording is not None:
        recorded = recorded_generators(backend.recording)
        if recorded is not None and recorded != CURRENT_GENERATORS:
            return recorded, (
                f"The recording was made on problems of the generators {recorded}; using them "
                f"(--generators {CURRENT_GENERATORS} for the current ones)."
            )
    return CURRENT_GENERATORS, None


def load_problems(
    args: argparse.Namespace,
    selection: Selection | None,
    work_folder: Path,
    *,
    generators: str,
    size_check: bool = False,
) -> DomainProblems | DescribedTask:
    """The problems the flags ask for (``--domain``, ``--seed``, ``--n``) with ``selection`` (the
    parsed ``--problems``), generated under ``work_folder`` by generator version ``generators``,
    optimal lengths cached in ``work_folder/cache/optimal``, or the task in English ``--domain``
    names (see :func:`genplan.pddl.selection.load_chosen_problems`).

    Raises:
        ConfigurationError, PddlError: a bad domain or selection, or a selection of a task in English.
    """
    from genplan.pddl.selection import load_chosen_problems
    from genplan.plans.optimal import optimal_lengths_under

    return load_chosen_problems(
        args.domain,
        args.seed,
        args.n,  # None: every problem of a folder, else the paper's 30 (a selection carries its own)
        selection,
        work_folder,
        labeller=optimal_lengths_under(work_folder),
        size_check=size_check,
        generators=generators,
    )
