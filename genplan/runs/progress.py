"""Where a run reports progress while it runs (the CLI draws bars; tests record)."""

from __future__ import annotations

from typing import Protocol

from genplan.runs.record import ProblemResult


class Progress(Protocol):
    """Where an approach reports progress while it runs (the CLI draws bars; tests record)."""

    def note(self, text: str) -> None:
        """A line worth showing a person (a training round's outcome, a phase's result)."""
        ...

    def start_problems(self, total: int) -> None:
        """Solving ``total`` evaluation problems starts."""
        ...

    def problem_done(self, result: ProblemResult) -> None:
        """One evaluation problem finished."""
        ...


class SilentProgress:
    """A :class:`Progress` that shows nothing."""

    def note(self, text: str) -> None:
        """Ignore ``text``."""

    def start_problems(self, total: int) -> None:
        """Ignore the start."""

    def problem_done(self, result: ProblemResult) -> None:
        """Ignore the result."""
