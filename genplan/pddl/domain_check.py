"""Checking a domain when it loads: every name used is declared, with the right arity and type.

The ``pddl`` library accepts a domain whose action uses an undefined predicate, a predicate
with the wrong number of arguments or a variable that is not a parameter; such a mistake used
to surface only later, as plan-semantics feedback to the model, wasting repair rounds. This
module checks a domain read by :func:`genplan.pddl.sexpr.read_expression` and stops at the
first problem with ``file:line: what is wrong``:

* the ``(define (domain NAME) ...)`` frame and its sections (``:requirements``, ``:types``,
  ``:constants``, ``:predicates``, ``:functions``, ``:constraints``, ``:action``,
  ``:durative-action``, ``:derived``);
* requirements are PDDL 3.1 requirement keywords;
* types of constants, predicate parameters and action parameters are declared (parent types
  in ``:types`` count as declared, as Fast Downward's translator reads them);
* predicates and actions are declared once; variables start with ``?`` and are declared once;
* an action has only ``:parameters``, ``:precondition`` and ``:effect``;
* every atom of a precondition or effect names a declared predicate (or ``=``) with the right
  number of arguments, each a parameter, a quantified variable or a constant, of a type the
  predicate accepts;
* constants are declared once;
* every construct used is one genplan models (:mod:`genplan.pddl.fragment`): anything else,
  such as derived predicates, quantifiers, conditional effects or numeric fluents, is refused
  with its line (:class:`~genplan.pddl.fragment.UnsupportedPddl`); of numeric expressions only
  action costs are read: one ``(increase (total-cost) N)`` per effect, ``N`` a non-negative
  number or a term of a declared number-valued function.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from genplan.errors import PddlError
from genplan.pddl.fragment import refuse
from genplan.pddl.sexpr import Expression, Word

ROOT_TYPE = "object"

REQUIREMENTS = frozenset(
    {
        ":strips",
        ":typing",
        ":negative-preconditions",
        ":disjunctive-preconditions",
        ":equality",
        ":existential-preconditions",
        ":universal-preconditions",
        ":quantified-preconditions",
        ":conditional-effects",
        ":fluents",
        ":numeric-fluents",
        ":object-fluents",
        ":adl",
        ":durative-actions",
        ":duration-inequalities",
        ":continuous-effects",
        ":derived-predicates",
        ":timed-initial-literals",
        ":preferences",
        ":constraints",
        ":action-costs",
    }
)
"""The requirement keywords of PDDL 3.1."""

DOMAIN_SECTIONS = (
    ":requirements",
    ":types",
    ":constants",
    ":predicates",
    ":functions",
    ":constraints",
    ":action",
    ":durative-action",
    ":derived",
)
ACTION_KEYS = (":parameters", ":precondition", ":effect")
_NUMERIC_EFFECTS = frozenset({"increase", "decrease", "assign", "scale-up", "scale-down"})
_COMPARISONS = frozenset({"<", ">", "<=", ">="})
_CONNECTIVES = frozenset({"and", "or", "not", "imply", "forall", "exists", "when", "preference"})
_REFUSED_SECTIONS = {
    ":derived": "derived-predicates",
    ":durative-action": "durative-actions",
    ":constraints": "constraints",
}
_REFUSED_IN_PRECONDITIONS = {
    "or": "disjunctive-preconditions",
    "imply": "disjunctive-preconditions",
    "exists": "existential-preconditions",
    "forall": "universal-preconditions",
    "preference": "preferences",
    "when": "conditional-effects",
}
_REFUSED_IN_EFFECTS = {"when": "conditional-effects", "forall": "conditional-effects"}

TypeName = str | frozenset[str]
"""A declared type: one name, or the set of an ``(either ...)``."""


def typed_list(items: list[object], path: Path | None, what: str) -> list[tuple[Word, TypeName, int]]:
    """Read a typed list ``a b - t c - (either u v) d`` into ``(name, type, line)`` triples.

    Names without a type get ``"object"``.

    Raises:
        PddlError: a ``-`` without a type after it, or a nested list where a name belongs.
    """
    result: list[tuple[Word, TypeName, int]] = []
    pending: list[Word] = []
    index = 0
    while index < len(items):
        item = items[index]
        if isinstance(item, Word) and item == "-":
            if index + 1 >= len(items):
                raise PddlError(f"{what}: `-` without a type after it", path, item.line)
            type_item = items[index + 1]
            type_name = _type_of(type_item, path, what)
            result += [(name, type_name, name.line) for name in pending]
            pending = []
            index += 2
            continue
        if not isinstance(item, Word):
            assert isinstance(item, Expression)
            raise PddlError(f"{what}: expected a name, found the list {item.describe()}", path, item.line)
        pending.append(item)
        index += 1
    return result + [(name, ROOT_TYPE, name.line) for name in pending]


def _type_of(item: object, path: Path | None, what: str) -> TypeName:
    if isinstance(item, Word):
        return str(item)
    assert isinstance(item, Expression)
    if item.head == "either" and len(item) > 1 and all(isinstance(t, Word) for t in item[1:]):
        return frozenset(str(t) for t in item[1:])
    raise PddlError(f"{what}: expected a type name or (either ...), found {item.describe()}", path, item.line)


class _DomainChecker:
    def __init__(self, tree: Expression, path: Path | None):
        self.tree = tree
        self.path = path
        self.parents: dict[str, TypeName] = {}
        self.constants: dict[str, TypeName] = {}
        self.predicates: dict[str, list[TypeName]] = {}
        self.functions: dict[str, int] = {}
        self.typed = False

    def fail(self, reason: str, line: int | None) -> PddlError:
        return PddlError(reason, self.path, line)

    def sections(self) -> Iterator[Expression]:
        tree = self.tree
        if tree.head != "define":
            raise self.fail(f"expected (define (domain NAME) ...), found {tree.describe()}", tree.line)
        header = tree[1] if len(tree) > 1 else None
        if not isinstance(header, Expression) or header.head not in ("domain", "problem") or len(header) != 2:
            raise self.fail("expected (domain NAME) after define", tree.line)
        if header.head == "problem":
            raise self.fail(
                "this is a problem file, not a domain file (it defines (problem ...))", header.line
            )
        for section in tree[2:]:
            if not isinstance(section, Expression) or section.head is None:
                line = section.line
                raise self.fail(f"expected a section such as (:predicates ...), found `{section}`", line)
            if section.head not in DOMAIN_SECTIONS:
                raise self.fail(
                    f"unknown section `{section.head}` (a domain has {', '.join(DOMAIN_SECTIONS)})",
                    section.line,
                )
            yield section

    def check(self) -> None:
        sections = list(self.sections())
        by_kind: dict[str, list[Expression]] = {}
        for section in sections:
            if section.head in _REFUSED_SECTIONS:
                raise refuse(
                    _REFUSED_SECTIONS[str(section.head)], self.path, section.line, section.describe()
                )
            by_kind.setdefault(str(section.head), []).append(section)
        for section in by_kind.get(":requirements", []):
            self.requirements(section)
        for section in by_kind.get(":types", []):
            self.types(section)
        for section in by_kind.get(":constants", []):
            for name, type_name, line in typed_list(section[1:], self.path, "constants"):
                self.declared_type(type_name, line, f"constant {name}")
                if name in self.constants:
                    raise self.fail(f"constant {name} is declared twice", line)
                self.constants[str(name)] = type_name
        for section in by_kind.get(":predicates", []):
            self.predicate_section(section)
        for section in by_kind.get(":functions", []):
            self.function_section(section)
        actions: set[str] = set()
        for section in by_kind.get(":action", []):
            action_name = section[1] if len(section) > 1 else None
            if not isinstance(action_name, Word):
                raise self.fail("an action needs a name: (:action NAME :parameters ...)", section.line)
            if action_name in actions:
                raise self.fail(f"action {action_name} is defined twice", section.line)
            actions.add(str(action_name))
            self.action(section, str(action_name))

    def requirements(self, section: Expression) -> None:
        for item in section[1:]:
            if not isinstance(item, Word) or item not in REQUIREMENTS:
                shown = item if isinstance(item, Word) else item.describe()
                raise self.fail(
                    f"unknown requirement `{shown}` (PDDL requirements: {', '.join(sorted(REQUIREMENTS))})",
                    item.line,
                )
            if item in (":typing", ":adl"):
                self.typed = True

    def types(self, section: Expression) -> None:
        self.typed = True
        for name, parent, line in typed_list(section[1:], self.path, "types"):
            if name == ROOT_TYPE:  # declaring the root type itself, as IPC Gripper does: a no-op
                if parent != ROOT_TYPE:
                    raise self.fail(
                        f"the root type object cannot have a parent type ({_shown(parent)})", line
                    )
                continue
            self.parents[str(name)] = parent
            if isinstance(parent, str) and parent != ROOT_TYPE:
                self.parents.setdefault(parent, ROOT_TYPE)

    def declared_type(self, type_name: TypeName, line: int, what: str) -> None:
        if not isinstance(type_name, str):
            raise refuse("either-types", self.path, line, f"{what} of type {_shown(type_name)}")
        names = [type_name]
        for name in names:
            if name != ROOT_TYPE and name not in self.parents:
                declared = ", ".join(sorted(self.parents)) or "none"
                raise self.fail(f"{what} has undeclared type `{name}` (declared types: {declared})", line)

    def variables(self, items: list[object], what: str) -> dict[str, TypeName]:
        declared: dict[str, TypeName] = {}
        for name, type_name, line in typed_list(items, self.path, what):
            if not name.startswith("?"):
                raise self.fail(f"{what}: `{name}` is not a variable (variables start with ?)", line)
            if name in declared:
                raise self.fail(f"{what}: variable {name} is declared twice", line)
            self.declared_type(type_name, line, f"{what}: variable {name}")
            declared[str(name)] = type_name
        return declared

    def predicate_section(self, section: Expression) -> None:
        for item in section[1:]:
            if not isinstance(item, Expression) or item.head is None:
                shown = item if isinstance(item, Word) else item.describe()
                raise self.fail(f"expected a predicate such as (at ?x ?y), found `{shown}`", item.line)
            name = str(item.head)
            if name in self.predicates:
                raise self.fail(f"predicate {name} is declared twice", item.line)
            self.predicates[name] = list(self.variables(item[1:], f"predicate {name}").values())

    def function_section(self, section: Expression) -> None:
        """``(:functions (total-cost) - number (road-length ?a ?b - place) - number)``: every
        function number-valued (object fluents are refused)."""
        items = section[1:]
        index = 0
        while index < len(items):
            item = items[index]
            if not isinstance(item, Expression) or item.head is None:
                shown = item if isinstance(item, Word) else item.describe()
                raise self.fail(f"expected a function such as (total-cost), found `{shown}`", item.line)
            index += 1
            if index < len(items) and items[index] == "-":
                value_type = items[index + 1] if index + 1 < len(items) else None
                if value_type != "number":
                    shown = value_type if isinstance(value_type, Word) else "nothing"
                    raise refuse("object-fluents", self.path, item.line, f"{item.describe()} - {shown}")
                index += 2
            self.functions[str(item.head)] = len(self.variables(item[1:], f"function {item.head}"))

    def action(self, section: Expression, name: str) -> None:
        where = f"action {name}"
        items = section[2:]
        keys: dict[str, object] = {}
        for index in range(0, len(items), 2):
            key = items[index]
            if not isinstance(key, Word) or key not in ACTION_KEYS:
                shown = key if isinstance(key, Word) else key.describe()
                raise self.fail(
                    f"{where}: unknown `{shown}` (an action has :parameters, :precondition and :effect)",
                    key.line,
                )
            if index + 1 >= len(items):
                raise self.fail(f"{where}: {key} has no value", key.line)
            if key in keys:
                raise self.fail(f"{where}: {key} is given twice", key.line)
            keys[str(key)] = items[index + 1]
        parameters = keys.get(":parameters")
        scope: dict[str, TypeName] = {}
        if parameters is not None:
            if not isinstance(parameters, Expression):
                raise self.fail(f"{where}: :parameters must be a list such as (?x ?y)", section.line)
            scope = self.variables(list(parameters), f"{where}: parameters")
        for key in (":precondition", ":effect"):
            formula = keys.get(key)
            if formula is not None:
                self.formula(formula, scope, where, effect=key == ":effect")
        effect = keys.get(":effect")
        if isinstance(effect, Expression):
            increases = list(_increases(effect))
            if len(increases) > 1:
                raise refuse(
                    "numeric-fluents",
                    self.path,
                    increases[1].line,
                    f"{where}: a second (increase (total-cost) ...) in one effect",
                )

    def formula(self, formula: object, scope: dict[str, TypeName], where: str, *, effect: bool) -> None:
        """Check a precondition (``effect`` false) or an effect: every construct modelled
        (:mod:`genplan.pddl.fragment`), every atom declared and well typed."""
        if not isinstance(formula, Expression):
            assert isinstance(formula, Word)
            raise self.fail(f"{where}: expected a formula in parentheses, found `{formula}`", formula.line)
        head = formula.head
        if not formula:
            return  # () is the empty precondition or effect
        if head is None:
            raise self.fail(
                f"{where}: expected a predicate or a connective, found a nested list", formula.line
            )
        refused = _REFUSED_IN_EFFECTS if effect else _REFUSED_IN_PRECONDITIONS
        if head in refused:
            raise refuse(refused[str(head)], self.path, formula.line, f"{where}: {formula.describe()}")
        if head in _COMPARISONS or (head == "=" and any(isinstance(t, Expression) for t in formula[1:])):
            raise refuse("numeric-fluents", self.path, formula.line, f"{where}: {formula.describe()}")
        if head in _NUMERIC_EFFECTS:
            if not effect:
                raise self.fail(f"{where}: {formula.describe()} is an effect, not a condition", formula.line)
            self.cost_effect(formula, scope, where)
            return
        if head in ("or", "exists", "imply", "preference"):  # in an effect: not PDDL at all
            raise self.fail(f"{where}: ({head} ...) cannot be an effect", formula.line)
        if head == "=" and effect:
            raise self.fail(f"{where}: {formula.describe()}: equality cannot be an effect", formula.line)
        if head == "not" and len(formula) == 2:
            inner = formula[1]
            if not (
                isinstance(inner, Expression) and inner.head is not None and inner.head not in _CONNECTIVES
            ):
                shown = inner.describe() if isinstance(inner, Expression) else str(inner)
                if effect:
                    raise self.fail(
                        f"{where}: (not ...) in an effect deletes one atom, not {shown}", formula.line
                    )
                raise refuse(
                    "disjunctive-preconditions", self.path, formula.line, f"{where}: the negation of {shown}"
                )
        if head in ("and", "not"):  # every other connective was refused above
            if head == "not" and len(formula) != 2:
                raise self.fail(f"{where}: (not ...) takes exactly one formula", formula.line)
            for part in formula[1:]:
                self.formula(part, scope, where, effect=effect)
            return
        self.atom(formula, scope, where)

    def cost_effect(self, formula: Expression, scope: dict[str, TypeName], where: str) -> None:
        """``(increase (total-cost) N)``, ``N`` a non-negative number or a term of a declared
        function over parameters and constants; any other numeric effect is refused."""
        target = formula[1] if len(formula) == 3 else None
        if formula.head != "increase" or not (
            isinstance(target, Expression) and [str(w) for w in target] == ["total-cost"]
        ):
            raise refuse("numeric-fluents", self.path, formula.line, f"{where}: {formula.describe()}")
        amount = formula[2]
        if isinstance(amount, Word):
            try:
                value = float(amount)
            except ValueError:
                value = float("nan")
            if not value >= 0:  # NaN too
                raise self.fail(
                    f"{where}: the action cost {amount} is not a non-negative number", formula.line
                )
            return
        assert isinstance(amount, Expression)
        name = str(amount.head) if amount.head is not None else ""
        if name not in self.functions:
            raise refuse("numeric-fluents", self.path, amount.line, f"{where}: the cost {amount.describe()}")
        if len(amount) - 1 != self.functions[name]:
            raise self.fail(
                f"{where}: {amount.describe()} has {len(amount) - 1} arguments, function {name} takes "
                f"{self.functions[name]}",
                amount.line,
            )
        for term in amount[1:]:
            if not isinstance(term, Word):
                raise refuse(
                    "numeric-fluents", self.path, amount.line, f"{where}: the cost {amount.describe()}"
                )
            self.term_type(term, scope, where, amount)

    def atom(self, atom: Expression, scope: dict[str, TypeName], where: str) -> None:
        name = str(atom.head)
        arguments = atom[1:]
        if name == "=":
            if len(arguments) != 2:
                raise self.fail(f"{where}: (= ...) compares exactly two terms", atom.line)
            for argument in arguments:
                if isinstance(argument, Word):
                    self.term_type(argument, scope, where, atom)
            return
        expected = self.predicates.get(name)
        if expected is None:
            declared = ", ".join(sorted(self.predicates)) or "none"
            raise self.fail(
                f"{where}: undefined predicate `{name}` in {atom.describe()} (declared predicates: {declared})",
                atom.line,
            )
        if len(arguments) != len(expected):
            raise self.fail(
                f"{where}: {atom.describe()} has {len(arguments)} argument{'s' * (len(arguments) != 1)}, "
                f"predicate {name} takes {len(expected)}",
                atom.line,
            )
        for position, (argument, wanted) in enumerate(zip(arguments, expected), start=1):
            if not isinstance(argument, Word):
                raise self.fail(
                    f"{where}: argument {position} of {atom.describe()} is a list, not a name", atom.line
                )
            actual = self.term_type(argument, scope, where, atom)
            if self.typed and not self.accepts(wanted, actual):
                raise self.fail(
                    f"{where}: argument {position} of {atom.describe()} is {argument} of type "
                    f"{_shown(actual)}, but predicate {name} takes {_shown(wanted)} there",
                    atom.line,
                )

    def term_type(self, term: Word, scope: dict[str, TypeName], where: str, atom: Expression) -> TypeName:
        if term.startswith("?"):
            if term not in scope:
                known = " ".join(scope) or "none"
                raise self.fail(
                    f"{where}: undefined variable {term} in {atom.describe()} (declared: {known})", term.line
                )
            return scope[str(term)]
        if term not in self.constants:
            raise self.fail(
                f"{where}: `{term}` in {atom.describe()} is neither a parameter (?{term}) nor a declared constant",
                term.line,
            )
        return self.constants[str(term)]

    def ancestors(self, type_name: str) -> set[str]:
        seen = {type_name, ROOT_TYPE}
        current: TypeName = type_name
        while isinstance(current, str) and current in self.parents and current != ROOT_TYPE:
            current = self.parents[current]
            if isinstance(current, frozenset) or current in seen:
                break
            seen.add(current)
        return seen

    def accepts(self, wanted: TypeName, actual: TypeName) -> bool:
        """Whether every type ``actual`` may be is one of the types ``wanted`` allows."""
        allowed = {wanted} if isinstance(wanted, str) else set(wanted)
        if ROOT_TYPE in allowed:
            return True
        actual_types = [actual] if isinstance(actual, str) else sorted(actual)
        return all(self.ancestors(t) & allowed for t in actual_types)


def _increases(effect: Expression) -> Iterator[Expression]:
    """The ``(increase ...)`` effects of a checked effect (conjunctions walked, in order)."""
    if effect.head == "increase":
        yield effect
    elif effect.head == "and":
        for part in effect[1:]:
            if isinstance(part, Expression):
                yield from _increases(part)


def _shown(type_name: TypeName) -> str:
    return type_name if isinstance(type_name, str) else "(either " + " ".join(sorted(type_name)) + ")"


def check_domain(tree: Expression, path: Path | None = None) -> None:
    """Check a domain read with :func:`~genplan.pddl.sexpr.read_expression` (see the module docstring).

    Raises:
        PddlError: the first problem found, naming ``path`` and the line.
    """
    _DomainChecker(tree, path).check()
