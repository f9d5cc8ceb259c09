"""Learning a lifted decision list from training problems with one of the three scores: the
policy search of PG3, PE and PC (Yang et al. 2022), independent of how a run keeps its books."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from genplan.approaches.pg3.bottom_up import Example
from genplan.approaches.pg3.heuristic import AdditiveHeuristic
from genplan.approaches.pg3.matching import PolicyMatcher
from genplan.approaches.pg3.planning import ProblemSearch, policy_guided_plan
from genplan.approaches.pg3.policy import DecisionList
from genplan.approaches.pg3.scores import PCScore, PEScore, PG3Score, Score
from genplan.approaches.pg3.search import PolicySuccessors, SearchResult, search_policy
from genplan.approaches.pg3.settings import PolicySearchSettings
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem

SCORES = ("pg3", "pe", "pc")
"""The scores a policy search can use, by approach name."""

Planner = Callable[[Problem], Sequence[Atom] | None]
"""PC's planner: a problem's plan as ground actions, or ``None`` when it finds none."""


@dataclass(frozen=True)
class Learned:
    """A finished policy search.

    Attributes:
        result: the search's outcome (best policy, score, candidates, seconds, stop).
        training_plans: per training problem, whether PC's planner found a plan (PC only), else ().
    """

    result: SearchResult
    training_plans: tuple[bool, ...] = ()


def learn_policy(
    kind: str,
    training: Sequence[Problem],
    settings: PolicySearchSettings,
    planner: Planner | None = None,
) -> Learned:
    """Search for a decision list that solves ``training`` with the score ``kind``.

    Args:
        kind: ``pg3``, ``pe`` or ``pc``.
        training: the training problems (all of one domain).
        settings: budgets and bounds.
        planner: PC's planner (required for ``pc``).

    Raises:
        ValueError: an unknown ``kind``, no training problems, or ``pc`` without a planner.
    """
    if kind not in SCORES:
        raise ValueError(f"unknown score {kind!r}; use one of {', '.join(SCORES)}")
    if not training:
        raise ValueError("the policy search needs at least one training problem")
    domain = training[0].domain
    searches = [ProblemSearch(problem, AdditiveHeuristic(problem)) for problem in training]
    semantic: list[tuple[PolicyMatcher, frozenset[Atom]]] = []
    astar: list[Example] = []
    for search in searches:  # the empty policy's plans: the states behaviours are read on
        plan = policy_guided_plan(
            DecisionList(),
            search,
            rollout_steps=settings.rollout_steps,
            max_expansions=settings.planning_expansions,
        )
        if plan is not None:
            semantic.extend((search.matcher, state) for state in plan.states)
            astar.append(Example(search.problem, search.matcher, plan.states, plan.actions))

    def astar_examples(policy: DecisionList) -> Sequence[Example]:
        return astar  # PE's examples: plain A*'s plans, whatever the policy

    examples: Callable[[DecisionList], Sequence[Example]] = astar_examples
    score: Score
    found: tuple[bool, ...] = ()
    same_as_parent = None
    if kind == "pg3":
        score = pg3 = PG3Score(
            searches,
            rollout_steps=settings.rollout_steps,
            max_expansions=settings.planning_expansions,
            unsolved_cost=float(settings.max_steps),
        )
        same_as_parent = pg3.same_as_parent
        examples = pg3.examples
    elif kind == "pe":
        score = PEScore(training, max_steps=settings.max_steps)
    else:
        if planner is None:
            raise ValueError("PC needs a planner for its example plans")
        plans = [planner(problem) for problem in training]
        found = tuple(plan is not None for plan in plans)
        score = pc = PCScore(training, plans)
        examples = pc.plan_examples
    goal_predicates = {atom[0] for problem in training for atom in problem.goal}
    result = search_policy(
        score,
        PolicySuccessors(domain, goal_predicates, examples if settings.bottom_up else None),
        semantic,
        max_policies=settings.max_policies,
        max_seconds=settings.max_seconds,
        same_as_parent=same_as_parent,
    )
    return Learned(result, found)
