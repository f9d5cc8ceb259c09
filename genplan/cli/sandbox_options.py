"""The ``--isolation`` flag of every command that runs model-written code, and its check."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from genplan.sandbox import Isolation, Limits, isolation_report

NONE_WARNING = (
    "genplan: warning: --isolation none: model-written programs run without bubblewrap (no separate "
    "network, processes or file system; only the policy, limits, an unprivileged user under root and "
    "seccomp). Use it only where bubblewrap cannot run; the run's metadata records it."
)


def add_isolation_argument(parser: Any, default: str | None = Isolation.BWRAP.value) -> None:
    """Add ``--isolation {bwrap,none}`` to ``parser`` (a parser or an argument group).

    ``default=None`` leaves the choice to a grid file (``bwrap`` when it says nothing).
    """
    parser.add_argument(
        "--isolation",
        choices=[kind.value for kind in Isolation],
        default=default,
        help="operating-system isolation of model-written programs: bwrap (bubblewrap, the default) or "
        "none (only where bubblewrap cannot run; a warning is printed and recorded)",
    )


def sandbox_limits(args: argparse.Namespace) -> Limits:
    """The sandbox limits the command's flags ask for, after checking the isolation works.

    Prints the warning for ``--isolation none``.

    Raises:
        IsolationUnavailable: the sandbox cannot start; the message says how to enable it.
    """
    limits = Limits(isolation=Isolation(args.isolation))
    if limits.isolation is Isolation.NONE:
        print(NONE_WARNING, file=sys.stderr)
    isolation_report(limits.isolation)  # starts a worker now, so a missing bwrap stops the command early
    return limits
