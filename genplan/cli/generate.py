"""``genplan generate``: write seeded training or evaluation problems of a built-in domain."""

from __future__ import annotations

import argparse
from pathlib import Path

from genplan.cli.arguments import non_negative_int, positive_int
from genplan.cli.commands import command_help
from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_names
from genplan.pddl.generate import CURRENT_GENERATORS, GENERATOR_VERSIONS, SPLITS, write_problems


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``generate`` subcommand and its flags to ``subparsers``; return its parser."""
    parser = subparsers.add_parser(
        "generate",
        help=command_help("generate"),
        description="Write training or evaluation problems; the same seed gives byte-identical files.",
    )
    parser.add_argument("--domain", required=True, choices=builtin_domain_names())
    parser.add_argument("--split", required=True, choices=SPLITS)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument(
        "--n",
        type=positive_int,
        default=None,
        help="how many (default: 10 training, 5 for delivery and 4 for forest; 30 evaluation)",
    )
    parser.add_argument(
        "--scale", default="1", help="comma-separated size multipliers for evaluation, e.g. 1,2,8,32,128"
    )
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument(
        "--generators",
        choices=GENERATOR_VERSIONS,
        default=CURRENT_GENERATORS,
        help=f"generator version (default {CURRENT_GENERATORS}, the paper's distributions; v1 is genplan's first "
        "generators, the saved runs' problems)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan generate``; return the exit code (errors surface as GenplanError)."""
    try:
        scales = [int(s) for s in str(args.scale).split(",") if s.strip()]
    except ValueError as error:
        raise ConfigurationError(f"--scale must be comma-separated integers, got {args.scale!r}") from error
    if args.split == "train" and scales != [1]:
        raise ConfigurationError("--scale applies to evaluation problems only")
    total = 0
    for scale in scales:
        paths = write_problems(args.domain, args.split, args.seed, args.out, args.n, scale, args.generators)
        total += len(paths)
        for path in paths:
            print(path)
    print(f"wrote {total} {args.domain} {args.split} problems (seed {args.seed}) to {args.out}")
    return 0
