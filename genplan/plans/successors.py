"""Every applicable ground action of a STRIPS problem in a state, and the successor it leads to.

This is the transition function ``f(s, a)`` of a planning problem in PDDL semantics (an action
is applicable when its positive preconditions hold and its negative ones do not; its result
deletes the delete effects, then adds the add effects, as VAL and
:func:`genplan.plans.simulator.apply` do). Approaches use it as the ground truth a model's
search components are checked against (AutoToS, Cao et al., AAAI 2025, Sec. 4: a successor
function is *sound* when it yields only such successors, *complete* when it yields all of them).

Actions are found by matching positive preconditions against the state's atoms one at a time
(:mod:`genplan.plans.joins`: each bound variable narrows the next match), not by trying every
tuple of objects, so a state
with a few hundred atoms costs well under a millisecond. The generator is plain data and
round-trips through JSON, so trusted code inside the sandbox can rebuild it without the PDDL
parser.

States may leave out the *static* facts (atoms of predicates no operator adds or deletes): a
generator built with ``static_atoms`` matches preconditions on static predicates against those
atoms, given once, and the states it takes and returns hold only the fluent atoms, as
Pyperplan's states do. A search over large problems then keeps states a fraction of the size
(heavy's "heavier" relation, a grid's adjacency).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from genplan.pddl.domain import Atom, Domain, Operator
from genplan.pddl.problem import Problem
from genplan.plans.joins import index_atoms, join_bindings, join_order


@dataclass(frozen=True)
class _Schema:
    """An operator prepared for matching: preconditions in join order, variables by position."""

    operator: Operator
    joins: tuple[Atom, ...]
    checks_equal: tuple[Atom, ...]
    checks_negative: tuple[Atom, ...]
    parameter_types: Mapping[str, str]


def _schema(operator: Operator) -> _Schema:
    positive = [a for a in operator.positive_preconditions if a[0] != "="]
    equal = tuple(a for a in operator.positive_preconditions if a[0] == "=")
    return _Schema(
        operator,
        join_order(positive, lambda atom: atom),
        equal,
        tuple(operator.negative_preconditions),
        dict(operator.parameters),
    )


def _ground(atom: Atom, binding: Mapping[str, str]) -> Atom:
    return tuple(binding.get(term, term) for term in atom)


class SuccessorGenerator:
    """Applicable ground actions and successor states of one problem's objects.

    Args:
        operators: the domain's operators.
        type_objects: for every parameter type used, the objects of that type or a subtype.
        static_atoms: ``None`` (states hold every true atom), or the problem's atoms, of which
            those of static predicates (every predicate not in :attr:`fluent_predicates`) are
            kept: states then hold only fluent atoms (:meth:`fluent`), and preconditions on
            static predicates are matched against these atoms.

    Build it with :meth:`for_problem` (or :meth:`from_json` on the other side of the sandbox).
    """

    def __init__(
        self,
        operators: Sequence[Operator],
        type_objects: Mapping[str, Sequence[str]],
        static_atoms: AbstractSet[Atom] | None = None,
    ):
        self.operators = tuple(sorted(operators, key=lambda o: o.name))
        self.type_objects = {t: tuple(sorted(objs)) for t, objs in type_objects.items()}
        self._type_sets = {t: frozenset(objs) for t, objs in self.type_objects.items()}
        self._schemas = tuple(_schema(o) for o in self.operators)
        self._by_name = {o.name: o for o in self.operators}
        changing = {a[0] for o in self.operators for a in (*o.add_effects, *o.delete_effects)}
        self.fluent_predicates = frozenset(changing)
        """Predicates some operator adds or deletes; every other predicate is static."""
        self.static_atoms: frozenset[Atom] | None = (
            None if static_atoms is None else frozenset(a for a in static_atoms if a[0] not in changing)
        )
        """The static facts states leave out, or ``None`` when states hold every atom."""
        self._static_index = None if self.static_atoms is None else index_atoms(self.static_atoms)
        self._static_joins = tuple(
            tuple(a[0] not in changing for a in schema.joins) for schema in self._schemas
        )

    @classmethod
    def for_problem(cls, problem: Problem, *, fluent: bool = False) -> SuccessorGenerator:
        """The generator for ``problem``'s domain and objects (constants included); with
        ``fluent``, over states without the static facts (taken from ``problem``'s initial state)."""
        domain: Domain = problem.domain
        types = {t for o in domain.operators.values() for _, t in o.parameters}
        type_objects = {
            t: [o for o, ot in problem.object_types.items() if not domain.typed or domain.is_subtype(ot, t)]
            for t in types
        }
        return cls(list(domain.operators.values()), type_objects, problem.init if fluent else None)

    def fluent(self, atoms: AbstractSet[Atom]) -> frozenset[Atom]:
        """The atoms of ``atoms`` whose predicate some operator changes: a full state as this
        generator's states hold it when built with static atoms."""
        fluent_predicates = self.fluent_predicates
        return frozenset(a for a in atoms if a[0] in fluent_predicates)

    def applicable(self, state: AbstractSet[Atom]) -> list[Atom]:
        """Every ground action applicable in ``state``, as ``(operator, object, ...)``, sorted."""
        index = index_atoms(state)
        static_index = self._static_index
        static = self.static_atoms
        actions: set[Atom] = set()
        for schema, static_joins in zip(self._schemas, self._static_joins):
            parameters = schema.operator.parameters
            if static_index is None:
                indexes = [index] * len(schema.joins)
            else:
                indexes = [static_index if is_static else index for is_static in static_joins]
            for binding in join_bindings(schema.joins, indexes, self._type_sets, schema.parameter_types):
                free = [(v, t) for v, t in parameters if v not in binding]
                choices = [self.type_objects.get(t, ()) for _, t in free]
                for values in itertools.product(*choices):
                    full = dict(binding)
                    full.update(zip((v for v, _ in free), values))
                    if not all(full.get(a[1], a[1]) == full.get(a[2], a[2]) for a in schema.checks_equal):
                        continue
                    if any(
                        _holds(
                            _ground(a, full),
                            state if static is None or a[0] in self.fluent_predicates else static,
                        )
                        for a in schema.checks_negative
                    ):
                        continue
                    actions.add((schema.operator.name, *(full[v] for v, _ in parameters)))
        return sorted(actions)

    def apply(self, action: Atom, state: AbstractSet[Atom]) -> frozenset[Atom]:
        """The state ``action`` leads to from ``state`` (deletes first, then adds); the action's
        applicability is not checked.

        Raises:
            KeyError: no operator has the action's name.
        """
        operator = self._by_name[action[0]]
        binding = {v: a for (v, _), a in zip(operator.parameters, action[1:])}
        deleted = {_ground(a, binding) for a in operator.delete_effects}
        added = {_ground(a, binding) for a in operator.add_effects}
        return frozenset((set(state) - deleted) | added)

    def successors(self, state: AbstractSet[Atom]) -> list[tuple[Atom, frozenset[Atom]]]:
        """``(action, successor state)`` for every applicable ground action, sorted by action."""
        return [(action, self.apply(action, state)) for action in self.applicable(state)]

    # -- JSON --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Plain data: the operators, the objects of each parameter type and, when given, the
        static atoms."""
        data: dict[str, Any] = {
            "operators": [
                {
                    "name": o.name,
                    "parameters": [list(p) for p in o.parameters],
                    "positive_preconditions": [list(a) for a in o.positive_preconditions],
                    "negative_preconditions": [list(a) for a in o.negative_preconditions],
                    "add_effects": [list(a) for a in o.add_effects],
                    "delete_effects": [list(a) for a in o.delete_effects],
                }
                for o in self.operators
            ],
            "type_objects": {t: list(objs) for t, objs in self.type_objects.items()},
        }
        if self.static_atoms is not None:
            data["static_atoms"] = sorted(list(a) for a in self.static_atoms)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SuccessorGenerator:
        """Inverse of :meth:`to_json`.

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not what :meth:`to_json` writes.
        """

        def atoms(items: Sequence[Sequence[str]]) -> tuple[Atom, ...]:
            return tuple(tuple(str(t) for t in item) for item in items)

        operators = [
            Operator(
                name=str(o["name"]),
                parameters=tuple((str(v), str(t)) for v, t in o["parameters"]),
                positive_preconditions=atoms(o["positive_preconditions"]),
                negative_preconditions=atoms(o["negative_preconditions"]),
                add_effects=atoms(o["add_effects"]),
                delete_effects=atoms(o["delete_effects"]),
            )
            for o in data["operators"]
        ]
        type_objects = {str(t): [str(x) for x in objs] for t, objs in data["type_objects"].items()}
        static = data.get("static_atoms")
        return cls(operators, type_objects, None if static is None else frozenset(atoms(static)))


def _holds(atom: Atom, state: AbstractSet[Atom]) -> bool:
    if atom[0] == "=":
        return atom[1] == atom[2]
    return atom in state
