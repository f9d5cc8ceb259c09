"""The wall-clock budget of learning a policy (``--max-seconds``): set-up and search alike.

The budget starts when the run starts, so everything before the policy search proper counts
against it: preparing each training problem's search, planning the empty policy on every one of
them, PC's example plans and scoring the empty policy. Work checks the budget between small steps
(one state expanded by policy-guided planning, one training problem, one candidate policy), and a
rule's match is given the budget's end as its deadline, so a run stops at most one such step past
its budget. The budget's own figures are ours: the released code of Yang et al. (2022) has no time
limit.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from genplan.errors import GenplanError

Clock = Callable[[], float]
"""Seconds since some fixed point (:func:`time.perf_counter`; tests pass a fake one)."""


class BudgetSpent(GenplanError):
    """The budget ran out (:meth:`Budget.check`); whoever started the timed work stops it."""


class Budget:
    """``seconds`` of wall clock from the moment the budget is made.

    Args:
        seconds: the budget, in seconds (``--max-seconds``).
        clock: the clock read by :meth:`elapsed` and :meth:`check` (default
            :func:`time.perf_counter`).
    """

    def __init__(self, seconds: float, *, clock: Clock = time.perf_counter):
        self.seconds = seconds
        self.clock = clock
        self.started = clock()

    def elapsed(self) -> float:
        """Seconds since the budget was made."""
        return self.clock() - self.started

    def remaining(self) -> float:
        """Seconds left (0 once spent)."""
        return max(0.0, self.seconds - self.elapsed())

    @property
    def spent(self) -> bool:
        """Whether no time is left."""
        return self.elapsed() >= self.seconds

    def check(self) -> None:
        """Return when time is left.

        Raises:
            BudgetSpent: the budget ran out.
        """
        if self.spent:
            raise BudgetSpent(f"the {self.seconds:g} s budget ran out")

    def deadline(self) -> float:
        """The budget's end as a :func:`time.perf_counter` time (for a rule match's deadline,
        :attr:`~genplan.approaches.pg3.matching.PolicyMatcher.deadline`)."""
        return time.perf_counter() + self.remaining()
