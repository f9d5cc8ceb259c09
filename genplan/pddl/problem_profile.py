"""The profile of a problem set, and comparing two: does a generator draw from a reference distribution?

A profile summarises what a program that solves the problems can see (Silver et al. 2024: a
generalized plan reads object names, initial atoms and the goal, Sec. 4.1):

* **counts**, per problem: objects of each type, initial atoms of each predicate and goal atoms
  of each predicate;
* **name patterns**: object names with each run of digits written ``#`` (``room#``,
  ``f#_b#``), and for each pattern the lowest and highest number seen at each place (whether
  numbering starts at 0 or 1, and how far ids go);
* **fixed atoms**: the initial atoms true in every problem (``(at-robby room0)``), and the
  objects every problem has.

:func:`compare` lists where a candidate profile departs from a reference one: a count whose
range (lowest and highest value over the problems) differs by more than a tolerance, a name
pattern only one side has, numbered from elsewhere or much further, an atom true in every
problem of one side but not of the other. Two samples of the same distribution differ a little
in their extremes, so the tolerance is a fraction of the pooled range of the two samples (and
at least 1 where that range is not a single value); the checks are meant to catch a different
distribution (other names, another start, other sizes), not sampling noise. A profile sees
counts, names and fixed atoms only; how the atoms relate (a trail, a total order) is for
domain-specific checks.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem

TOLERANCE = 0.25
"""Largest allowed difference of two samples' lowest, median and highest values, as a fraction
of their pooled range (see :func:`compare`)."""

_NUMBER = re.compile(r"\d+")


def name_pattern(name: str) -> tuple[str, tuple[int, ...]]:
    """``("f#_b#", (3, 1))`` for ``"f3_b1"``: the name with digit runs as ``#``, and their values."""
    return _NUMBER.sub("#", name), tuple(int(n) for n in _NUMBER.findall(name))


@dataclass(frozen=True)
class Profile:
    """A problem set's profile (see the module docstring).

    Attributes:
        problems: how many problems.
        counts: feature -> its value in each problem, in order (``objects:loc``, ``init:at``,
            ``goal:served``); a feature a problem lacks counts 0 there.
        patterns: name pattern -> ``(lowest, highest)`` number seen at each of its places.
        fixed: initial atoms true in every problem.
        common: objects every problem has.
    """

    problems: int
    counts: Mapping[str, tuple[int, ...]]
    patterns: Mapping[str, tuple[tuple[int, int], ...]]
    fixed: frozenset[Atom]
    common: frozenset[str]


def _features(problem: Problem) -> Counter[str]:
    features: Counter[str] = Counter()
    features.update(f"objects:{t}" for t in problem.object_types.values())
    features.update(f"init:{atom[0]}" for atom in problem.init)
    features.update(f"goal:{atom[0]}" for atom in problem.goal)
    return features


def profile(problems: Iterable[Problem]) -> Profile:
    """The profile of ``problems``.

    Raises:
        ValueError: no problems.
    """
    problems = list(problems)
    if not problems:
        raise ValueError("cannot profile an empty problem set")
    per_problem = [_features(p) for p in problems]
    names = sorted(set().union(*per_problem))
    counts = {name: tuple(f[name] for f in per_problem) for name in names}
    spans: dict[str, tuple[tuple[int, int], ...]] = {}
    for name in {name for problem in problems for name in problem.object_types}:
        pattern, numbers = name_pattern(name)
        seen = spans.get(pattern, tuple((n, n) for n in numbers))
        spans[pattern] = tuple((min(low, n), max(high, n)) for (low, high), n in zip(seen, numbers))
    fixed = frozenset.intersection(*(p.init for p in problems))
    common = frozenset.intersection(*(frozenset(p.object_types) for p in problems))
    return Profile(len(problems), counts, dict(sorted(spans.items())), fixed, common)


def allowed_difference(low: int, high: int, tolerance: float = TOLERANCE) -> float:
    """How far two samples' extremes may lie apart when both lie in ``low .. high``: ``tolerance``
    times that range, at least 1, and 0 when the range is a single value."""
    return 0.0 if low == high else max(1.0, tolerance * (high - low))


def compare(reference: Profile, candidate: Profile, tolerance: float = TOLERANCE) -> list[str]:
    """Where ``candidate`` departs from ``reference``, one sentence each; empty when they agree.

    * Counts: for every feature, the lowest and the highest value of the two samples must lie
      within :func:`allowed_difference` of each other (over the pooled range), so a feature
      that is 0 or 1 may come out 1 in every problem of one sample of 30 and 0-1 in the other.
    * Names: the same patterns, numbered from the same lowest numbers, with highest numbers
      within :func:`allowed_difference` (``o#`` up to 1000 against up to 2,500 differs).
    * Fixed atoms: among the atoms over objects every problem of both sides has, those true in
      every problem of one side must be true in every problem of the other (an atom such as
      ``(location l20)`` holds in every problem only while every problem has ``l20``, so atoms
      over objects that only some problems have are left to the counts).
    """
    return [
        *_count_differences(reference, candidate, tolerance),
        *_name_differences(reference, candidate, tolerance),
        *_fixed_differences(reference, candidate),
    ]


def _count_differences(reference: Profile, candidate: Profile, tolerance: float) -> list[str]:
    differences = []
    for feature in sorted(set(reference.counts) | set(candidate.counts)):
        ours = reference.counts.get(feature, (0,) * reference.problems)
        theirs = candidate.counts.get(feature, (0,) * candidate.problems)
        allowed = allowed_difference(min(*ours, *theirs), max(*ours, *theirs), tolerance)
        for what, a, b in (("lowest", min(ours), min(theirs)), ("highest", max(ours), max(theirs))):
            if abs(a - b) > allowed:
                differences.append(
                    f"{feature}: {what} {b} against the reference's {a} (allowed difference {allowed:g}; "
                    f"reference {min(ours)}-{max(ours)}, candidate {min(theirs)}-{max(theirs)})"
                )
    return differences


def _name_differences(reference: Profile, candidate: Profile, tolerance: float) -> list[str]:
    differences = []
    for pattern in sorted(set(reference.patterns) | set(candidate.patterns)):
        if pattern not in candidate.patterns:
            differences.append(f"names {pattern!r}: in the reference, never in the candidate")
            continue
        if pattern not in reference.patterns:
            differences.append(f"names {pattern!r}: in the candidate, never in the reference")
            continue
        for place, (ours, theirs) in enumerate(zip(reference.patterns[pattern], candidate.patterns[pattern])):
            where = f"names {pattern!r}, number {place + 1}"
            if ours[0] != theirs[0]:
                differences.append(f"{where}: starts at {theirs[0]} against the reference's {ours[0]}")
            allowed = allowed_difference(min(ours[0], theirs[0]), max(ours[1], theirs[1]), tolerance)
            if abs(ours[1] - theirs[1]) > allowed:
                differences.append(
                    f"{where}: goes up to {theirs[1]} against the reference's {ours[1]} (allowed difference {allowed:g})"
                )
    return differences


def _fixed_differences(reference: Profile, candidate: Profile) -> list[str]:
    shared = reference.common & candidate.common
    differences = []
    for fixed, other_fixed, side, other in (
        (reference.fixed, candidate.fixed, "reference", "candidate"),
        (candidate.fixed, reference.fixed, "candidate", "reference"),
    ):
        for atom in sorted(fixed - other_fixed):
            if set(atom[1:]) <= shared:
                differences.append(
                    f"({' '.join(atom)}) holds in every {side} problem, not in every {other} one"
                )
    return differences
