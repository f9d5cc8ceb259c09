"""``genplan synthesize``: the paper's name for ``genplan run --approach generalized-plan``.

Synthesize a generalized plan for a domain, evaluate it, save it (Silver et al. 2024, Sec. 4-5).
Its flags are ``run``'s, with the generalized plan's settings generated from
:class:`~genplan.approaches.generalized_plan.settings.SynthesisSettings` as ``run`` generates
them: the paper's ablations (``--no-cot``, ``--no-debug``, ``--no-names``; also spelled
``--no-chain-of-thought``, ``--no-debugging``), ``--timeout`` (seconds per training run) and the
mechanisms beyond the paper, each off by default.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from genplan.cli.commands import command_help
from genplan.cli.model_options import add_model_arguments
from genplan.cli.request_options import add_run_arguments, request_from_arguments
from genplan.cli.run import execute
from genplan.cli.settings_options import add_settings_arguments

if TYPE_CHECKING:  # imported where used, so `genplan --help` and `genplan solve` start fast
    from genplan.requests.request import RunRequest

APPROACH = "generalized-plan"
"""The approach ``synthesize`` runs."""


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``synthesize`` subcommand and its flags to ``subparsers``; return its parser."""
    from genplan.approaches.generalized_plan.settings import SynthesisSettings

    parser = subparsers.add_parser(
        "synthesize",
        help=command_help("synthesize"),
        description="Prompt a language model for a Python get_plan program (chain of thought), debug it on the "
        "training problems with automated feedback, and evaluate it (Silver et al. 2024, Sec. 4-5). "
        "The same as `genplan run --approach generalized-plan`.",
    )
    add_run_arguments(parser)
    add_settings_arguments(
        parser,
        SynthesisSettings,
        "generalized-plan settings (the paper's protocol by default; those beyond the paper are each off, "
        "so each is an ablation)",
    )
    add_model_arguments(parser)
    return parser


def request_from(args: argparse.Namespace) -> RunRequest:
    """The run request of ``genplan synthesize``'s flags: ``run --approach generalized-plan``'s.

    Raises:
        ConfigurationError: a bad value or combination of settings (named).
    """
    from genplan.approaches.generalized_plan.settings import SynthesisSettings

    return request_from_arguments(args, APPROACH, SynthesisSettings)


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan synthesize``; return the exit code (errors surface as GenplanError)."""
    return execute(request_from(args))


def build_parser_for_tests() -> argparse.ArgumentParser:
    """A stand-alone parser with this command's flags (for tests and embedding)."""
    parser = argparse.ArgumentParser(prog="genplan")
    subparsers = parser.add_subparsers()
    return register(subparsers)
