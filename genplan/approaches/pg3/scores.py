"""The three scores of a candidate policy on the training problems (Yang et al. 2022, Sec. 3-4);
lower is better, 0 means the policy solves every training problem by execution.

* :class:`PG3Score` (policy-guided planning): on each training problem, plan with A* guided by
  the policy (:func:`~genplan.approaches.pg3.planning.policy_guided_plan`) and charge one for each
  step of the plan found where the policy would have chosen another action; a problem the
  guided search cannot solve costs ``unsolved_cost``, more than any plan's charges.
* :class:`PEScore` (policy evaluation): the training problems the policy fails to solve by
  execution alone (sparse: a policy one rule short of solving scores like the empty one).
* :class:`PCScore` (plan comparison): one for each step of a planner's plan for a training
  problem (computed once, offline) where the policy would have chosen another action.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from genplan.approaches.pg3.bottom_up import Example
from genplan.approaches.pg3.budget import Budget, BudgetSpent
from genplan.approaches.pg3.execution import Stop, execute_policy
from genplan.approaches.pg3.matching import PolicyMatcher, policy_change, same_action
from genplan.approaches.pg3.planning import GuidedPlan, ProblemSearch, policy_guided_plan
from genplan.approaches.pg3.policy import DecisionList
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.successors import SuccessorGenerator


class Score(Protocol):
    """A policy's score on the training problems (lower is better; 0: every problem solved)."""

    def __call__(self, policy: DecisionList, parent: DecisionList | None = None) -> float:
        """The score of ``policy``; ``parent`` (a policy scored before, ``policy``'s parent in
        the search) is a hint a score may use to save work, never a change to the value."""
        ...


def disagreements(
    matcher: PolicyMatcher, policy: DecisionList, states: Sequence[frozenset[Atom]], actions: Sequence[Atom]
) -> int:
    """Steps ``(states[i], actions[i])`` where ``policy`` would choose an action other than ``actions[i]``."""
    return sum(matcher.action(policy, state) != action for state, action in zip(states, actions))


@dataclass(frozen=True)
class _Trace:
    """What one policy-guided search asked its policy (state and action, in order) and found."""

    queried: tuple[tuple[frozenset[Atom], Atom | None], ...]
    plan: GuidedPlan | None


class PG3Score:
    """PG3's score: disagreements with the plans that policy-guided planning finds.

    Args:
        searches: one prepared search per training problem.
        rollout_steps: the policy's steps per expansion (see :func:`policy_guided_plan`).
        max_expansions: states expanded per training problem before it counts as unsolved.
        unsolved_cost: the charge for a problem without a plan.
        reuse: keep, per recently scored policy and problem, the states the guided search asked
            the policy about; a child that gives the same action in every one of them would
            drive the (deterministic) search the same way, so its plan is the parent's and the
            search is skipped. The score is the same either way (``False``: always search;
            the tests compare both).
        traces_kept: policies whose traces are kept (least recently used dropped first).
        empty_plans: the empty policy's plans, one per search, when already found (the policy
            search's set-up plans them once for its semantic states: the same searches give the
            same plans, so the empty policy's score costs no search).
        budget: when given, each guided search checks it (:func:`policy_guided_plan`).

    Raises:
        BudgetSpent: (when scoring) ``budget`` ran out; nothing half-scored is kept.
    """

    def __init__(
        self,
        searches: Sequence[ProblemSearch],
        *,
        rollout_steps: int,
        max_expansions: int,
        unsolved_cost: float,
        reuse: bool = True,
        traces_kept: int = 256,
        empty_plans: Sequence[GuidedPlan | None] | None = None,
        budget: Budget | None = None,
    ):
        self.searches = list(searches)
        self.rollout_steps = rollout_steps
        self.max_expansions = max_expansions
        self.unsolved_cost = unsolved_cost
        self.reuse = reuse
        self.traces_kept = traces_kept
        self.budget = budget
        self.reused = 0
        """Guided searches skipped because a parent's trace applied (for the benchmark)."""
        self._traces: OrderedDict[tuple[object, ...], list[_Trace]] = OrderedDict()
        # The empty policy is never asked (its search is plain A*): its traces ask nothing, so
        # they are kept apart, never taken for a parent's.
        self._empty = [_Trace((), plan) for plan in empty_plans] if empty_plans is not None else None

    def _same_answers(
        self,
        policy: DecisionList,
        parent: DecisionList,
        change: tuple[str, int] | None,
        index: int,
        trace: _Trace,
    ) -> bool:
        matcher = self.searches[index].matcher
        return all(
            same_action(matcher, policy, parent, change, state, action) for state, action in trace.queried
        )

    def _plan(
        self, policy: DecisionList, index: int, parent: tuple[DecisionList, list[_Trace]] | None
    ) -> _Trace:
        if parent is not None and policy.rules:
            before, traces = parent
            change = policy_change(policy, before)
            if self._same_answers(policy, before, change, index, traces[index]):
                self.reused += 1
                return traces[index]
        queried: dict[frozenset[Atom], Atom | None] = {}
        plan = policy_guided_plan(
            policy,
            self.searches[index],
            rollout_steps=self.rollout_steps,
            max_expansions=self.max_expansions,
            queried=queried,
            budget=self.budget,
        )
        return _Trace(tuple(queried.items()), plan)

    def _empty_traces(self) -> list[_Trace]:
        if self._empty is None:
            self._empty = [self._plan(DecisionList(), i, None) for i in range(len(self.searches))]
        return self._empty

    def same_as_parent(self, policy: DecisionList, parent: DecisionList) -> bool:
        """Whether ``policy`` is known to score exactly as ``parent`` (scored before, its trace
        still kept): on every training problem it answers every state ``parent``'s guided search
        asked about as ``parent`` does, so the search, its plan and the charges are the same.
        ``False`` when unknown (no trace kept, ``reuse`` off, or either policy is empty)."""
        if not (self.reuse and policy.rules and parent.rules):
            return False
        traces = self._traces.get(parent.identity)
        if traces is None:
            return False
        change = policy_change(policy, parent)
        return all(self._same_answers(policy, parent, change, i, trace) for i, trace in enumerate(traces))

    def plans(self, policy: DecisionList) -> list[GuidedPlan | None]:
        """Per training problem, the plan policy-guided planning finds for ``policy`` (``None``:
        unsolved); a policy scored recently is not searched again."""
        if not policy.rules:
            return [trace.plan for trace in self._empty_traces()]
        traces = self._traces.get(policy.identity) if self.reuse else None
        if traces is None:
            return [self._plan(policy, i, None).plan for i in range(len(self.searches))]
        return [trace.plan for trace in traces]

    def examples(self, policy: DecisionList) -> list[Example]:
        """The guided plans of ``policy`` as examples for the bottom-up successor."""
        return [
            Example(search.problem, search.matcher, plan.states, plan.actions)
            for search, plan in zip(self.searches, self.plans(policy))
            if plan is not None
        ]

    def __call__(self, policy: DecisionList, parent: DecisionList | None = None) -> float:
        """Sum over training problems of the charges (see the module)."""
        known: tuple[DecisionList, list[_Trace]] | None = None
        if self.reuse and parent is not None and parent.rules:
            parent_traces = self._traces.get(parent.identity)
            if parent_traces is not None:
                self._traces.move_to_end(parent.identity)
                known = (parent, parent_traces)
        if policy.rules:
            traces = [self._plan(policy, i, known) for i in range(len(self.searches))]
        else:
            traces = self._empty_traces()
        if self.reuse and policy.rules:
            self._traces[policy.identity] = traces
            if len(self._traces) > self.traces_kept:
                self._traces.popitem(last=False)
        total = 0.0
        for search, trace in zip(self.searches, traces):
            plan = trace.plan
            if plan is None:
                total += self.unsolved_cost
                continue
            total += sum(
                1
                for state, action, by_policy in zip(plan.states, plan.actions, plan.from_policy)
                if not by_policy and search.matcher.action(policy, state) != action
            )
        return total


