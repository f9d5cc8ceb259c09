"""The problem flags every command that runs on a domain's problems shares, and loading them.

``--seed``, ``--n``, ``--problems``, ``--per-length`` and ``--generators``, for ``genplan run``,
``synthesize`` and ``evaluate`` (``genplan experiments`` takes the same values from its flags
or grid file). The values become a :class:`~genplan.requests.request.RunRequest` (``--problems``
read once into a typed selection, :mod:`genplan.pddl.selection`) that the command then carries.
"""

from __future__ import annotations

import argparse

from genplan.cli.arguments import non_negative_int, positive_int
from genplan.pddl.generate import CURRENT_GENERATORS, GENERATOR_VERSIONS
from genplan.pddl.paper_problems import PAPER_COUNT
from genplan.pddl.selection import PER_LENGTH

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


def add_problem_arguments(
    parser: argparse.ArgumentParser, *, what: str = "evaluation problems", training_only: bool = False
) -> None:
    """Add ``--seed``, ``--n``, ``--problems``, ``--per-length`` and ``--generators`` to ``parser``;
    each defaults to ``None``, so a value not given takes the run request's default
    (:func:`~genplan.requests.request.parse_request`).

    With ``training_only`` (commands that also train: ``run``, ``synthesize``), ``--n 0`` is
    accepted and means no evaluation problems, only the training phase; otherwise ``--n`` is at
    least 1.
    """
    from genplan.requests.request import request_default

    parser.add_argument(
        "--seed", type=non_negative_int, help=f"problem seed (default {request_default('seed')})"
    )
    default = f"default {PAPER_COUNT}, or every evaluation problem of a folder or a shipped --problems set"
    if training_only:
        parser.add_argument(
            "--n", type=non_negative_int, help=f"{what} ({default}; 0: none, only the training phase)"
        )
    else:
        parser.add_argument("--n", type=positive_int, help=f"{what} ({default})")
    parser.add_argument(
        "--problems",
        metavar="SET",
        help=f"evaluation problems other than the generated ones (built-in domains): {SELECTIONS_HELP}",
    )
    parser.add_argument(
        "--per-length",
        type=positive_int,
        help=f"problems per length for --problems by-length (default {PER_LENGTH})",
    )
    parser.add_argument(
        "--generators",
        choices=GENERATOR_VERSIONS,
        help=f"the version of the problem generators of built-in domains: {CURRENT_GENERATORS} (the default) draws "
        "the paper's domains from the distributions of the paper's own problems; v1 is genplan's first generators, "
        "which the saved runs in synthesized/ were made on (a replay of a recorded run uses the version its "
        "metadata.json records)",
    )


PROBLEM_FLAGS = ("seed", "n", "problems", "per_length", "generators")
"""The destinations of the flags :func:`add_problem_arguments` declares (run request values)."""
