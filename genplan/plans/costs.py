"""Plan cost: the number of actions, or the total cost of an action-cost problem (PDDL 3.1).

A problem whose metric is ``(:metric minimize (total-cost))`` costs what its actions'
``(increase (total-cost) N)`` effects add up to (an action without one adds 0), ``N`` a number
or a function term whose value ``:init`` gives; any other problem costs one per action. This
is the value VAL prints as ``Final value`` (``tests/plans/test_costs.py`` checks that both agree) and
the cost Fast Downward writes in ``sas_plan``'s last line, ``; cost = N (general cost)`` or
``(unit cost)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from genplan.errors import PddlError
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem


def uses_action_costs(problem: Problem) -> bool:
    """Whether ``problem``'s plans cost their total cost rather than their length: its metric
    minimizes ``total-cost`` and its domain has cost effects."""
    return problem.minimize_total_cost and problem.domain.has_action_costs


def plan_cost(problem: Problem, actions: Sequence[Atom]) -> float:
    """The cost of the well-formed ground ``actions`` (``(operator, object, ...)`` tuples).

    Returns:
        ``len(actions)`` in unit-cost problems, else the sum of the actions' costs.

    Raises:
        PddlError: an action's cost names a function term with no value in the problem's
            ``:init`` (names the problem file and the term).
    """
    if not uses_action_costs(problem):
        return float(len(actions))
    operators = problem.domain.operators
    total = 0.0
    for action in actions:
        operator = operators[action[0]]
        cost = operator.cost
        if cost is None:
            continue
        if isinstance(cost, float):
            total += cost
            continue
        binding = {variable: argument for (variable, _), argument in zip(operator.parameters, action[1:])}
        term = tuple(binding.get(word, word) for word in cost)
        value = problem.fluents.get(term)
        if value is None:
            raise PddlError(
                f"({' '.join(term)}) has no value in :init (the cost of {action[0]})", problem.source
            )
        total += value
    return total


def cost_kind(problem: Problem) -> str:
    """``"general"`` for action-cost problems, else ``"unit"`` (Fast Downward's words)."""
    return "general" if uses_action_costs(problem) else "unit"


def cost_text(cost: float) -> str:
    """A cost as plan files write it: ``12`` for whole numbers, else ``12.5``."""
    return str(int(cost)) if cost == int(cost) else repr(cost)
