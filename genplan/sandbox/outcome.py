"""The typed outcome of one sandboxed run of a program on one problem."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class RunStatus(str, Enum):
    """How a run ended; the value is used in JSON files."""

    SUCCESS = "success"
    """``get_plan`` returned a list of strings."""
    RAISED = "raised"
    """``get_plan`` (or the program's top level, or its compilation) raised an exception."""
    TIMED_OUT = "timed-out"
    """The time budget ran out."""
    CRASHED = "crashed"
    """Memory limit, recursion limit, a signal, or output too large."""
    BAD_OUTPUT = "bad-output"
    """``get_plan`` returned something other than a list of strings."""


@dataclass(frozen=True)
class RunOutcome:
    """The outcome of one run (Silver et al. 2024, Sec. 4.2).

    Attributes:
        status: how the run ended.
        plan: the returned list of strings (``SUCCESS`` only).
        seconds: wall-clock seconds ``get_plan`` ran (the budget for a time-out).
        traceback: for ``RAISED`` and ``TIMED_OUT``: the traceback with program line numbers,
            the file shown as ``<file-name-omitted>``, each frame with its source line, harness
            frames removed. ``None`` for a time-out where the child had to be killed.
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
