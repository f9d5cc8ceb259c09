"""genplan's own reader for STRIPS domains: the fast path beside the ``pddl`` library.

Building the library's domain parser takes about 0.1 s per process (a Lark grammar), more than
everything else ``genplan solve`` does on a small problem, so domains in the STRIPS fragment
genplan supports are built straight from the checked s-expression tree. Anything else (``or``,
quantifiers, conditional effects, ``either`` types, numeric fluents other than action costs,
derived predicates, durative actions, constraints) returns ``None`` and goes to the library
(:mod:`genplan.pddl.library`), which also serves as this reader's oracle in
``tests/pddl/test_pddl_fast.py``. Like the library, conjunctions keep the first of repeated
literals.

Action costs (PDDL 3.1 ``:action-costs``, as in the IPC since 2008) are read here: a
``(:functions ...)`` section and, in an effect, one ``(increase (total-cost) N)`` with ``N`` a
non-negative number or a function term over the action's parameters and constants, such as
``(increase (total-cost) (road-length ?from ?to))``.
"""

from __future__ import annotations

from typing import Any

from genplan.pddl.domain_check import ROOT_TYPE, typed_list
from genplan.pddl.sexpr import Expression, Word

Atom = tuple[str, ...]

_PLAIN_SECTIONS = frozenset({":requirements", ":types", ":constants", ":predicates", ":functions", ":action"})


class _Outside(Exception):
    """The domain uses something this reader leaves to the library."""


def domain_fields_from_tree(tree: Expression) -> dict[str, Any] | None:
    """The fields of a :class:`~genplan.pddl.domain.Domain` read from a checked domain tree.

    Args:
        tree: a domain read by :func:`~genplan.pddl.sexpr.read_expression` that passed
            :func:`~genplan.pddl.domain_check.check_domain`.

    Returns:
        A dict as :func:`genplan.pddl.library.library_domain` returns, or ``None`` when the
        domain is outside the STRIPS fragment (the library then decides).
    """
    try:
        return _read(tree)
    except _Outside:
        return None


def _simple_typed(items: list[object]) -> list[tuple[str, str]]:
    pairs = []
    for name, type_name, _ in typed_list(items, None, ""):
        if not isinstance(type_name, str):
            raise _Outside  # (either ...)
        pairs.append((str(name), type_name))
    return pairs


def _read(tree: Expression) -> dict[str, Any]:
    header = tree[1]
    requirements: set[str] = set()
    types: dict[str, str] = {}
    constants: dict[str, str] = {}
    predicates: dict[str, tuple[str, ...]] = {}
    functions: dict[str, tuple[str, ...]] = {}
    operators: dict[str, tuple[Any, ...]] = {}
    for section in tree[2:]:
        kind = section.head
        if kind not in _PLAIN_SECTIONS:
            raise _Outside
        if kind == ":requirements":
            requirements.update(str(r) for r in section[1:])
        elif kind == ":types":
            for name, parent in _simple_typed(section[1:]):
                if name != ROOT_TYPE:  # declaring object itself (IPC Gripper) is a no-op
                    types[name] = parent
        elif kind == ":constants":
            constants.update(_simple_typed(section[1:]))
        elif kind == ":predicates":
            for predicate in section[1:]:
                predicates[str(predicate.head)] = tuple(t for _, t in _simple_typed(predicate[1:]))
        elif kind == ":functions":
            functions.update(_functions(section[1:]))
        else:
            operators[str(section[1])] = _operator(section)
    return {
        "name": str(header[1]),
        "typed": bool(types) or ":typing" in requirements,
        "types": types,
        "predicates": dict(sorted(predicates.items())),
        "operators": operators,
        "constants": dict(sorted(constants.items())),
        "requirements": tuple(sorted(requirements)),
        "functions": dict(sorted(functions.items())),
    }


def _functions(items: list[object]) -> dict[str, tuple[str, ...]]:
    """``(:functions (total-cost) - number (road-length ?a ?b - place) - number)``: name ->
    parameter types; only number-valued functions are read."""
    functions: dict[str, tuple[str, ...]] = {}
    index = 0
    while index < len(items):
        item = items[index]
        if not isinstance(item, Expression) or item.head is None:
            raise _Outside
        index += 1
        if index < len(items) and items[index] == "-":
            if index + 1 >= len(items) or items[index + 1] != "number":
                raise _Outside  # object fluents
            index += 2
        functions[str(item.head)] = tuple(t for _, t in _simple_typed(item[1:]))
    return functions


def _operator(section: Expression) -> tuple[Any, ...]:
    keys = {str(section[i]): section[i + 1] for i in range(2, len(section) - 1, 2)}
    parameters = tuple(_simple_typed(list(keys.get(":parameters", []))))
    positive, negative = _literals(keys.get(":precondition"), allow_equality=True)
    effect, cost = _cost(keys.get(":effect"))
    add, delete = _literals(effect, allow_equality=False)
    return parameters, positive, negative, add, delete, cost


def _cost(formula: object) -> tuple[object, float | Atom | None]:
    """The effect without its ``(increase (total-cost) N)``, and ``N``: a number, a lifted
    function term ``(name, ?x, ...)``, or ``None`` when the effect has no cost."""
    if not isinstance(formula, Expression) or not formula:
        return formula, None
    parts = _conjuncts(formula)
    costs = [part for part in parts if isinstance(part, Expression) and part.head == "increase"]
    if not costs:
        return formula, None
    increase = costs[0]
    if len(costs) > 1 or len(increase) != 3 or not isinstance(increase[1], Expression):
        raise _Outside
    if [str(word) for word in increase[1]] != ["total-cost"]:
        raise _Outside  # another numeric fluent
    amount = increase[2]
    cost: float | Atom
    if isinstance(amount, Word):
        try:
            cost = float(amount)
        except ValueError:
            raise _Outside from None
        if cost < 0 or cost != cost:
            raise _Outside
    else:
        cost = _atom(amount)
    rest = Expression(formula.line)
    rest.append(Word("and", formula.line))
    rest.extend(part for part in parts if part is not increase)
    return rest, cost


def _literals(formula: object, *, allow_equality: bool) -> tuple[tuple[Atom, ...], tuple[Atom, ...]]:
    if formula is None or (isinstance(formula, Expression) and not formula):
        return (), ()  # `()` is the empty conjunction (PDDL 3.1; VAL and Fast Downward agree)
    if not isinstance(formula, Expression):
        raise _Outside
    positive: dict[Atom, None] = {}
    negative: dict[Atom, None] = {}
    for part in _conjuncts(formula):
        target = positive
        if isinstance(part, Expression) and part.head == "not" and len(part) == 2:
            target, part = negative, part[1]
        atom = _atom(part)
        if atom[0] == "=" and not allow_equality:
            raise _Outside
        target.setdefault(atom, None)
    return tuple(positive), tuple(negative)


def _conjuncts(formula: Expression) -> list[object]:
    """The literals of a conjunction, nested conjunctions flattened in order."""
    if formula.head != "and":
        return [formula]
    parts: list[object] = []
    for part in formula[1:]:
        parts.extend(_conjuncts(part) if isinstance(part, Expression) and part.head == "and" else [part])
    return parts


def _atom(formula: object) -> Atom:
    if (
        not isinstance(formula, Expression)
        or formula.head is None
        or formula.head in ("and", "or", "not", "imply", "forall", "exists", "when")
        or not all(isinstance(item, Word) for item in formula)
    ):
        raise _Outside
    return tuple(str(item) for item in formula)
