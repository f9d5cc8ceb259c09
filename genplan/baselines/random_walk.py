"""The random baseline (Sec. 5.1): sample applicable actions until a dead end, the goal, or a horizon."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from genplan.pddl.domain import Atom, Operator
from genplan.pddl.problem import Problem
from genplan.plans.simulator import apply, unsatisfied_preconditions


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


def _candidates(operator: Operator, problem: Problem, state: set[Atom]) -> list[tuple[str, ...]]:
    """Argument tuples worth trying: each parameter ranges over objects of its type, narrowed by
    the first positive precondition that mentions it."""
    domain = problem.domain
    choices: list[list[str]] = []
    for variable, type_name in operator.parameters:
        options = [
            o for o, t in problem.object_types.items() if not domain.typed or domain.is_subtype(t, type_name)
        ]
        for atom in operator.positive_preconditions:
            if atom[0] != "=" and variable in atom[1:]:
                position = atom.index(variable)
                seen = {fact[position] for fact in state if fact[0] == atom[0] and len(fact) == len(atom)}
                options = [o for o in options if o in seen]
                break
        choices.append(sorted(options))
    return list(itertools.product(*choices))


def applicable_actions(problem: Problem, state: set[Atom]) -> list[Atom]:
    """Every ground action applicable in ``state``, as ``(operator, object, ...)`` tuples, sorted."""
    actions = []
    for name, operator in sorted(problem.domain.operators.items()):
        for arguments in _candidates(operator, problem, state):
            if not unsatisfied_preconditions(operator, arguments, state):
                actions.append((name, *arguments))
    return actions


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
