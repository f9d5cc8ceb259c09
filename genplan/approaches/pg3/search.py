"""Greedy best-first search in policy space from the empty decision list (Yang et al. 2022, Sec. 5).

Successors of a policy: first, when example plans are given, the *bottom-up* successor (a rule
induced from a plan the policy does not follow, :mod:`~genplan.approaches.pg3.bottom_up`; the
paper's released search has such an operator), then the paper's two top-down generators (the
authors' code lists the conditions first, here the rules come first: they are few, and the
search meets them before the budget is spent on the hundreds of one-condition refinements of a
long rule):

* *add a condition*: one more literal in one rule: a predicate over the rule's variables and
  new ones (one new variable per argument at most; new variables in positive literals only, as a
  negative literal over an unbound variable holds for nearly any object), positive or negative,
  on the state or on the goal (goal literals only over predicates that occur in some training goal: any other goal
  literal is constant), skipping literals the rule already has in either sign;
* *add a rule*: at any position, a rule for an operator whose conditions are the operator's
  preconditions and whose action is the operator over its parameters.

With PG3's score, a child known to score exactly as its parent (it answers every state the
parent's guided searches asked about as the parent does: :meth:`PG3Score.same_as_parent`) is
scored after its siblings: it cannot beat the best policy, so the budget reaches an improving
child sooner. The paper fixes the successors, not the order a policy's children are scored in.

Candidates are ordered by how many earlier candidates behaved the same on the states of the
empty policy's plans (the "semantic" tie-break of the authors' code, which keeps the queue from
filling with policies that differ only in rules that never fire), then by score, then by size.
As soon as a child scores better than the best policy so far it becomes the best, its parent
goes back on the queue, and the search moves on to it. The search stops when a policy scores 0
(it solves every training problem), or the budget (candidates scored, seconds) runs out. The
seconds are a :class:`~genplan.approaches.pg3.budget.Budget` shared with the set-up before the
search: checked before each candidate and inside its scoring, so the search stops within one step
of work (one state expanded, one training problem) of the budget's end; a candidate whose scoring
the budget cut short is dropped.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from genplan.approaches.pg3.bottom_up import Example, induced_child
from genplan.approaches.pg3.budget import Budget, BudgetSpent
from genplan.approaches.pg3.matching import PolicyMatcher
from genplan.approaches.pg3.policy import DecisionList, Literal, Rule
from genplan.approaches.pg3.scores import Score
from genplan.pddl.domain import Atom, Domain, Operator
from genplan.plans.joins import JoinTimeout


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a policy search.

    Attributes:
        policy: the best policy found (lowest score; the empty policy if nothing beat it).
        score: its score (0: it solves every training problem).
        scored: candidate policies scored.
        expanded: policies whose successors were generated.
        seconds: wall-clock seconds the search took (after its set-up).
        stop: ``solved`` (score 0), ``policies`` or ``seconds`` (that budget ran out),
            ``exhausted`` (no successor left), or ``setup`` (the seconds ran out before the
            search could start: see :func:`~genplan.approaches.pg3.learning.learn_policy`).
    """

    policy: DecisionList
    score: float | None
    scored: int
    expanded: int
    seconds: float
    stop: str


@dataclass
class SearchCounts:
    """A search's figures while it runs, for progress lines read from another thread.

    Attributes:
        scored: candidate policies scored so far.
        expanded: policies whose successors were generated so far.
        best: the best score so far (``None`` before the first).
    """

    scored: int = 0
    expanded: int = 0
    best: float | None = None


def rule_for_operator(operator: Operator, name: str) -> Rule:
    """A rule whose conditions are ``operator``'s preconditions and whose action is the operator."""
    conditions = {Literal(a, True, False) for a in operator.positive_preconditions if a[0] != "="}
    conditions |= {Literal(a, False, False) for a in operator.negative_preconditions if a[0] != "="}
    return Rule(
        name,
        operator.parameters,
        tuple(sorted(conditions)),
        (operator.name, *(v for v, _ in operator.parameters)),
    )


