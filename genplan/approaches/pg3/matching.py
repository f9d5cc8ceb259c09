"""Matching a lifted decision list against a state: the policy's action (Yang et al. 2022, Sec. 5).

A rule matches under a binding of its parameters to objects (respecting types) when its positive
state literals hold in the state, its negative ones do not, its positive goal literals are goal
atoms and its negative ones are not. Bindings are found by joining the positive literals one at a
time against the state's (or the goal's) atoms indexed by predicate (:mod:`genplan.plans.joins`,
the join the successor generator uses), so a rule costs a few dictionary look-ups rather than a
product over objects; only variables that no positive literal binds are enumerated over their
type's objects.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from genplan.approaches.pg3.policy import DecisionList, Literal, Rule
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.joins import Index, index_atoms, join_bindings, join_order


@dataclass(frozen=True)
class _Compiled:
    joins: tuple[Atom, ...]
    on_goal: tuple[bool, ...]  # per join: matched against the goal's atoms, not the state's
    negatives: tuple[Literal, ...]
    free: tuple[tuple[str, str], ...]
    types: Mapping[str, str]


def _compile(rule: Rule) -> _Compiled:
    order = join_order([c for c in rule.conditions if c.positive], lambda c: c.atom)
    bound = {t for c in order for t in c.atom[1:] if t.startswith("?")}
    free = tuple((v, t) for v, t in rule.parameters if v not in bound)
    return _Compiled(
        tuple(c.atom for c in order),
        tuple(c.goal for c in order),
        tuple(c for c in rule.conditions if not c.positive),
        free,
        dict(rule.parameters),
    )


class PolicyMatcher:
    """A policy's actions in the states of one problem.

    Args:
        problem: the problem (its objects, types and goal).

    The compiled form of each rule is cached by rule, so one matcher serves every policy the
    search scores on this problem.
    """

    def __init__(self, problem: Problem):
        self.problem = problem
        domain = problem.domain
        self._goal = problem.goal
        self._goal_index = index_atoms(problem.goal)
        types = (
            {t for o in domain.operators.values() for _, t in o.parameters}
            | {t for args in domain.predicates.values() for t in args}
            | {"object"}
        )
        self._type_objects = {
            t: tuple(
                sorted(
                    o
                    for o, ot in problem.object_types.items()
                    if not domain.typed or domain.is_subtype(ot, t)
                )
            )
            for t in types
        }
        self._type_sets = {t: frozenset(objs) for t, objs in self._type_objects.items()}
        self._compiled: dict[Rule, _Compiled] = {}
        self._memo: dict[tuple[Rule, frozenset[Atom]], Atom | None] = {}
        self._memo_limit = 500_000
        self.deadline: float | None = None
        """A :func:`time.perf_counter` time past which matching raises
        :class:`~genplan.plans.joins.JoinTimeout` (``None``: no limit); set by the caller."""

    def objects_of(self, type_name: str) -> tuple[str, ...]:
        """The objects of ``type_name`` or a subtype, sorted."""
        if type_name not in self._type_objects:
            domain = self.problem.domain
            self._type_objects[type_name] = tuple(
                sorted(
                    o
                    for o, ot in self.problem.object_types.items()
                    if not domain.typed or domain.is_subtype(ot, type_name)
                )
            )
            self._type_sets[type_name] = frozenset(self._type_objects[type_name])
        return self._type_objects[type_name]

    def rule_actions(self, rule: Rule, state: AbstractSet[Atom], state_index: Index) -> list[Atom]:
        """Every ground action ``rule`` gives in ``state`` (one per satisfying binding), unsorted."""
        compiled = self._compiled.get(rule)
        if compiled is None:
            compiled = self._compiled[rule] = _compile(rule)
            for type_name in compiled.types.values():
                self.objects_of(type_name)
        actions: list[Atom] = []
        goal = self._goal
        indexes = [self._goal_index if on_goal else state_index for on_goal in compiled.on_goal]
        bindings = join_bindings(compiled.joins, indexes, self._type_sets, compiled.types, self.deadline)
        for binding in bindings:
            choices = [self.objects_of(t) for _, t in compiled.free]
            for values in itertools.product(*choices) if compiled.free else [()]:
                full = dict(binding)
                full.update(zip((v for v, _ in compiled.free), values))
                if any(
                    tuple(full.get(t, t) for t in c.atom) in (goal if c.goal else state)
                    for c in compiled.negatives
                ):
                    continue
                actions.append(tuple(full.get(t, t) for t in rule.action))
        return actions

    def rule_action(self, rule: Rule, state: frozenset[Atom], index: Index | None = None) -> Atom | None:
        """``rule``'s action in ``state`` (the smallest of :meth:`rule_actions`), or ``None``;
        remembered per rule and state, since candidate policies share all rules but one."""
        key = (rule, state)
        memo = self._memo
        if key in memo:
            return memo[key]
        if len(memo) >= self._memo_limit:
            memo.clear()
        actions = self.rule_actions(rule, state, index if index is not None else index_atoms(state))
        found = memo[key] = min(actions) if actions else None
        return found

    def action(self, policy: DecisionList, state: frozenset[Atom]) -> Atom | None:
        """The policy's action in ``state``: the first rule that matches, under its binding with the
        smallest ground action; ``None`` when no rule matches."""
        index: Index | None = None
        for rule in policy.rules:
            key = (rule, state)
            if key in self._memo:
                found = self._memo[key]
            else:
                if index is None:
                    index = index_atoms(state)
                found = self.rule_action(rule, state, index)
            if found is not None:
                return found
        return None


def _refines(child: Rule, rule: Rule) -> bool:
    """Whether ``child`` is ``rule`` with more conditions (and the parameters they bring):
    each binding that satisfies ``child`` satisfies ``rule`` on ``rule``'s parameters."""
    return (
        child.action == rule.action
        and child.parameters[: len(rule.parameters)] == rule.parameters
        and set(rule.conditions) <= set(child.conditions)
    )


