"""Executing a lifted decision list on a problem: the plan it gives (a generalized plan's output).

From the initial state the policy's action is applied until the goal holds, the policy gives no
action, gives one that is not applicable, revisits a state (it would loop for ever), or the step
bound is reached. The plan is returned in genplan's plan syntax (``["(pick ball1 rooma left)",
...]``) to be checked like every other plan (:func:`genplan.plans.validate.check_plan`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum

from genplan.approaches.pg3.matching import PolicyMatcher
from genplan.approaches.pg3.policy import DecisionList
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.joins import JoinTimeout
from genplan.plans.successors import SuccessorGenerator


class Stop(Enum):
    """Why executing a policy stopped."""

    GOAL = "goal"
    NO_ACTION = "no-action"
    NOT_APPLICABLE = "not-applicable"
    LOOP = "loop"
    STEP_BOUND = "step-bound"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Execution:
    """What executing a policy gave.

    Attributes:
        actions: the ground actions taken, in order.
        stop: why execution stopped (:attr:`Stop.GOAL` when the goal holds at the end).
    """

    actions: tuple[Atom, ...]
    stop: Stop

    @property
    def reached_goal(self) -> bool:
        """Whether the goal held when execution stopped."""
        return self.stop is Stop.GOAL

    @property
    def plan(self) -> list[str]:
        """The actions in plan syntax, ``(op arg ...)`` per step."""
        return ["(" + " ".join(action) + ")" for action in self.actions]


def execute_policy(
    policy: DecisionList,
    problem: Problem,
    max_steps: int,
    *,
    matcher: PolicyMatcher | None = None,
    successors: SuccessorGenerator | None = None,
    deadline: float | None = None,
) -> Execution:
    """Run ``policy`` from ``problem``'s initial state for at most ``max_steps`` actions.

    Args:
        policy: the decision list.
        problem: the problem.
        max_steps: the step bound (a positive number of actions).
        deadline: a :func:`time.perf_counter` time after which execution stops (:attr:`Stop.TIMEOUT`),
            checked between steps and, through the matcher, while a rule is matched (one rule
            over a large problem can take minutes).
        matcher, successors: prepared for ``problem`` (built when not given).
    """
    matcher = matcher or PolicyMatcher(problem)
    successors = successors or SuccessorGenerator.for_problem(problem)
    state = problem.init
    goal = problem.goal
    seen = {state}
    actions: list[Atom] = []
    while not goal <= state:
        if len(actions) >= max_steps:
            return Execution(tuple(actions), Stop.STEP_BOUND)
        if deadline is not None and time.perf_counter() > deadline:
            return Execution(tuple(actions), Stop.TIMEOUT)
        matcher.deadline = deadline
        try:
            action = matcher.action(policy, state)
        except JoinTimeout:
            return Execution(tuple(actions), Stop.TIMEOUT)
        finally:
            matcher.deadline = None
        if action is None:
            return Execution(tuple(actions), Stop.NO_ACTION)
        if not applicable(problem, action, state):
            return Execution(tuple(actions), Stop.NOT_APPLICABLE)
        actions.append(action)
        state = successors.apply(action, state)
        if state in seen:
            return Execution(tuple(actions), Stop.LOOP)
        seen.add(state)
    return Execution(tuple(actions), Stop.GOAL)


def applicable(problem: Problem, action: Atom, state: frozenset[Atom]) -> bool:
    """Whether ground ``action`` is applicable in ``state`` (its preconditions hold, negatives do not)."""
    operator = problem.domain.operators.get(action[0])
    if operator is None or len(action) != len(operator.parameters) + 1:
        return False
    binding = {v: a for (v, _), a in zip(operator.parameters, action[1:])}
    for atom in operator.positive_preconditions:
        ground = tuple(binding.get(t, t) for t in atom)
        if ground[0] == "=":
            if ground[1] != ground[2]:
                return False
        elif ground not in state:
            return False
    for atom in operator.negative_preconditions:
        ground = tuple(binding.get(t, t) for t in atom)
        if (ground[1] == ground[2]) if ground[0] == "=" else ground in state:
            return False
    return True
