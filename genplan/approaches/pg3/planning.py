"""Policy-guided planning: A* whose successors include the policy's own rollout (Yang et al. 2022,
Sec. 4).

Expanding a state ``s`` generates, besides one successor per applicable ground action (cost 1),
the states the candidate policy reaches from ``s`` by executing its own actions for up to
``rollout_steps`` steps, each at cost 0. The search therefore follows the policy wherever the
policy leads towards the goal and plans with primitive actions only across the policy's gaps;
the plan found records, per step, whether it came from the policy. With the empty policy this is
plain A* with h_add, whose plans are the "semantic" states of the policy search.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass

from genplan.approaches.pg3.budget import Budget
from genplan.approaches.pg3.execution import applicable
from genplan.approaches.pg3.matching import PolicyMatcher
from genplan.approaches.pg3.policy import DecisionList
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.successors import SuccessorGenerator

State = frozenset[Atom]


@dataclass(frozen=True)
class GuidedPlan:
    """A plan found by policy-guided planning.

    Attributes:
        actions: the ground actions in order.
        from_policy: per action, whether the policy's rollout proposed it.
        states: the state each action is applied in (``states[i]`` before ``actions[i]``).
        expansions: states expanded by the search.
    """

    actions: tuple[Atom, ...]
    from_policy: tuple[bool, ...]
    states: tuple[State, ...]
    expansions: int


class ProblemSearch:
    """What policy-guided planning on one problem reuses across candidate policies: the policy
    matcher, the successor generator and the heuristic with its values cached by state.

    Args:
        problem: the training problem.
        heuristic: a function from a state to its estimate (``inf`` for a dead end).
        cache_limit: states whose heuristic value is kept (the cache is cleared when full).
    """

    def __init__(self, problem: Problem, heuristic: Callable[[State], float], cache_limit: int = 200_000):
        self.problem = problem
        self.matcher = PolicyMatcher(problem)
        self.successors = SuccessorGenerator.for_problem(problem)
        self._heuristic = heuristic
        self._values: dict[State, float] = {}
        self._transitions: dict[State, list[tuple[Atom, State]]] = {}
        self._cache_limit = cache_limit

    def h(self, state: State) -> float:
        """The heuristic value of ``state`` (cached)."""
        value = self._values.get(state)
        if value is None:
            if len(self._values) >= self._cache_limit:
                self._values.clear()
            value = self._values[state] = self._heuristic(state)
        return value

    def transitions(self, state: State) -> list[tuple[Atom, State]]:
        """Every applicable ground action of ``state`` and its successor (cached)."""
        found = self._transitions.get(state)
        if found is None:
            if len(self._transitions) >= self._cache_limit // 10:
                self._transitions.clear()
            found = self._transitions[state] = self.successors.successors(state)
        return found


def policy_guided_plan(
    policy: DecisionList,
    search: ProblemSearch,
    *,
    rollout_steps: int = 50,
    max_expansions: int = 10_000,
    queried: dict[State, Atom | None] | None = None,
    budget: Budget | None = None,
) -> GuidedPlan | None:
    """A plan for ``search.problem`` found by A* guided by ``policy``, or ``None`` when the search
    space is exhausted or ``max_expansions`` states were expanded without reaching the goal.

    Args:
        policy: the candidate policy (the empty policy gives plain A* with the heuristic).
        search: the problem's prepared search.
        rollout_steps: the policy's actions executed from each expanded state (the authors'
            released settings: 50).
        max_expansions: states expanded before giving up.
        queried: when given, filled with every state the search asked the policy about and the
            policy's action there (``None``: no rule applies), in the order asked. The search is
            deterministic given these answers: a policy that gives the same action in each of
            these states gets the same result (see :class:`~genplan.approaches.pg3.scores.PG3Score`).
        budget: when given, checked before each state is expanded.

    Raises:
        BudgetSpent: ``budget`` ran out before the search ended.
    """
    problem = search.problem
    goal = problem.goal
    start: State = problem.init
    counter = itertools.count()
    best_g: dict[State, int] = {start: 0}
    parent: dict[State, tuple[State, tuple[Atom, ...], bool] | None] = {start: None}
    h0 = search.h(start)
    if h0 == float("inf"):
        return None
    queue: list[tuple[float, float, int, State]] = [(h0, h0, next(counter), start)]
    closed: set[State] = set()
    expansions = 0
    matcher = search.matcher
    steps: dict[State, tuple[Atom, State] | None] = {}  # the policy's step from a state, once

    def policy_step(state: State) -> tuple[Atom, State] | None:
        if state in steps:
            return steps[state]
        action = matcher.action(policy, state)
        if queried is not None:
            queried[state] = action
        step = None
        if action is not None and applicable(problem, action, state):
            step = (action, search.successors.apply(action, state))
        steps[state] = step
        return step

    def push(state: State, g: int, origin: State, actions: tuple[Atom, ...], by_policy: bool) -> None:
        if g >= best_g.get(state, 1 << 60):
            return
        value = search.h(state)
        if value == float("inf"):
            return
        best_g[state] = g
        parent[state] = (origin, actions, by_policy)
        heapq.heappush(queue, (g + value, value, next(counter), state))

    while queue:
        _, _, _, state = heapq.heappop(queue)
        if state in closed:
            continue
        if goal <= state:
            return _plan(state, parent, expansions, search.successors)
        if expansions >= max_expansions:
            return None
        if budget is not None:
            budget.check()
        closed.add(state)
        expansions += 1
        g = best_g[state]
        if policy.rules:
            current: State = state
            taken: tuple[Atom, ...] = ()
            for _ in range(rollout_steps):
                step = policy_step(current)
                if step is None:
                    break
                taken = (*taken, step[0])
                current = step[1]
                push(current, g, state, taken, True)
                if goal <= current:
                    break
        for action, successor in search.transitions(state):
            push(successor, g + 1, state, (action,), False)
    return None


def _plan(
    state: State,
    parent: dict[State, tuple[State, tuple[Atom, ...], bool] | None],
    expansions: int,
    successors: SuccessorGenerator,
) -> GuidedPlan:
    segments: list[tuple[tuple[Atom, ...], bool, State]] = []
    link = parent[state]
    while link is not None:
        origin, actions, by_policy = link
        segments.append((actions, by_policy, origin))
        link = parent[origin]
    actions_out: list[Atom] = []
    flags: list[bool] = []
    states: list[State] = []
    for actions, by_policy, origin in reversed(segments):
        current = origin
        for action in actions:
            actions_out.append(action)
            flags.append(by_policy)
            states.append(current)
            current = successors.apply(action, current)
    return GuidedPlan(tuple(actions_out), tuple(flags), tuple(states), expansions)