def policy_change(child: DecisionList, parent: DecisionList) -> tuple[str, int] | None:
    """How ``child`` differs from ``parent``, when it is one of the policy search's two steps:
    ``("refine", i)`` (rule ``i`` has more conditions), ``("insert", i)`` (a rule inserted at
    position ``i``), else ``None``."""
    rules, before = child.rules, parent.rules
    if len(rules) == len(before):
        changed = [i for i, (a, b) in enumerate(zip(rules, before)) if a != b]
        if len(changed) == 1 and _refines(rules[changed[0]], before[changed[0]]):
            return ("refine", changed[0])
        return None
    if len(rules) == len(before) + 1:
        for i in range(len(rules)):
            if rules[:i] + rules[i + 1 :] == before:
                return ("insert", i)
    return None


def same_action(
    matcher: PolicyMatcher,
    child: DecisionList,
    parent: DecisionList,
    change: tuple[str, int] | None,
    state: frozenset[Atom],
    parent_action: Atom | None,
) -> bool:
    """Whether ``child``'s action in ``state`` is ``parent_action`` (``parent``'s there), matching
    only the rules that may answer otherwise (``change`` from :func:`policy_change`):

    * a refined rule ``i`` answers (if at all) with one of rule ``i``'s actions, so the answer
      can only change in a state where the parent's rule ``i`` is the first that applies;
    * an inserted rule ``i`` changes the answer only where no rule before it applies and it
      gives another action.

    With ``change`` ``None`` the child's action is computed in full. Equal to
    ``matcher.action(child, state) == parent_action`` in every case (tested)."""
    if change is None:
        return matcher.action(child, state) == parent_action
    kind, position = change
    index: Index | None = None

    def answer(rule: Rule) -> Atom | None:
        nonlocal index
        key = (rule, state)
        if key in matcher._memo:
            return matcher._memo[key]
        if index is None:
            index = index_atoms(state)
        return matcher.rule_action(rule, state, index)

    for rule in child.rules[:position]:  # the same rules as the parent's before the change
        if answer(rule) is not None:
            return True  # the parent answered with this rule too
    if kind == "refine":
        own = answer(parent.rules[position])
        if own is None:
            return True  # the refined rule applies nowhere its original did not
        mine = answer(child.rules[position])
        if mine is not None:
            return mine == parent_action
        for rule in child.rules[position + 1 :]:
            found = answer(rule)
            if found is not None:
                return found == parent_action
        return parent_action is None
    inserted = answer(child.rules[position])
    return inserted is None or inserted == parent_action
