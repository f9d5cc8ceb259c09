"""PDDL domains as data: operators with STRIPS preconditions and effects, types, constants.

Parsing is done by the ``pddl`` library (after :mod:`genplan.pddl.text` normalises the text);
this module turns its formula trees into the flat STRIPS form that the plan checker, the
simulator, the prompts and the name obfuscation need. Supported: conjunctions of atoms,
negated atoms and ``=`` in preconditions; conjunctions of atoms and negated atoms in effects
(the fragment of all seven domains of Silver et al. 2024, Sec. 5.1).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pddl.core
from pddl.logic.base import And, Not
from pddl.logic.predicates import EqualTo, Predicate
from pddl.parser.domain import DomainParser

from genplan.errors import PddlError
from genplan.pddl.text import add_missing_requirements, parse_with_location, strip_comments_and_lower

Atom = tuple[str, ...]
"""A ground or lifted atom: ``(predicate, argument, ...)``; lifted arguments start with ``?``."""

ROOT_TYPE = "object"


@dataclass(frozen=True)
class Operator:
    """A lifted STRIPS operator (an action schema).

    Attributes:
        name: operator name, lower case.
        parameters: ``(variable, type)`` pairs in order; variables keep their ``?``; the type is
            ``"object"`` in untyped domains.
        positive_preconditions / negative_preconditions: lifted atoms that must hold / not hold.
            Equality tests use the predicate ``"="``.
        add_effects / delete_effects: lifted atoms made true / false.
    """

    name: str
    parameters: tuple[tuple[str, str], ...]
    positive_preconditions: tuple[Atom, ...]
    negative_preconditions: tuple[Atom, ...]
    add_effects: tuple[Atom, ...]
    delete_effects: tuple[Atom, ...]

    @property
    def signature(self) -> str:
        """The operator as the paper's syntax feedback shows it, e.g. ``(walk ?from ?to)``."""
        return "(" + " ".join([self.name, *(variable for variable, _ in self.parameters)]) + ")"


@dataclass(frozen=True)
class Domain:
    """A parsed PDDL domain.

    Attributes:
        name: the domain's name, lower case.
        typed: whether the domain declares types (objects are then ``(name, type)`` pairs).
        types: each declared type mapped to its parent type (``"object"`` at the root).
        predicates: predicate name mapped to its parameter types, in order.
        operators: operator name mapped to :class:`Operator`, sorted by name.
        constants: constant name mapped to its type.
        requirements: the requirement keywords after normalisation, e.g. ``(":strips", ":typing")``.
        text: the normalised PDDL text that was parsed.
        source: the file read, or ``None``.
    """

    name: str
    typed: bool
    types: Mapping[str, str]
    predicates: Mapping[str, tuple[str, ...]]
    operators: Mapping[str, Operator]
    constants: Mapping[str, str]
    requirements: tuple[str, ...]
    text: str = field(repr=False, compare=False)
    source: Path | None = field(default=None, compare=False)

    def __hash__(self) -> int:
        return hash((self.name, self.text))

    def is_subtype(self, type_name: str, of: str) -> bool:
        """Whether ``type_name`` equals ``of`` or descends from it in the type hierarchy."""
        seen: set[str] = set()
        current: str | None = type_name
        while current is not None and current not in seen:
            if current == of:
                return True
            seen.add(current)
            current = self.types.get(current) if current != ROOT_TYPE else None
        return of == ROOT_TYPE

    def valid_operators_text(self) -> str:
        """The operator list of the paper's syntax feedback: ``(climb ?from ?to) (walk ?from ?to)``."""
        return " ".join(operator.signature for operator in self.operators.values())

    def to_pddl(self) -> str:
        """The domain as PDDL text (the normalised text it was parsed from)."""
        return self.text


def parse_domain_text(text: str, source: Path | None = None) -> Domain:
    """Parse domain PDDL ``text`` into a :class:`Domain`.

    Raises:
        PddlError: malformed PDDL, or constructs outside the STRIPS fragment described in the
            module docstring; names ``source`` and the line where known.
    """
    normalised = add_missing_requirements(strip_comments_and_lower(text))
    parsed = parse_with_location(DomainParser(), normalised, source)
    return _from_library(parsed, normalised, source)


@functools.lru_cache(maxsize=64)
def _load_domain_cached(path: Path, modified_ns: int, size: int) -> Domain:
    return parse_domain_text(path.read_text(), path)


def load_domain(path: Path | str) -> Domain:
    """Read and parse a domain file; a file parsed before in this process is not parsed again.

    Raises:
        PddlError: the file is missing, unreadable or malformed (names the file and line).
    """
    resolved = Path(path).resolve()
    try:
        stat = resolved.stat()
    except OSError as error:
        raise PddlError(f"cannot read domain file: {error.strerror}", path) from error
    return _load_domain_cached(resolved, stat.st_mtime_ns, stat.st_size)


def _from_library(parsed: pddl.core.Domain, text: str, source: Path | None) -> Domain:
    requirements = tuple(sorted(":" + str(r).lstrip(":") for r in parsed.requirements))
    typed = bool(parsed.types) or ":typing" in requirements
    types = {str(name): str(parent) if parent else ROOT_TYPE for name, parent in parsed.types.items()}
    predicates = {
        str(predicate.name): tuple(_type_of(term.type_tags) for term in predicate.terms)
        for predicate in sorted(parsed.predicates, key=lambda p: str(p.name))
    }
    constants = {str(c.name): _type_of(c.type_tags) for c in parsed.constants}
    operators = {}
    for action in sorted(parsed.actions, key=lambda a: str(a.name)):
        where = f"operator {action.name}"
        positive, negative = _split_literals(action.precondition, where, source, text, allow_equality=True)
        add, delete = _split_literals(action.effect, where, source, text, allow_equality=False)
        operators[str(action.name)] = Operator(
            name=str(action.name),
            parameters=tuple(("?" + str(p.name), _type_of(p.type_tags)) for p in action.parameters),
            positive_preconditions=positive,
            negative_preconditions=negative,
            add_effects=add,
            delete_effects=delete,
        )
    return Domain(
        name=str(parsed.name),
        typed=typed,
        types=types,
        predicates=predicates,
        operators=operators,
        constants=constants,
        requirements=requirements,
        text=text,
        source=source,
    )


def _type_of(type_tags: Iterable[object]) -> str:
    tags = sorted(str(tag) for tag in type_tags)
    return tags[0] if tags else ROOT_TYPE


def _term_text(term: object) -> str:
    name = str(getattr(term, "name", term))
    return "?" + name if type(term).__name__ == "Variable" else name


def _atom_of(formula: object) -> Atom | None:
    if isinstance(formula, Predicate):
        return (str(formula.name), *(_term_text(t) for t in formula.terms))
    if isinstance(formula, EqualTo):
        return ("=", _term_text(formula.left), _term_text(formula.right))
    return None


def _split_literals(
    formula: object, where: str, source: Path | None, text: str, *, allow_equality: bool
) -> tuple[tuple[Atom, ...], tuple[Atom, ...]]:
    """Flatten a conjunction of literals into (positive atoms, negative atoms)."""
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
