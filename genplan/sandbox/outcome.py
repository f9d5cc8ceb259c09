"""The typed outcomes of sandboxed runs: :class:`CallOutcome` (any harness) and :class:`RunOutcome` (get_plan)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class RunStatus(str, Enum):
    """How a run ended; the value is used in JSON files."""

    SUCCESS = "success"
    """The harness returned (for ``get_plan``: a list of strings)."""
    RAISED = "raised"
    """The program (its top level, a function the harness called, or its compilation) raised an
    exception, ``KeyboardInterrupt`` included when the program raised it itself."""
    TIMED_OUT = "timed-out"
    """The time budget ran out."""
    CRASHED = "crashed"
    """Memory limit, recursion limit, a signal, output or result too large, or a broken channel."""
    BAD_OUTPUT = "bad-output"
    """The program returned something of the wrong shape (for ``get_plan``: not a list of strings)."""


OUT_OF_MEMORY = "the program ran out of memory"
"""How the reason of a run that hit its memory limit begins (the sandbox child's own words)."""


def is_out_of_memory(reason: str | None) -> bool:
    """Whether a crashed run's ``reason`` is the sandbox's out-of-memory one: it begins with
    :data:`OUT_OF_MEMORY`, never merely mentions memory (a recursion crash's reason quotes the
    program's own source lines)."""
    return (reason or "").startswith(OUT_OF_MEMORY)


@dataclass(frozen=True)
class CallOutcome:
    """The outcome of one run of a harness on an untrusted program (:func:`genplan.sandbox.run_untrusted`).

    Attributes:
        status: how the run ended.
        value: the harness's JSON value (``SUCCESS`` only): plain ``dict``, ``list``, ``str``,
            ``int``, ``float``, ``bool`` and ``None``, read from JSON.
        seconds: wall-clock seconds of the run as the sandbox worker measured it, outside the
            program (its top level and the harness call; the budget or more for a time-out).
        traceback: for ``RAISED`` and ``TIMED_OUT``: the traceback with program line numbers,
            the file shown as ``<file-name-omitted>``, each frame with its source line, harness
            frames removed. ``None`` for a time-out where the child had to be killed.
        reason: a person-readable reason for ``CRASHED``, ``BAD_OUTPUT`` and a killed time-out.
        output: for ``BAD_OUTPUT``, ``repr`` of what was returned (capped).
        stdout: what the program printed (capped).
    """

    status: RunStatus
    value: Any = None
    seconds: float = 0.0
    traceback: str | None = None
    reason: str | None = None
    output: str | None = None
    stdout: str = ""

    @property
    def out_of_memory(self) -> bool:
        """Whether the run crashed on its memory limit (:func:`is_out_of_memory`)."""
        return self.status is RunStatus.CRASHED and is_out_of_memory(self.reason)


@dataclass(frozen=True)
class RunOutcome:
    """The outcome of one run of ``get_plan`` on one problem (Silver et al. 2024, Sec. 4.2).

    Attributes:
        status: how the run ended.
        plan: the returned plan (``SUCCESS`` only): a ``list`` of exact ``str``.
        seconds: wall-clock seconds of the run (top level and ``get_plan``) as the worker
            measured it, outside the program (the budget for a time-out).
        traceback: as in :class:`CallOutcome`.
        reason: a person-readable reason for ``CRASHED``, ``BAD_OUTPUT`` and a killed time-out.
        output: for ``BAD_OUTPUT``, ``repr`` of what was returned (capped).
        stdout: what the program printed (capped).
    """

    status: RunStatus
    plan: list[str] | None = None
    seconds: float = 0.0
    traceback: str | None = None
    reason: str | None = None
    output: str | None = None
    stdout: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (the plan is included)."""
        return {
            "status": self.status.value,
            "plan": self.plan,
            "seconds": self.seconds,
            "traceback": self.traceback,
            "reason": self.reason,
            "output": self.output,
            "stdout": self.stdout,
        }
