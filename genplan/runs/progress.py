"""Where a run reports progress while it runs (the CLI draws bars; tests record)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from genplan.runs.record import ProblemResult

PROGRESS_SECONDS = 10.0
"""The longest a long phase of a run stays silent: :func:`heartbeat` reports at least this often
(seconds)."""


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


@contextmanager
def heartbeat(
    note: Callable[[str], None], status: Callable[[], str], interval: float | None = None
) -> Iterator[None]:
    """While the ``with`` block runs, ``note(status())`` every ``interval`` seconds of wall clock.

    A daemon thread reports, so a phase made of long steps (a planner call, one large search)
    still shows a line at least every ``interval`` seconds; nothing is reported when the block
    ends sooner. ``status`` is called from that thread: it reads the phase's counters and must
    not raise.

    Args:
        note: where each line goes (a run session's :meth:`~genplan.runs.session.RunSession.note`).
        status: the phase's state for a person (``"set-up: 37 of 98 training problems planned"``).
        interval: seconds between lines (default :data:`PROGRESS_SECONDS`, read at each call).
    """
    seconds = PROGRESS_SECONDS if interval is None else interval
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(seconds):
            note(status())

    thread = threading.Thread(target=beat, name="genplan-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
