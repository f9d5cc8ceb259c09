"""The IPC's quality and agile scores, per problem and summed per domain and difficulty level.

The IPC learning track (2023) ranks planners by two sums over problems:

* **quality**: ``min(1, C* / C)`` for a solved problem, ``C`` the cost of the plan found and
  ``C*`` the best cost known: the smaller of the reference (best known cost) and every plan
  being compared (the best plan of any participant); ``0`` for an unsolved problem. A plan of
  cost 0 scores 1 when ``C*`` is 0 too.
* **agile**: ``1`` for a problem solved within 1 s, ``1 - log(t) / log(T)`` for ``1 < t <= T``
  (``T`` the time limit in seconds), ``0`` beyond the limit or unsolved.

Problems are grouped by the IPC level in their key (``testing/easy/p01.pddl`` is ``easy``);
problems with no level in their key fall in ``all`` only.

A quality stands on what ``C*`` was taken from. Where a problem has no reference cost and no
other plan was compared, ``C*`` is the plan's own cost and its quality is 1 by construction, so
the sums also count, per level, the problems that had a reference (``referenced``) and their
quality alone (``referenced_quality``): one run scored by itself reports those
(:func:`genplan.runs.quality.scores_json`), never a count of solved problems as a quality.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from genplan.pddl.problem_sets import problem_level


def quality_score(cost: float | None, best: float | None) -> float:
    """``min(1, best / cost)``; ``0`` when unsolved (``cost`` is ``None``).

    Args:
        cost: the plan's cost, or ``None`` when the problem was not solved.
        best: ``C*``, the best cost known (reference and every compared plan), or ``None``
            when nothing is known (a solved problem then scores 1: its plan is the best known).

    Raises:
        ValueError: a negative cost.
    """
    if cost is None:
        return 0.0
    if cost < 0 or (best is not None and best < 0):
        raise ValueError(f"costs are never negative (cost {cost}, best {best})")
    if best is None or best >= cost:
        return 1.0
    return best / cost if cost > 0 else 1.0


def agile_score(seconds: float | None, limit: float) -> float:
    """The IPC agile score of a problem solved in ``seconds`` (``None``: unsolved) under a time
    limit of ``limit`` seconds: 1 up to 1 s, ``1 - log(t)/log(T)`` up to ``T``, 0 beyond (with
    a limit of 1 s or less: 1 within the limit, 0 beyond)."""
    if seconds is None or seconds > limit:
        return 0.0
    if seconds <= 1:
        return 1.0
    return 1.0 - math.log(seconds) / math.log(limit)


@dataclass(frozen=True)
class Attempt:
    """One approach's result on one problem, as scoring needs it.

    Attributes:
        problem: the problem key.
        cost: the valid plan's cost, or ``None`` when unsolved.
        seconds: the seconds it took (``None`` when unknown or unsolved).
    """

    problem: str
    cost: float | None
    seconds: float | None


@dataclass
class ScoreSums:
    """An approach's scores, summed per level.

    Attributes:
        quality / agile: level (``easy``, ``medium``, ``hard``, and ``all``) -> sum.
        problems: level -> problems counted.
        referenced: level -> problems with a reference cost (0 where none had one).
        referenced_quality: level -> the quality summed over those problems only.
        per_problem: problem key -> ``{"quality": q, "agile": a, "best": C*, "reference": cost
            or None}``.
    """

    quality: dict[str, float] = field(default_factory=dict)
    agile: dict[str, float] = field(default_factory=dict)
    problems: dict[str, int] = field(default_factory=dict)
    referenced: dict[str, int] = field(default_factory=dict)
    referenced_quality: dict[str, float] = field(default_factory=dict)
    per_problem: dict[str, dict[str, float | None]] = field(default_factory=dict)

    def add(self, key: str, quality: float, agile: float, *, referenced: bool = False) -> None:
        """Count problem ``key``'s scores in ``all`` and in its level; ``referenced``: the
        problem had a reference cost."""
        for level in ("all", problem_level(key)):
            if level is None:
                continue
            self.quality[level] = self.quality.get(level, 0.0) + quality
            self.agile[level] = self.agile.get(level, 0.0) + agile
            self.problems[level] = self.problems.get(level, 0) + 1
            self.referenced[level] = self.referenced.get(level, 0) + referenced
            self.referenced_quality[level] = self.referenced_quality.get(level, 0.0) + (
                quality if referenced else 0.0
            )

    def to_json(self) -> dict[str, object]:
        """``{"quality": {...}, "agile": {...}, "problems": {...}, "references_found": {...}}``,
        sums rounded to 4 places."""
        return {
            "quality": {k: round(v, 4) for k, v in self.quality.items()},
            "agile": {k: round(v, 4) for k, v in self.agile.items()},
            "problems": dict(self.problems),
            "references_found": dict(self.referenced),
        }


def best_costs(
    attempts: Mapping[str, Sequence[Attempt]], references: Mapping[str, float | None]
) -> dict[str, float | None]:
    """``C*`` per problem key: the smallest of the reference and every compared plan's cost."""
    keys = set(references)
    for results in attempts.values():
        keys.update(a.problem for a in results)
    best: dict[str, float | None] = {}
    for key in sorted(keys):
        known = [c for c in [references.get(key)] if c is not None]
        known += [
            a.cost
            for results in attempts.values()
            for a in results
            if a.problem == key and a.cost is not None
        ]
        best[key] = min(known) if known else None
    return best


def score(
    attempts: Mapping[str, Sequence[Attempt]],
    references: Mapping[str, float | None],
    time_limit: float,
) -> dict[str, ScoreSums]:
    """Quality and agile scores of every approach (name -> its attempts) side by side.

    Args:
        attempts: approach name -> one :class:`Attempt` per problem.
        references: problem key -> best known cost (``None`` or absent when unknown).
        time_limit: ``T`` of the agile score, in seconds.

    Returns:
        approach name -> :class:`ScoreSums`, ``C*`` taken over the reference and every
        approach's plans (the IPC rule).
    """
    best = best_costs(attempts, references)
    sums: dict[str, ScoreSums] = {}
    for name, results in attempts.items():
        total = ScoreSums()
        for attempt in results:
            quality = quality_score(attempt.cost, best.get(attempt.problem))
            agile = agile_score(attempt.seconds if attempt.cost is not None else None, time_limit)
            reference = references.get(attempt.problem)
            total.add(attempt.problem, quality, agile, referenced=reference is not None)
            total.per_problem[attempt.problem] = {
                "quality": round(quality, 6),
                "agile": round(agile, 6),
                "best": best.get(attempt.problem),
                "reference": reference,
            }
        sums[name] = total
    return sums