class PEScore:
    """Policy evaluation's score: training problems not solved by executing the policy.

    Args:
        problems: the training problems.
        max_steps: the step bound of each execution.
        budget: when given, each execution stops at its end.

    Raises:
        BudgetSpent: (when scoring) ``budget`` ran out.
    """

    def __init__(self, problems: Sequence[Problem], *, max_steps: int, budget: Budget | None = None):
        self.problems = list(problems)
        self.matchers = [PolicyMatcher(p) for p in self.problems]
        self.max_steps = max_steps
        self.budget = budget

    def __call__(self, policy: DecisionList, parent: DecisionList | None = None) -> float:
        """The number of training problems whose execution does not reach the goal."""
        unsolved = 0
        for problem, matcher in zip(self.problems, self.matchers):
            deadline = None
            if self.budget is not None:
                self.budget.check()
                deadline = self.budget.deadline()
            execution = execute_policy(policy, problem, self.max_steps, matcher=matcher, deadline=deadline)
            if execution.stop is Stop.TIMEOUT:  # only a deadline stops it so: the budget's
                raise BudgetSpent("the budget ran out while a policy was executed")
            unsolved += not execution.reached_goal
        return float(unsolved)


class PCScore:
    """Plan comparison's score: disagreements with fixed example plans.

    Args:
        problems: the training problems.
        plans: per problem, a planner's plan as ground actions (``None`` where the planner found
            none; such a problem is left out).
        budget: when given, checked before each example plan is compared.

    Raises:
        BudgetSpent: (when scoring) ``budget`` ran out.
    """

    def __init__(
        self,
        problems: Sequence[Problem],
        plans: Sequence[Sequence[Atom] | None],
        *,
        budget: Budget | None = None,
    ):
        self.budget = budget
        self.examples: list[Example] = []
        for problem, plan in zip(problems, plans):
            if plan is None:
                continue
            states: list[frozenset[Atom]] = []
            state = problem.init
            successors = SuccessorGenerator.for_problem(problem)
            for action in plan:
                states.append(state)
                state = successors.apply(action, state)
            self.examples.append(Example(problem, PolicyMatcher(problem), tuple(states), tuple(plan)))

    def plan_examples(self, policy: DecisionList) -> list[Example]:
        """The planner's plans as examples for the bottom-up successor (the same for every policy)."""
        return self.examples

    def __call__(self, policy: DecisionList, parent: DecisionList | None = None) -> float:
        """Total disagreements over every example plan's steps."""
        total = 0
        for e in self.examples:
            if self.budget is not None:
                self.budget.check()
            total += disagreements(e.matcher, policy, e.states, e.actions)
        return float(total)
