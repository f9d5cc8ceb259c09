"""PDDL domains as data: operators with STRIPS preconditions and effects, types, constants.

A domain is normalised (:mod:`genplan.pddl.text`), checked (:mod:`genplan.pddl.domain_check`)
and turned into the flat STRIPS form that the plan checker, the simulator, the prompts and the
name obfuscation need, by genplan's reader (:mod:`genplan.pddl.domain_reader`) or, for
anything outside it, the ``pddl`` library (:mod:`genplan.pddl.library`). Supported: conjunctions of atoms,
negated atoms and ``=`` in preconditions; conjunctions of atoms and negated atoms in effects
(the fragment of all seven domains of Silver et al. 2024, Sec. 5.1), and action costs
(``:action-costs``: one ``(increase (total-cost) N)`` per effect, ``N`` a number or a function
term, as in the IPC domains since 2008).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from genplan.errors import PddlError
from genplan.pddl.domain_check import check_domain
from genplan.pddl.domain_reader import domain_fields_from_tree
from genplan.pddl.sexpr import read_expression
from genplan.pddl.text import (
    add_missing_requirements,
    drop_empty_sections,
    read_pddl_file,
    strip_comments_and_lower,
)

Atom = tuple[str, ...]
"""A ground or lifted atom: ``(predicate, argument, ...)``; lifted arguments start with ``?``."""

ActionCost = float | Atom
"""What an action adds to ``(total-cost)``: a number, or a lifted function term such as
``("road-length", "?from", "?to")`` whose value the problem's ``:init`` gives."""

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
        cost: the amount of the effect's ``(increase (total-cost) N)``, or ``None`` when the
            effect has none (the action then costs 0 under a ``total-cost`` metric, as in VAL
            and Fast Downward).
    """

    name: str
    parameters: tuple[tuple[str, str], ...]
    positive_preconditions: tuple[Atom, ...]
    negative_preconditions: tuple[Atom, ...]
    add_effects: tuple[Atom, ...]
    delete_effects: tuple[Atom, ...]
    cost: ActionCost | None = None

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
        functions: numeric functions of ``(:functions ...)`` mapped to their parameter types,
            e.g. ``{"total-cost": ()}``; empty without action costs.
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
    functions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.name, self.text))

    @property
    def fluent_predicates(self) -> frozenset[str]:
        """Predicates some operator adds or deletes: the only ones whose atoms can change."""
        return frozenset(
            atom[0]
            for operator in self.operators.values()
            for atom in (*operator.add_effects, *operator.delete_effects)
        )

    @property
    def static_predicates(self) -> list[str]:
        """Predicates no operator adds or deletes (their atoms hold in every state as in the
        initial state), sorted."""
        changing = self.fluent_predicates
        return sorted(p for p in self.predicates if p not in changing)

    @property
    def has_action_costs(self) -> bool:
        """Whether some operator increases ``(total-cost)``."""
        return any(operator.cost is not None for operator in self.operators.values())

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
    """Parse domain PDDL ``text`` into a :class:`Domain`, checking it first.

    The text is normalised (:mod:`genplan.pddl.text`), read with line numbers and checked
    (:mod:`genplan.pddl.domain_check`: declared predicates, arities, variables, types,
    constants, requirements). A domain in the STRIPS fragment is then built directly; anything
    else goes through the ``pddl`` library (:mod:`genplan.pddl.library`), which gives the same
    result where both apply (``tests/pddl/test_pddl_fast.py``).

    Raises:
        PddlError: malformed PDDL, a failed check, or constructs outside the STRIPS fragment
            described in the module docstring; names ``source`` and the line.
    """
    normalised = add_missing_requirements(drop_empty_sections(strip_comments_and_lower(text)))
    tree = read_expression(normalised, source)
    check_domain(tree, source)
    fields = domain_fields_from_tree(tree)
    if fields is None:
        from genplan.pddl.library import library_domain

        fields = library_domain(normalised, source)
    operators = {name: Operator(name, *parts) for name, parts in sorted(fields.pop("operators").items())}
    return Domain(**fields, operators=operators, text=normalised, source=source)


@functools.lru_cache(maxsize=64)
def _load_domain_cached(path: Path, modified_ns: int, size: int) -> Domain:
    return parse_domain_text(read_pddl_file(path, "domain"), path)


def load_domain(path: Path | str) -> Domain:
    """Read and parse a domain file; a file parsed before in this process is not parsed again.

    Raises:
        PddlError: the file is missing, unreadable, not UTF-8 or malformed, or fails the
            domain check (names the file and line).
    """
    resolved = Path(path).resolve()
    try:
        stat = resolved.stat()
    except OSError as error:
        raise PddlError(f"cannot read domain file: {error.strerror}", path) from error
    return _load_domain_cached(resolved, stat.st_mtime_ns, stat.st_size)
