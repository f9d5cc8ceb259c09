"""Lifted decision lists: the policies PG3, PE and PC search over (Yang et al., IJCAI 2022, Sec. 5).

A :class:`Rule` has typed parameters, conditions on the state (positive and negative literals over
the domain's predicates), conditions on the goal (literals over goal atoms: ``(goal (at ?b ?r))``
holds when ``(at b r)`` is one of the problem's goal atoms) and an action (an operator applied to
some of the parameters). A :class:`DecisionList` is an ordered tuple of rules; its action in a
state is the first rule's, under the first binding that satisfies that rule's conditions, or
``None`` when no rule applies. "First binding" is made deterministic here: the binding whose
ground action is smallest in lexicographic order.

Policies are values (frozen, hashable), so the policy search can keep sets of them. The readable
text form (:func:`policy_to_text`, :func:`parse_policy`) round-trips; it is what a run saves as
``policy.txt`` and what ``genplan evaluate --policy`` replays.
"""

from __future__ import annotations

from dataclasses import dataclass

from genplan.errors import ConfigurationError
from genplan.pddl.domain import Atom, Domain

GOAL = "goal"
"""The text form's marker of a goal literal: ``(goal (at ?b ?r))``."""


@dataclass(frozen=True, order=True)
class Literal:
    """One condition of a rule.

    Attributes:
        atom: a lifted atom ``(predicate, ?var, ...)``; arguments are variables or constants.
        positive: whether the atom must hold (``True``) or must not hold (``False``).
        goal: whether the atom is looked up among the goal atoms (``True``) or the state's.
    """

    atom: Atom
    positive: bool = True
    goal: bool = False

    def to_text(self) -> str:
        """``(at ?b ?r)``, ``(not (at ?b ?r))``, ``(goal (at ?b ?r))``, ``(not (goal ...))``."""
        text = "(" + " ".join(self.atom) + ")"
        if self.goal:
            text = f"({GOAL} {text})"
        return text if self.positive else f"(not {text})"


@dataclass(frozen=True)
class Rule:
    """One rule of a lifted decision list.

    Attributes:
        name: the rule's name (for people; it plays no part in matching).
        parameters: ``(variable, type)`` pairs (type ``object`` in untyped domains); every
            variable of the conditions and the action is one of them.
        conditions: the state and goal literals, kept sorted so equal rules compare equal.
        action: ``(operator, ?var, ...)``: the operator and its arguments, in the operator's
            parameter order.
    """

    name: str
    parameters: tuple[tuple[str, str], ...]
    conditions: tuple[Literal, ...]
    action: Atom

    def __hash__(self) -> int:  # rules key the matcher's memo: hash once, not per look-up
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.name, self.parameters, self.conditions, self.action))
            object.__setattr__(self, "_hash", cached)
        return cached

    @property
    def identity(self) -> tuple[object, ...]:
        """What the rule means (name left out): the key policies are told apart by."""
        return (self.parameters, self.conditions, self.action)

    def with_condition(self, literal: Literal, new_parameters: tuple[tuple[str, str], ...] = ()) -> Rule:
        """This rule with one more condition (and the new variables it introduces)."""
        return Rule(
            self.name,
            self.parameters + new_parameters,
            tuple(sorted({*self.conditions, literal})),
            self.action,
        )


@dataclass(frozen=True)
class DecisionList:
    """An ordered list of rules; the empty list is the policy search's start (it never acts)."""

    rules: tuple[Rule, ...] = ()

    @property
    def identity(self) -> tuple[object, ...]:
        """The rules' identities in order."""
        return tuple(rule.identity for rule in self.rules)

    @property
    def size(self) -> int:
        """Rules plus conditions: the size the search's tie-break penalises."""
        return sum(1 + len(rule.conditions) for rule in self.rules)


def rule_to_text(rule: Rule) -> str:
    """One rule in the text form (see :func:`policy_to_text`)."""
    parameters = " ".join(f"{v} - {t}" for v, t in rule.parameters)
    lines = [
        f"(:rule {rule.name}",
        f"  :parameters ({parameters})",
        "  :conditions (and " + " ".join(c.to_text() for c in rule.conditions) + ")",
        "  :action (" + " ".join(rule.action) + "))",
    ]
    return "\n".join(lines)


def policy_to_text(policy: DecisionList, domain_name: str = "") -> str:
    """The policy as readable text: a header naming the domain, then one ``(:rule ...)`` block per
    rule in order, e.g.::

        (:rule pick-1
          :parameters (?obj - object ?room - object ?gripper - object)
          :conditions (and (at ?obj ?room) (at-robby ?room) (free ?gripper) (not (goal (at ?obj ?room))))
          :action (pick ?obj ?room ?gripper))

    :func:`parse_policy` reads it back to an equal policy."""
    header = f"; lifted decision list for domain {domain_name}\n" if domain_name else ""
    return header + "\n\n".join(rule_to_text(rule) for rule in policy.rules) + "\n"


