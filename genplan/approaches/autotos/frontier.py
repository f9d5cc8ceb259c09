"""Searches that fail, fail fast: a BFS whose levels cannot fit in memory stops at once.

AutoToS's breadth-first search over a model's successor function stores every state it
generates. On the built-in domains' evaluation problems most searches grow towards the child's
memory limit for minutes (gripper: 474k states in 97-162 s, two searches at a time) and then
fail anyway. A BFS knows more than that early on: the sizes of its completed levels, what a
state costs in memory, and a lower bound on the depth of any goal (the goal atoms still false,
divided by the most goal atoms one action can add). When the levels it must still store before
that depth, growing as they have been growing, would need more memory than the child has, the
search stops with ``search-memory`` and says why (gripper: at depth 5, after about 4 s).

The projection is a lower bound where it matters: it counts only levels shallower than the
depth bound, and grows them by the smaller of the last level's growth and the mean growth over
the last two levels (a domain whose levels alternate, gripper's pick and move, is not
over-projected from one large step).
"""

from __future__ import annotations

import math
import resource
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from genplan.pddl.domain import Atom, Operator

MIN_MEASURED_BYTES = 16 * 1024 * 1024
"""Memory the search must have grown by before a state's size is estimated from it."""

FALLBACK_LIMIT_BYTES = 2 * 1024**3
"""The memory assumed when the process has no address-space limit (a search run in-process)."""


def depth_bound(goal: Iterable[Atom], state: Iterable[Atom], operators: Sequence[Operator]) -> int:
    """A lower bound on the number of actions from ``state`` to a state holding ``goal``: the
    goal atoms ``state`` lacks, divided by the most atoms of the goal's predicates that one
    operator adds (0 when nothing is lacking; 0 as well when no operator adds any, since the
    search will then say itself that it finds nothing)."""
    lacking = set(goal) - set(state)
    if not lacking:
        return 0
    predicates = {atom[0] for atom in lacking}
    most = max((sum(effect[0] in predicates for effect in o.add_effects) for o in operators), default=0)
    return math.ceil(len(lacking) / most) if most else 0


def memory_limit_bytes() -> int:
    """The process's address-space limit (soft), or :data:`FALLBACK_LIMIT_BYTES` without one."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return FALLBACK_LIMIT_BYTES if soft == resource.RLIM_INFINITY or soft <= 0 else soft


def resident_bytes() -> int:
    """The process's peak resident memory, in bytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


@dataclass
class LevelWatch:
    """Watches a breadth-first search's levels and says when the next ones cannot fit.

    Attributes:
        bound: the depth bound (:func:`depth_bound`) of the search's goal.
        limit: the memory the search may use, in bytes.
        start: the process's resident memory when the search started, in bytes.
        levels: the number of states in each completed level (level 0: the initial state).
    """

    bound: int
    limit: int
    start: int
    levels: list[int]

    @classmethod
    def begin(cls, bound: int) -> LevelWatch:
        """A watch for a search from one initial state, started now."""
        return cls(bound, memory_limit_bytes(), resident_bytes(), [1])

    def level_done(self, size: int, stored: int) -> str | None:
        """Record a completed level of ``size`` states (``stored`` states kept in all); why the
        search cannot fit, or ``None`` while it may."""
        self.levels.append(size)
        depth = len(self.levels) - 1
        if len(self.levels) < 3 or depth + 1 >= self.bound or size == 0:
            return None
        previous, before = self.levels[-2], self.levels[-3]
        if previous == 0 or before == 0:
            return None
        growth = min(size / previous, math.sqrt(size / before))
        if growth <= 1:
            return None
        grown = resident_bytes() - self.start
        if grown < MIN_MEASURED_BYTES:
            return None
        per_state = grown / stored
        needed = stored + sum(size * growth ** (k - depth) for k in range(depth + 1, self.bound))
        if needed * per_state <= self.limit:
            return None
        return (
            f"the search stopped at depth {depth} with {stored:,} states stored ({grown / 2**20:,.0f} MiB): its "
            f"levels grow about x{growth:.1f} a level and a plan needs at least {self.bound} steps here (goal "
            f"atoms still false, over the most one action adds), so it would store about {needed:,.0f} states "
            f"({needed * per_state / 2**30:,.1f} GiB) before it could reach a goal, over the memory limit of "
            f"{self.limit / 2**30:g} GiB"
        )
