"""The random baseline (Sec. 5.1): sample applicable actions until a dead end, the goal, or a horizon."""

from __future__ import annotations

import random
from dataclasses import dataclass

from genplan.pddl.problem import Problem
from genplan.plans.simulator import applicable_actions, apply

__all__ = ["RandomWalkResult", "applicable_actions", "random_walk"]


@dataclass(frozen=True)
class RandomWalkResult:
    """Outcome of one random walk.

    Attributes:
        plan: the actions taken, as plan strings.
        reached_goal: whether the goal held when the walk stopped.
        stopped_because: ``"goal"``, ``"dead end"`` or ``"horizon"``.
    """

    plan: list[str]
    reached_goal: bool
    stopped_because: str


def random_walk(problem: Problem, rng: random.Random, horizon: int = 1000) -> RandomWalkResult:
    """Walk from the initial state by uniformly random applicable actions.

    Args:
        problem: the problem.
        rng: the source of randomness (seed it for repeatable walks).
        horizon: most actions taken (the paper's 1000).
    """
    state = set(problem.init)
    plan: list[str] = []
    for _ in range(horizon):
        if problem.goal <= state:
            return RandomWalkResult(plan, True, "goal")
        actions = applicable_actions(problem, state)
        if not actions:
            return RandomWalkResult(plan, False, "dead end")
        action = rng.choice(actions)
        apply(problem.domain.operators[action[0]], action[1:], state)
        plan.append("(" + " ".join(action) + ")")
    reached = problem.goal <= state
    return RandomWalkResult(plan, reached, "goal" if reached else "horizon")