def _tokens(text: str) -> list[tuple[str, int]]:
    tokens: list[tuple[str, int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split(";", 1)[0]
        for token in line.replace("(", " ( ").replace(")", " ) ").split():
            tokens.append((token.lower(), number))
    return tokens


def _tree(tokens: list[tuple[str, int]], where: str) -> list[object]:
    stack: list[list[object]] = [[]]
    for token, line in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            if len(stack) == 1:
                raise ConfigurationError(f"{where}, line {line}: unbalanced ')'")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append((token, line))
    if len(stack) != 1:
        raise ConfigurationError(f"{where}: a '(' is never closed")
    return stack[0]


def _is(item: object, word: str) -> bool:
    return isinstance(item, tuple) and item[0] == word


def _words(item: object, where: str) -> tuple[str, ...]:
    if not isinstance(item, list) or not item or not all(isinstance(w, tuple) for w in item):
        raise ConfigurationError(f"{where}: expected an atom like (at ?b ?r)")
    return tuple(str(w[0]) for w in item if isinstance(w, tuple))


def _literal(item: object, where: str) -> Literal:
    if not isinstance(item, list) or not item:
        raise ConfigurationError(f"{where}: expected a literal, got {item!r}")
    head = item[0]
    if isinstance(head, tuple) and head[0] == "not":
        if len(item) != 2:
            raise ConfigurationError(f"{where}: (not ...) takes one literal")
        inner = _literal(item[1], where)
        return Literal(inner.atom, not inner.positive, inner.goal)
    if isinstance(head, tuple) and head[0] == GOAL:
        if len(item) != 2:
            raise ConfigurationError(f"{where}: (goal ...) takes one atom")
        return Literal(_words(item[1], where), True, True)
    return Literal(_words(item, where), True, False)


def parse_policy(text: str, domain: Domain, where: str = "policy") -> DecisionList:
    """Read a policy written by :func:`policy_to_text` (or by hand) for ``domain``.

    Raises:
        ConfigurationError: the text is not a decision list, or a rule names an unknown
            predicate or operator, uses a wrong number of arguments, or uses a variable that is
            not among its parameters; the message names ``where``, the line and the rule.
    """
    rules: list[Rule] = []
    for block in _tree(_tokens(text), where):
        if not isinstance(block, list) or not block or not _is(block[0], ":rule"):
            raise ConfigurationError(
                f"{where}: expected (:rule NAME :parameters ... :conditions ... :action ...)"
            )
        line = block[0][1] if isinstance(block[0], tuple) else 0
        here = f"{where}, line {line}"
        if len(block) < 2 or not isinstance(block[1], tuple):
            raise ConfigurationError(f"{here}: the rule has no name")
        name = block[1][0]
        fields: dict[str, object] = {}
        rest = block[2:]
        for key, value in zip(rest[::2], rest[1::2]):
            if not isinstance(key, tuple) or key[0] not in (":parameters", ":conditions", ":action"):
                raise ConfigurationError(f"{here}: rule {name}: unknown field {key!r}")
            fields[key[0]] = value
        if len(rest) % 2 or set(fields) != {":parameters", ":conditions", ":action"}:
            raise ConfigurationError(f"{here}: rule {name} needs :parameters, :conditions and :action")
        words = _words(fields[":parameters"], here) if fields[":parameters"] else ()
        parameters: list[tuple[str, str]] = []
        pending: list[str] = []
        iterator = iter(words)
        for word in iterator:
            if word == "-":
                kind = next(iterator, None)
                if kind is None:
                    raise ConfigurationError(f"{here}: rule {name}: a type is missing after '-'")
                parameters.extend((v, kind) for v in pending)
                pending = []
            else:
                pending.append(word)
        parameters.extend((v, "object") for v in pending)
        conditions_tree = fields[":conditions"]
        if not isinstance(conditions_tree, list):
            raise ConfigurationError(f"{here}: rule {name}: :conditions must be (and ...)")
        if not conditions_tree:
            items: list[object] = []
        elif _is(conditions_tree[0], "and"):
            items = conditions_tree[1:]
        else:
            items = [conditions_tree]
        conditions = [_literal(item, f"{here}: rule {name}") for item in items]
        action = _words(fields[":action"], f"{here}: rule {name}")
        rule = Rule(name, tuple(parameters), tuple(sorted(set(conditions))), action)
        check_rule(rule, domain, f"{here}: rule {name}")
        rules.append(rule)
    return DecisionList(tuple(rules))


def check_rule(rule: Rule, domain: Domain, where: str) -> None:
    """Check ``rule`` against ``domain``.

    Raises:
        ConfigurationError: an unknown predicate or operator, a wrong number of arguments, or a
            variable that is not a parameter (named in the message with ``where``).
    """
    variables = {v for v, _ in rule.parameters}
    for literal in rule.conditions:
        predicate, *arguments = literal.atom
        if predicate not in domain.predicates:
            raise ConfigurationError(f"{where}: unknown predicate {predicate!r}")
        if len(arguments) != len(domain.predicates[predicate]):
            raise ConfigurationError(f"{where}: {literal.to_text()} has the wrong number of arguments")
        for argument in arguments:
            if argument.startswith("?") and argument not in variables:
                raise ConfigurationError(f"{where}: variable {argument} is not a parameter")
    operator = domain.operators.get(rule.action[0])
    if operator is None:
        raise ConfigurationError(f"{where}: unknown operator {rule.action[0]!r}")
    if len(rule.action) - 1 != len(operator.parameters):
        raise ConfigurationError(f"{where}: action {rule.action} has the wrong number of arguments")
    for argument in rule.action[1:]:
        if argument.startswith("?") and argument not in variables:
            raise ConfigurationError(f"{where}: variable {argument} is not a parameter")
