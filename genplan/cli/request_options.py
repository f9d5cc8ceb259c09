"""The flags every run shares, and the run request they make (``run``, ``synthesize``, ``evaluate``).

The flags are declared here with no defaults of their own: a value not given takes the default
of its :class:`~genplan.requests.request.RunRequest` field (their help reads it there), and
:func:`request_from_arguments` hands the values to the one parser,
:func:`~genplan.requests.request.parse_request`.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.cli.arguments import positive_int, positive_seconds
from genplan.cli.model_options import MODEL_FLAGS, backend_from_arguments
from genplan.cli.problem_options import PROBLEM_FLAGS, add_problem_arguments
from genplan.cli.reference_options import REFERENCE_FLAGS, add_reference_arguments
from genplan.cli.sandbox_options import add_isolation_argument
from genplan.cli.settings_options import chosen_settings

if TYPE_CHECKING:  # imported where used, so `genplan --help` and `genplan solve` start fast
    from genplan.requests.request import RunRequest

RUN_FLAGS = (
    "domain", *PROBLEM_FLAGS, "size_check", "eval_timeout", "workers", "runs_dir", "save", "overwrite",
    *REFERENCE_FLAGS, "isolation",
)  # fmt: skip
"""The destinations of the flags :func:`add_run_arguments` declares (run request values)."""


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags every approach run shares: the domain, problems, budgets, run folder, saving,
    references and isolation."""
    from genplan.requests.request import request_default

    parser.add_argument(
        "--domain",
        required=True,
        help="built-in domain name or a folder with domain.pddl (or, for approaches that read English, "
        "with description.md, e.g. mcp)",
    )
    add_problem_arguments(parser, training_only=True)
    parser.add_argument(
        "--no-size-check",
        dest="size_check",
        action="store_false",
        default=None,
        help="train on the training problems only, as the paper did (default: also check one evaluation-sized "
        "problem last, which catches correct but slow programs)",
    )
    parser.add_argument(
        "--eval-timeout",
        type=positive_seconds,
        help=f"seconds per evaluation problem (default {request_default('eval_timeout'):g})",
    )
    parser.add_argument("--workers", type=positive_int, help="parallel evaluation runs (default: cores)")
    parser.add_argument(
        "--runs-dir", type=Path, help=f"where run folders go (default ./{request_default('runs_dir')})"
    )
    parser.add_argument(
        "--save",
        action="store_true",
        default=None,
        help="copy the run's conversation, artifacts and results beside the saved runs: synthesized/<domain>/ of "
        "the source checkout genplan runs from, else ./synthesized/<domain>/; a new run never replaces a saved "
        "one (it gets the next free <label>-seed<S>-<N>), and a replay of a saved run is not saved again",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        default=None,
        help="with --save: replace the saved run of this label and seed",
    )
    add_reference_arguments(parser)
    add_isolation_argument(parser, default=None)


def request_from_arguments(
    args: argparse.Namespace,
    approach: str,
    settings_type: type,
    *,
    flags: tuple[str, ...] = RUN_FLAGS,
    extra: Mapping[str, Any] | None = None,
) -> RunRequest:
    """The run request the flags make for ``approach`` (its settings from the
    ``setting_<field>`` flags), parsed once by :func:`~genplan.requests.request.parse_request`.

    Args:
        flags: the request values the command declares (by destination).
        extra: values the command fixes itself (``evaluate``'s ``size_check``).

    Raises:
        ConfigurationError: a bad value or combination (named).
    """
    from genplan.requests.request import parse_request

    values: dict[str, Any] = {name: getattr(args, name, None) for name in flags}
    values.update(approach=approach, settings=chosen_settings(args, settings_type), **(extra or {}))
    if any(hasattr(args, name) for name in MODEL_FLAGS):
        values["backend"] = backend_from_arguments(args)
        values["cache_dir"] = getattr(args, "cache_dir", None)
    return parse_request(values, where=approach)
