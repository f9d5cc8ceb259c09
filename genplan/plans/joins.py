"""Bindings of a conjunction of lifted atoms against indexed ground atoms, one atom at a time.

The one join genplan uses wherever lifted conditions meet a state: an operator's positive
preconditions (:class:`genplan.plans.successors.SuccessorGenerator`) and a lifted decision list's
positive literals (:class:`genplan.approaches.pg3.matching.PolicyMatcher`, Yang et al. 2022,
Sec. 5). Each pattern is matched against the facts of its predicate; every variable it binds
narrows the patterns after it, so a conjunction costs a few dictionary look-ups rather than a
product over objects. Terms starting with ``?`` are variables; others are constants.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TypeVar

from genplan.errors import GenplanError
from genplan.pddl.domain import Atom

Index = Mapping[str, Sequence[Atom]]
"""Ground atoms grouped by predicate name."""

T = TypeVar("T")

CHECKED_DEPTH = 2
"""The join checks its deadline at each fact tried for the first patterns this deep: every
subtree below is bounded by one fact's candidates, and the deep loops pay one comparison."""


class JoinTimeout(GenplanError):
    """A join outlasted its deadline (:func:`join_bindings`); the caller's time budget is spent."""


def index_atoms(atoms: AbstractSet[Atom]) -> dict[str, list[Atom]]:
    """``atoms`` grouped by predicate name (an :data:`Index`)."""
    index: dict[str, list[Atom]] = {}
    for atom in atoms:
        index.setdefault(atom[0], []).append(atom)
    return index


def _variables(atom: Atom) -> list[str]:
    return [term for term in atom[1:] if term.startswith("?")]


def join_order(items: Sequence[T], atom: Callable[[T], Atom]) -> tuple[T, ...]:
    """``items`` ordered so that each one's atom shares as many variables as possible with those
    before it, then introduces as few new ones as possible (fewer candidate facts to try).

    Args:
        items: the conjuncts (atoms, or anything that carries one).
        atom: the lifted atom of an item, ``(predicate, term, ...)``.
    """
    remaining = list(items)
    bound: set[str] = set()
    order: list[T] = []
    while remaining:
        best = max(
            remaining,
            key=lambda item: (
                sum(t in bound for t in _variables(atom(item))),
                -sum(t not in bound for t in _variables(atom(item))),
            ),
        )
        remaining.remove(best)
        order.append(best)
        bound.update(_variables(atom(best)))
    return tuple(order)


def join_bindings(
    patterns: Sequence[Atom],
    indexes: Sequence[Index],
    type_sets: Mapping[str, AbstractSet[str]],
    variable_types: Mapping[str, str],
    deadline: float | None = None,
) -> Iterator[dict[str, str]]:
    """Every binding of the patterns' variables under which each pattern is one of its facts.

    Args:
        patterns: lifted atoms, in join order (see :func:`join_order`).
        indexes: for each pattern, the ground atoms it is matched against (a state's, or a
            goal's), grouped by predicate; ``len(indexes) == len(patterns)``.
        type_sets: the objects of each type (subtypes included).
        variable_types: each variable's type; a variable binds only objects of its type (an
            unknown type binds nothing).
        deadline: a :func:`time.perf_counter` time; past it, the join stops with
            :class:`JoinTimeout` (checked at each fact tried for the first
            :data:`CHECKED_DEPTH` patterns), so one huge join cannot outlast a time budget.

    Yields:
        One dict per binding, variable -> object. The same dict is reused and changed after the
        caller resumes the generator: copy it to keep it.

    Raises:
        JoinTimeout: ``deadline`` passed before the join finished.
    """
    binding: dict[str, str] = {}

    def extend(depth: int) -> Iterator[dict[str, str]]:
        if depth == len(patterns):
            yield binding
            return
        pattern = patterns[depth]
        checked = deadline is not None and depth < CHECKED_DEPTH
        for fact in indexes[depth].get(pattern[0], ()):
            if checked and time.perf_counter() > deadline:  # type: ignore[operator]
                raise JoinTimeout(f"the join of {len(patterns)} patterns outlasted its deadline")
            if len(fact) != len(pattern):
                continue
            added: list[str] = []
            fits = True
            for term, value in zip(pattern[1:], fact[1:]):
                if not term.startswith("?"):
                    fits = term == value
                elif term in binding:
                    fits = binding[term] == value
                elif value in type_sets.get(variable_types.get(term, ""), ()):
                    binding[term] = value
                    added.append(term)
                else:
                    fits = False
                if not fits:
                    break
            if fits:
                yield from extend(depth + 1)
            for term in added:
                del binding[term]

    return extend(0)
