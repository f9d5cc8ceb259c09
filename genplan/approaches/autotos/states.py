"""The state representation AutoToS hands to the model's search components, and its JSON form.

A *state* is the set of ground atoms true in it (closed world: every atom not in the set is
false, static facts included); a ground atom is a tuple of strings, the predicate first, e.g.
``('at', 'ball1', 'rooma')``, the form ``get_plan(objects, init, goal)`` receives in the
generalized-plan approach. The model's ``successor_states(state, objects)`` gets the state as
a Python ``set`` (its own copy, so changing it is a detectable bug, Sec. 4.4) and returns new
sets or frozensets; genplan's search keeps states as ``frozenset``s, which hash. ``objects``
is a ``frozenset`` of ``(name, type)`` pairs in typed domains, of names in untyped ones.

Across the sandbox boundary a state travels as a sorted list of lists of strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem

State = frozenset[Atom]
"""A state as genplan's search keeps it."""


def state_to_json(state: Iterable[Atom]) -> list[list[str]]:
    """A state as JSON: its atoms as lists of strings, sorted."""
    return sorted(list(atom) for atom in state)


def state_from_json(data: Iterable[Iterable[str]]) -> State:
    """Inverse of :func:`state_to_json`.

    Raises:
        TypeError: an atom is not a list of strings.
    """
    atoms = []
    for item in data:
        atom = tuple(item)
        if not atom or not all(type(part) is str for part in atom):
            raise TypeError(f"not a ground atom: {item!r}")
        atoms.append(atom)
    return frozenset(atoms)


def objects_to_json(problem: Problem) -> list[Any]:
    """The problem's objects as ``successor_states`` receives them, as JSON: ``[name, type]``
    pairs when the domain is typed, else names; sorted."""
    if problem.domain.typed:
        return sorted([name, type_name] for name, type_name in problem.object_types.items())
    return sorted(problem.object_types)


def objects_from_json(data: Iterable[Any]) -> frozenset[Any]:
    """Inverse of :func:`objects_to_json`: a frozenset of ``(name, type)`` tuples or names."""
    return frozenset(tuple(item) if isinstance(item, list) else item for item in data)


def _natural(text: str) -> tuple[Any, ...]:
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part)


def atom_key(atom: Atom) -> tuple[Any, ...]:
    """Sort key for atoms that puts ``ball2`` before ``ball10``."""
    return tuple(_natural(part) for part in atom)


def atom_text(atom: Atom) -> str:
    """A ground atom as a Python literal: ``('at', 'ball1', 'rooma')``."""
    return repr(tuple(atom))


def state_text(atoms: Iterable[Atom]) -> str:
    """A set of atoms as a Python literal, naturally sorted: ``{('a', 'x'), ('b',)}``
    (``set()`` when empty)."""
    ordered = sorted(atoms, key=atom_key)
    return "{" + ", ".join(atom_text(a) for a in ordered) + "}" if ordered else "set()"


def objects_text(objects: Iterable[Any]) -> str:
    """The ``objects`` argument as a Python literal, naturally sorted: ``frozenset({...})``."""
    ordered = sorted(objects, key=lambda o: atom_key(o if isinstance(o, tuple) else (o,)))
    return "frozenset({" + ", ".join(repr(o) for o in ordered) + "})"
