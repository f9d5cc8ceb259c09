"""``--references``: reference costs for the quality score, shared by ``genplan run`` and ``evaluate``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from genplan.cli.arguments import positive_seconds

if TYPE_CHECKING:
    from genplan.pddl.problem import Problem
    from genplan.plans.references import References


def add_reference_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--references FILE|lama-first|optimal`` and ``--reference-timeout``."""
    parser.add_argument(
        "--references",
        default=None,
        metavar="FILE|lama-first|optimal",
        help="best known costs for the quality score: a JSON file (problem key -> cost; keys relative to the "
        "domain folder or prefixed with its name, as the IPC's upper_bounds.json), or costs computed by Fast "
        "Downward's LAMA-first or A* with LM-cut (cached under RUNS_DIR/cache/references); default: "
        "references.json in the domain folder if there is one",
    )
    parser.add_argument(
        "--reference-timeout",
        type=positive_seconds,
        default=60.0,
        help="seconds per problem for --references lama-first|optimal (default 60)",
    )


def chosen_references(
    args: argparse.Namespace,
    problems: Sequence[tuple[str, Problem]],
    folder: Path | None,
    runs_dir: Path,
    domain_name: str | None = None,
) -> References | None:
    """The references the flags ask for (``None`` when none is asked and the folder has none);
    keys in a file may carry the prefix ``domain_name`` (default: the folder's name).

    Raises:
        ConfigurationError: a bad reference file (names it and the key) or no Fast Downward.
    """
    from genplan.plans.references import load_references

    return load_references(
        args.references,
        problems,
        folder=folder,
        cache_dir=runs_dir / "cache" / "references",
        timeout=args.reference_timeout,
        prefix=domain_name,
    )
