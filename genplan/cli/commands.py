"""The subcommands' names and one-line help, known without importing any subcommand module.

``genplan --help`` lists every subcommand with this help; ``genplan solve ...`` imports
``genplan.cli.solve`` only (:func:`genplan.cli.build_parser`), so a command pays for its own
imports and no other's. Each subcommand module gives :func:`command_help` as its parser's
``help``, so the listing and the module never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

COMMANDS: tuple[str, ...] = ("synthesize", "run", "experiments", "generate", "validate", "solve", "evaluate")
"""Subcommand names in help order; each is the module ``genplan.cli.<name>``."""

_HELP: dict[str, str] = {
    "synthesize": "synthesize a generalized plan (get_plan) for a domain and evaluate it",
    "experiments": "run an experiment grid (domains x seeds x approaches) on Dask, resumable",
    "generate": "generate seeded problems of a built-in domain",
    "validate": "check a plan: syntax, then VAL (or the built-in simulator)",
    "solve": "solve a problem with a saved synthesized program",
    "evaluate": "evaluate a program on a domain's evaluation problems",
}


def command_help(name: str) -> str:
    """The one-line help of subcommand ``name`` (``run``'s names every registered approach).

    Raises:
        KeyError: ``name`` is not in :data:`COMMANDS`.
    """
    if name == "run":
        from genplan.approaches import approach_names  # the registry only: no approach is imported

        return "run any approach (" + ", ".join(approach_names()) + ") on a domain and evaluate it"
    return _HELP[name]


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names, as argparse will find it, or ``None``.

    The top-level parser has flags only (``-h``, ``--version``, no values), so the command is
    the first argument that is not a flag (or the one after ``--``). ``None`` when there is
    none or it is no known command; then every subcommand is registered, as argparse's help and
    its "invalid choice" error list them all.
    """
    arguments = list(argv)
    for index, argument in enumerate(arguments):
        if argument == "--":
            following = arguments[index + 1 : index + 2]
            return following[0] if following and following[0] in COMMANDS else None
        if not argument.startswith("-"):
            return argument if argument in COMMANDS else None
    return None
