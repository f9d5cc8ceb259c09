"""The ``pddl`` library's parsers: the fallback of genplan's fast paths and their test oracle.

Domains and problems inside the fragment genplan's own readers understand (see
:mod:`genplan.pddl.domain` and :mod:`genplan.pddl.problem_reader`) never come here; anything
else does, and ``tests/pddl/test_pddl_fast.py`` checks that both paths agree on every domain and
problem genplan ships or generates, and on files laid out as IPC files are
(``tests/data/ipc-style``). The library builds a Lark grammar per parser (about 0.1 s), so each
parser is built once per process, and only when first needed (importing this module imports
nothing of the library).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from genplan.errors import PddlError
from genplan.pddl.text import parse_with_location

ROOT_TYPE = "object"

Atom = tuple[str, ...]
RawProblem = tuple[str, str, list[tuple[str, str]], list[Atom], list[Atom]]
"""``(name, domain name, [(object, type)], init atoms, goal atoms)``."""


@functools.cache
def _domain_parser() -> Any:
    from pddl.parser.domain import DomainParser

    return DomainParser()


@functools.cache
def _problem_parser() -> Any:
    from pddl.parser.problem import ProblemParser

    return ProblemParser()


def library_domain(text: str, source: Path | None) -> dict[str, Any]:
    """Parse normalised domain ``text`` with the ``pddl`` library; return the fields of a ``Domain``.

    Returns a dict with ``name``, ``typed``, ``types``, ``predicates``, ``operators`` (name ->
    ``(parameters, positive, negative, add, delete, cost)``, the cost always ``None``: action
    costs are read by genplan's reader alone), ``constants``, ``requirements`` and ``functions``
    (empty).

    Raises:
        PddlError: malformed PDDL, or formulas outside conjunctions of literals (names the
            action and its line).
    """
    parsed = parse_with_location(_domain_parser(), text, source)
    requirements = tuple(sorted(":" + str(r).lstrip(":") for r in parsed.requirements))
    typed = bool(parsed.types) or ":typing" in requirements
    types = {str(name): str(parent) if parent else ROOT_TYPE for name, parent in parsed.types.items()}
    predicates = {
        str(predicate.name): tuple(_type_of(term.type_tags) for term in predicate.terms)
        for predicate in sorted(parsed.predicates, key=lambda p: str(p.name))
    }
    constants = {
        str(c.name): _type_of(c.type_tags) for c in sorted(parsed.constants, key=lambda c: str(c.name))
    }
    operators = {}
    for action in sorted(parsed.actions, key=lambda a: str(a.name)):
        where = f"operator {action.name}"
        positive, negative = _split_literals(action.precondition, where, source, text, allow_equality=True)
        add, delete = _split_literals(action.effect, where, source, text, allow_equality=False)
        parameters = tuple(("?" + str(p.name), _type_of(p.type_tags)) for p in action.parameters)
        operators[str(action.name)] = (parameters, positive, negative, add, delete, None)
    return {
        "name": str(parsed.name),
        "typed": typed,
        "types": types,
        "predicates": predicates,
        "operators": operators,
        "constants": constants,
        "requirements": requirements,
        "functions": {},
    }


def library_problem(text: str, source: Path | None) -> RawProblem:
    """Parse normalised problem ``text`` with the ``pddl`` library.

    Returns:
        ``(name, domain name, [(object, type)] sorted by name, init atoms, goal atoms)``, as
        :func:`genplan.pddl.problem_reader.read_problem` returns them.

    Raises:
        PddlError: malformed PDDL, or an initial fact or goal conjunct that is not a ground
            atom (names the file and line).
    """
    from pddl.logic.base import And

    parsed = parse_with_location(_problem_parser(), text, source)
    objects = [
        (str(obj.name), _type_of(obj.type_tags)) for obj in sorted(parsed.objects, key=lambda o: str(o.name))
    ]
    goal = list(parsed.goal.operands) if isinstance(parsed.goal, And) else [parsed.goal]
    init_atoms = [_ground_atom(f, text, source) for f in parsed.init]
    goal_atoms = [_ground_atom(f, text, source) for f in goal]
    return str(parsed.name), str(parsed.domain_name), objects, init_atoms, goal_atoms


def _ground_atom(formula: object, text: str, source: Path | None) -> Atom:
    from pddl.logic.predicates import Predicate

    if not isinstance(formula, Predicate):
        found = text.find(str(formula))
        line = text.count("\n", 0, found) + 1 if found >= 0 else None
        raise PddlError(f"unsupported formula {formula} (only atoms are supported here)", source, line)
    return (str(formula.name), *(str(t.name) for t in formula.terms))


def _type_of(type_tags: Iterable[object]) -> str:
    tags = sorted(str(tag) for tag in type_tags)
    return tags[0] if tags else ROOT_TYPE


def _term_text(term: object) -> str:
    name = str(getattr(term, "name", term))
    return "?" + name if type(term).__name__ == "Variable" else name


def _atom_of(formula: object) -> Atom | None:
    from pddl.logic.predicates import EqualTo, Predicate

    if isinstance(formula, Predicate):
        return (str(formula.name), *(_term_text(t) for t in formula.terms))
    if isinstance(formula, EqualTo):
        return ("=", _term_text(formula.left), _term_text(formula.right))
    return None


def _split_literals(
    formula: object, where: str, source: Path | None, text: str, *, allow_equality: bool
) -> tuple[tuple[Atom, ...], tuple[Atom, ...]]:
    """Flatten a conjunction of literals into (positive atoms, negative atoms)."""
    from pddl.logic.base import And, Not

    positive: list[Atom] = []
    negative: list[Atom] = []
    if formula is None:
        return (), ()
    parts = list(formula.operands) if isinstance(formula, And) else [formula]
    for part in parts:
        target = positive
        if isinstance(part, Not):
            target, part = negative, part.argument
        atom = _atom_of(part)
        if atom is None or (atom[0] == "=" and not allow_equality):
            line = None
            name = where.split()[-1]
            found = text.find(f"(:action {name}")
            if found >= 0:
                line = text.count("\n", 0, found) + 1
            raise PddlError(
                f"{where}: unsupported formula {part} (genplan supports conjunctions of literals)",
                source,
                line,
            )
        target.append(atom)
    return tuple(positive), tuple(negative)
