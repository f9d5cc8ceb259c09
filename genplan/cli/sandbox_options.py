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


def add_isolation_argument(parser: Any, default: Isolation | None = Isolation.BWRAP) -> None:
    """Add ``--isolation {bwrap,none}`` to ``parser`` (a parser or an argument group); the value
    is an :class:`~genplan.sandbox.Isolation`.

    ``default=None`` leaves the choice to the run request or a grid file (``bwrap`` when
    nothing says otherwise).
    """
    parser.add_argument(
        "--isolation",
        type=Isolation,
        choices=[kind.value for kind in Isolation],
        default=default,
        help="operating-system isolation of model-written programs: bwrap (bubblewrap, the default) or "
        "none (only where bubblewrap cannot run; a warning is printed and recorded)",
    )


def warn_without_bubblewrap(isolation: Isolation) -> None:
    """Print :data:`NONE_WARNING` for ``--isolation none``."""
    if isolation is Isolation.NONE:
        print(NONE_WARNING, file=sys.stderr)


def checked_limits(isolation: Isolation) -> Limits:
    """The sandbox limits with ``isolation``, after checking the isolation works (a worker starts
    now, so a missing bubblewrap stops the command early); warns for ``none``.

    Raises:
        IsolationUnavailable: the sandbox cannot start; the message says how to enable it.
    """
    warn_without_bubblewrap(isolation)
    limits = Limits(isolation=isolation)
    isolation_report(limits.isolation)
    return limits


def sandbox_limits(args: argparse.Namespace) -> Limits:
    """The sandbox limits the command's ``--isolation`` asks for, checked (:func:`checked_limits`).

    Raises:
        IsolationUnavailable: the sandbox cannot start; the message says how to enable it.
    """
    return checked_limits(Isolation(args.isolation))
