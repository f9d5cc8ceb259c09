"""``--references``: reference costs for the quality score, shared by ``genplan run`` and ``evaluate``."""

from __future__ import annotations

import argparse

from genplan.cli.arguments import positive_seconds

REFERENCE_FLAGS = ("references", "reference_timeout")
"""The destinations of the flags :func:`add_reference_arguments` declares (run request values)."""


def add_reference_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--references FILE|lama-first|optimal`` and ``--reference-timeout`` (default ``None``:
    the run request's default)."""
    from genplan.requests.request import request_default

    parser.add_argument(
        "--references",
        metavar="FILE|lama-first|optimal",
        help="best known costs for the quality score: a JSON file (problem key -> cost; keys relative to the "
        "domain folder or prefixed with its name, as the IPC's upper_bounds.json), or costs computed by Fast "
        "Downward's LAMA-first or A* with LM-cut (cached under RUNS_DIR/cache/references); default: "
        "references.json in the domain folder if there is one",
    )
    parser.add_argument(
        "--reference-timeout",
        type=positive_seconds,
        help=f"seconds per problem for --references lama-first|optimal "
        f"(default {request_default('reference_timeout'):g})",
    )
