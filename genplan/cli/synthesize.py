"""``genplan synthesize``: the paper's name for ``genplan run --approach generalized-plan``.

Synthesize a generalized plan for a domain, evaluate it, save it (Silver et al. 2024, Sec. 4-5),
with the paper's ablation flags (``--no-cot``, ``--no-debug``, ``--no-names``) and the
mechanisms beyond the paper (``--scaling-feedback``, ``--candidates``, ``--check-strategy``,
``--reflect``, ``--shuffles``), each off by default.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from genplan.cli.arguments import non_negative_int, positive_int, positive_seconds
from genplan.cli.commands import command_help
from genplan.cli.model_options import add_model_arguments
from genplan.cli.run import add_run_arguments, execute
from genplan.errors import ConfigurationError

if TYPE_CHECKING:  # imported where used, so `genplan --help` and `genplan solve` start fast
    from genplan.approaches.generalized_plan.synthesize import SynthesisSettings


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``synthesize`` subcommand and its flags to ``subparsers``; return its parser."""
    parser = subparsers.add_parser(
        "synthesize",
        help=command_help("synthesize"),
        description="Prompt a language model for a Python get_plan program (chain of thought), debug it on the "
        "training problems with automated feedback, and evaluate it (Silver et al. 2024, Sec. 4-5). "
        "The same as `genplan run --approach generalized-plan`.",
    )
    add_run_arguments(parser)
    parser.add_argument(
        "--no-cot", action="store_true", help="ablation: no domain summary or strategy prompts"
    )
    parser.add_argument(
        "--no-debug", action="store_true", help="ablation: use the first program, no feedback"
    )
    parser.add_argument("--no-names", action="store_true", help="ablation: obfuscate every name")
    parser.add_argument(
        "--feedback-rounds", type=non_negative_int, default=4, help="feedback rounds at most (default 4)"
    )
    parser.add_argument(
        "--timeout", type=positive_seconds, default=30.0, help="seconds per training run (default 30)"
    )
    beyond = parser.add_argument_group(
        "beyond the paper", "each off by default (the paper's protocol), so each is an ablation"
    )
    beyond.add_argument(
        "--scaling-feedback",
        action="store_true",
        help="time the program on the training problems, fit its growth and send scaling feedback when the "
        "projection to the largest evaluation problem exceeds --eval-timeout",
    )
    beyond.add_argument(
        "--quality-feedback",
        action="store_true",
        help="once the program solves every training problem, compare its plan costs with optimal ones (A* "
        "LM-cut) and ask for cheaper plans when the mean ratio exceeds --quality-threshold; a revision that "
        "solves fewer training problems or is not cheaper is not kept",
    )
    beyond.add_argument(
        "--quality-threshold",
        type=float,
        default=1.05,
        metavar="R",
        help="with --quality-feedback: the largest mean ratio plan cost / optimal cost accepted (default 1.05)",
    )
    beyond.add_argument(
        "--candidates",
        type=positive_int,
        default=1,
        metavar="N",
        help="N independent conversations; the program that solves the most held-out validation problems is "
        "kept, ties broken by runtime (default 1)",
    )
    beyond.add_argument(
        "--check-strategy",
        action="store_true",
        help="before any code, the model follows its strategy on a training problem and revises it while VAL "
        "rejects the plan",
    )
    beyond.add_argument(
        "--strategy-rounds",
        type=non_negative_int,
        default=2,
        metavar="K",
        help="strategy revisions at most with --check-strategy (default 2)",
    )
    beyond.add_argument(
        "--reflect",
        action="store_true",
        help="each repair request asks first why the program failed, then the fix",
    )
    beyond.add_argument(
        "--shuffles",
        type=non_negative_int,
        default=0,
        metavar="K",
        help="run each evaluation problem K more times with objects and atoms in other orders and hash seeds; "
        "solved only if every run is valid (default 0)",
    )
    add_model_arguments(parser)
    return parser


def settings_from(args: argparse.Namespace) -> SynthesisSettings:
    """The generalized-plan settings the flags choose."""
    from genplan.approaches.generalized_plan.synthesize import SynthesisSettings

    try:
        return SynthesisSettings(
            chain_of_thought=not args.no_cot,
            debugging=not args.no_debug,
            names=not args.no_names,
            feedback_rounds=args.feedback_rounds,
            timeout=args.timeout,
            scaling_feedback=args.scaling_feedback,
            quality_feedback=args.quality_feedback,
            quality_threshold=args.quality_threshold,
            candidates=args.candidates,
            check_strategy=args.check_strategy,
            strategy_rounds=args.strategy_rounds,
            reflect=args.reflect,
            shuffles=args.shuffles,
        )
    except ValueError as error:
        raise ConfigurationError(f"generalized-plan settings: {error}") from error


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan synthesize``; return the exit code (errors surface as GenplanError)."""
    from genplan.approaches.generalized_plan.approach import GeneralizedPlan

    return execute(args, GeneralizedPlan(), settings_from(args))


def build_parser_for_tests() -> argparse.ArgumentParser:
    """A stand-alone parser with this command's flags (for tests and embedding)."""
    parser = argparse.ArgumentParser(prog="genplan")
    subparsers = parser.add_subparsers()
    return register(subparsers)
