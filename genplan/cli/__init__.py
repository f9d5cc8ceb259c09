"""The ``genplan`` command line: one module per subcommand, each with ``register`` and ``run``.

Only this package reads ``argv``, prints results for people and chooses exit codes. A
subcommand module defines ``register(subparsers) -> argparse.ArgumentParser`` and
``run(args) -> int``; :data:`~genplan.cli.commands.COMMANDS` lists them in help order, and
:func:`build_parser` imports only the one a command line names.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from genplan import __version__
from genplan.cli.commands import COMMANDS, chosen_command, command_help
from genplan.errors import GenplanError


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``genplan`` argument parser for ``argv``: every subcommand, the chosen one in full.

    The subcommand ``argv`` names (:func:`~genplan.cli.commands.chosen_command`) is the only
    subcommand module imported and registered with its flags; the others are listed by name and
    help only (:mod:`genplan.cli.commands`), so ``genplan solve`` does not pay for importing
    ``experiments``, ``run`` and the rest, and ``genplan --help`` imports none of them.
    ``argv=None`` registers every subcommand in full (a parser for any command line).
    ``argv`` also lets ``run`` add the flags of the approach it names (``--approach NAME``).
    """
    parser = argparse.ArgumentParser(
        prog="genplan",
        description="Generalized planning in PDDL domains with large language models.",
    )
    parser.add_argument("--version", action="version", version=f"genplan {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = None if argv is None else chosen_command(argv)
    for name in COMMANDS:
        if argv is not None and name != chosen:
            subparsers.add_parser(name, help=command_help(name))  # never parsed: argv names another
            continue
        module = importlib.import_module(f"genplan.cli.{name}")
        sub = module.register(subparsers, argv) if name == "run" else module.register(subparsers)
        sub.set_defaults(run=module.run)
    return parser


def _prestart_solve_worker(arguments: Sequence[str]) -> None:
    """For ``genplan solve`` in the sandbox, start its worker before anything else is imported,
    so that it boots while the parser is built and the problem and program are read (``solve``
    waits for it only when it runs the program). Only the isolation is read here, the rest is
    parsed as usual: a command line the parser rejects has started a worker for nothing, which
    ends with genplan."""
    if chosen_command(arguments) != "solve" or {"--trusted", "-h", "--help"} & set(arguments):
        return
    from genplan.sandbox import Isolation, prestart_worker

    isolation = Isolation.BWRAP.value  # the default of add_isolation_argument, as solve declares it
    for index, argument in enumerate(arguments):
        if argument == "--isolation" and index + 1 < len(arguments):
            isolation = arguments[index + 1]
        elif argument.startswith("--isolation="):
            isolation = argument.partition("=")[2]
    if isolation in {kind.value for kind in Isolation}:
        prestart_worker(Isolation(isolation))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``genplan`` console script; returns the process exit code.

    ``argv`` defaults to ``sys.argv[1:]``. The process never re-executes itself: results do not
    depend on the interpreter's string-hash seed (genplan sorts wherever order reaches a
    prompt, a file or a plan), so ``python -m cProfile -m genplan ...`` profiles the real work
    and the import path is the one the user started with.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    _prestart_solve_worker(arguments)
    parser = build_parser(arguments)
    args = parser.parse_args(arguments)
    try:
        return int(args.run(args))
    except GenplanError as error:
        print(f"genplan: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("genplan: interrupted; everything recorded so far is kept.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