class PolicySuccessors:
    """The successors of a policy (see the module).

    Args:
        domain: the domain (predicates, operators, types).
        goal_predicates: predicates allowed in goal literals.
        examples: when given, ``examples(policy)`` gives the plans the bottom-up successor
            induces a rule from (:mod:`~genplan.approaches.pg3.bottom_up`), and that child comes
            first; ``None``: the two top-down successors only.
    """

    def __init__(
        self,
        domain: Domain,
        goal_predicates: set[str],
        examples: Callable[[DecisionList], Sequence[Example]] | None = None,
    ):
        self.domain = domain
        self.goal_predicates = goal_predicates
        self.examples = examples

    def _compatible(self, variable_type: str, slot_type: str) -> bool:
        domain = self.domain
        return (
            not domain.typed
            or domain.is_subtype(variable_type, slot_type)
            or domain.is_subtype(slot_type, variable_type)
        )

    def _argument_choices(
        self, rule: Rule, slots: tuple[str, ...]
    ) -> Iterator[tuple[tuple[str, ...], tuple[tuple[str, str], ...]]]:
        taken = {v for v, _ in rule.parameters}
        fresh: list[str] = []
        number = 0
        while len(fresh) < len(slots):
            if f"?x{number}" not in taken:
                fresh.append(f"?x{number}")
            number += 1
        options = [[*(v for v, t in rule.parameters if self._compatible(t, slot)), *fresh] for slot in slots]
        for choice in itertools.product(*options):
            if len(set(choice)) != len(choice):
                continue
            new = tuple((v, slots[i]) for i, v in enumerate(choice) if v not in taken)
            if [v for v, _ in new] != fresh[: len(new)]:  # new variables named in order of use
                continue
            yield tuple(choice), new

    def add_condition(self, policy: DecisionList) -> Iterator[DecisionList]:
        """Every policy with one more literal in one of ``policy``'s rules."""
        for position, rule in enumerate(policy.rules):
            present = {(c.atom, c.goal) for c in rule.conditions}
            for predicate, slots in sorted(self.domain.predicates.items()):
                for arguments, new in self._argument_choices(rule, slots):
                    atom: Atom = (predicate, *arguments)
                    for positive in (True, False) if not new else (True,):
                        for goal in (True, False):
                            if goal and predicate not in self.goal_predicates:
                                continue
                            if (atom, goal) in present:
                                continue
                            changed = rule.with_condition(Literal(atom, positive, goal), new)
                            rules = list(policy.rules)
                            rules[position] = changed
                            yield DecisionList(tuple(rules))

    def add_rule(self, policy: DecisionList) -> Iterator[DecisionList]:
        """Every policy with one more rule (an operator with its preconditions) at any position."""
        for name, operator in sorted(self.domain.operators.items()):
            used = {r.name for r in policy.rules}
            number = next(i for i in itertools.count() if f"{name}-{i}" not in used)
            rule = rule_for_operator(operator, f"{name}-{number}")
            for position in range(len(policy.rules) + 1):
                yield DecisionList((*policy.rules[:position], rule, *policy.rules[position:]))

    def bottom_up(self, policy: DecisionList) -> Iterator[DecisionList]:
        """The rule induced from the example plans, when there is one (none without examples)."""
        if self.examples is not None:
            child = induced_child(policy, self.examples(policy))
            if child is not None:
                yield child

    def __call__(self, policy: DecisionList) -> Iterator[DecisionList]:
        """The bottom-up successor (at most one), add-a-rule successors (few), then
        add-a-condition successors (many)."""
        yield from self.bottom_up(policy)
        yield from self.add_rule(policy)
        yield from self.add_condition(policy)


def search_policy(
    score: Score,
    successors: PolicySuccessors,
    semantic_states: Sequence[tuple[PolicyMatcher, frozenset[Atom]]],
    *,
    max_policies: int,
    budget: Budget,
    same_as_parent: Callable[[DecisionList, DecisionList], bool] | None = None,
    empty_score: float | None = None,
    counts: SearchCounts | None = None,
) -> SearchResult:
    """Greedy best-first search from the empty policy (see the module).

    Args:
        score: the score to minimise (PG3's, PE's or PC's).
        successors: the policy successor generator.
        semantic_states: states (with their problem's matcher) a policy's behaviour is read on.
        max_policies: candidate policies scored (the empty one included) before the search stops.
        budget: the wall clock; the search stops with ``seconds`` once it is spent.
        empty_score: the empty policy's score when already known (the set-up scores it);
            scored first otherwise.
        counts: when given, kept up to date as the search runs (progress lines).
        same_as_parent: when given, ``same_as_parent(child, parent)`` says a child is known to
            score exactly as its parent (:meth:`PG3Score.same_as_parent`). Such a child cannot
            beat the best policy (its parent's score is no better), so it is scored after the
            parent's other children: the order a policy's children are scored in is not the
            paper's to fix, and this one reaches an improving child sooner, spending fewer of
            the candidates the budget allows on children that cannot improve.

    Raises:
        BudgetSpent: ``budget`` ran out while the empty policy was scored (only without
            ``empty_score``): there is no search to report.
    """
    start = time.perf_counter()
    counts = counts if counts is not None else SearchCounts()
    empty = DecisionList()
    best, best_score = empty, score(empty) if empty_score is None else empty_score
    counts.scored, counts.expanded, counts.best = 1, 0, best_score
    behaviours: Counter[tuple[Atom | None, ...]] = Counter()
    counter = itertools.count()
    queue: list[tuple[int, float, int, int, DecisionList]] = [(0, best_score, 0, next(counter), empty)]
    visited = {empty.identity}
    stop = "exhausted"
    try:
        while queue and best_score > 0:
            level, own_score, size, _, policy = heapq.heappop(queue)
            counts.expanded += 1
            for child in _ordered(successors(policy), policy, visited, same_as_parent, budget):
                if counts.scored >= max_policies:
                    stop = "policies"
                    break
                budget.check()
                if child.identity in visited:
                    continue
                visited.add(child.identity)
                value = score(child, policy)
                behaviour = tuple(matcher.action(child, state) for matcher, state in semantic_states)
                counts.scored += 1
                child_level = behaviours[behaviour]
                behaviours[behaviour] += 1
                heapq.heappush(queue, (child_level, value, child.size, next(counter), child))
                if value < best_score:
                    best, best_score = child, value
                    counts.best = value
                    heapq.heappush(queue, (level, own_score, size, next(counter), policy))
                    break
            if stop != "exhausted":
                break
    except (BudgetSpent, JoinTimeout):  # a rule's match is given the budget's end as deadline
        stop = "seconds"
    if best_score <= 0:
        stop = "solved"
    seconds = time.perf_counter() - start
    return SearchResult(best, best_score, counts.scored, counts.expanded, seconds, stop)


def _ordered(
    children: Iterator[DecisionList],
    parent: DecisionList,
    visited: set[tuple[object, ...]],
    same_as_parent: Callable[[DecisionList, DecisionList], bool] | None,
    budget: Budget,
) -> Iterator[DecisionList]:
    """``children`` in order, those known to score as ``parent`` held back to the end (the
    budget checked before each is compared with ``parent``)."""
    if same_as_parent is None:
        yield from children
        return
    held: list[DecisionList] = []
    for child in children:
        if child.identity in visited:
            continue
        budget.check()
        if same_as_parent(child, parent):
            held.append(child)
        else:
            yield child
    yield from held
