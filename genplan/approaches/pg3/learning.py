"""Learning a lifted decision list from training problems with one of the three scores: the
policy search of PG3, PE and PC (Yang et al. 2022), independent of how a run keeps its books.

Learning is a set-up, then the search (:func:`~genplan.approaches.pg3.search.search_policy`),
both within one wall-clock budget (``max_seconds``, :mod:`~genplan.approaches.pg3.budget`). The
set-up prepares each training problem's search (its ground actions and h_add), plans the empty
policy on each (plain A*: the states a policy's behaviour is read on, and PE's example plans),
asks PC's planner for its example plans, and scores the empty policy. A set-up the budget cuts
short ends the learning with the empty policy and the stop ``setup``, saying how far it got.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

from genplan.approaches.pg3.bottom_up import Example
from genplan.approaches.pg3.budget import Budget, BudgetSpent
from genplan.approaches.pg3.heuristic import AdditiveHeuristic
from genplan.approaches.pg3.matching import PolicyMatcher
from genplan.approaches.pg3.planning import GuidedPlan, ProblemSearch, policy_guided_plan
from genplan.approaches.pg3.policy import DecisionList
from genplan.approaches.pg3.scores import PCScore, PEScore, PG3Score, Score
from genplan.approaches.pg3.search import PolicySuccessors, SearchCounts, SearchResult, search_policy
from genplan.approaches.pg3.settings import PolicySearchSettings
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.joins import JoinTimeout
from genplan.runs.progress import heartbeat

SCORES = ("pg3", "pe", "pc")
"""The scores a policy search can use, by approach name."""

Planner = Callable[[Problem, float], Sequence[Atom] | None]
"""PC's planner: a problem's plan as ground actions within the given seconds, or ``None`` when it
finds none."""

SETUP = "setup"
"""The search's stop when the budget ran out during the set-up (no search was made)."""


@dataclass(frozen=True)
class Learned:
    """A finished policy search.

    Attributes:
        result: the search's outcome (best policy, score, candidates, seconds, stop); after a
            set-up cut short, the empty policy, no score and the stop :data:`SETUP`.
        training_plans: per training problem, whether PC's planner found a plan (PC only, as
            far as the set-up got), else ().
        setup_seconds: wall-clock seconds of the set-up (counted in ``seconds``).
        seconds: wall-clock seconds of the whole learning, set-up included (what the budget
            bounds).
        setup_stopped: where the set-up stood when the budget ran out (``"planning the empty
            policy: 37 of 98 training problems"``), or ``None`` when it finished.
    """

    result: SearchResult
    training_plans: tuple[bool, ...] = ()
    setup_seconds: float = 0.0
    seconds: float = 0.0
    setup_stopped: str | None = None


@dataclass
class _Tally:
    """Where learning stands, read by progress lines from another thread."""

    kind: str
    budget: Budget
    total: int
    phase: str = "preparing each problem's search"
    done: int = 0
    counts: SearchCounts | None = None

    def start(self, phase: str) -> None:
        self.phase, self.done = phase, 0

    def where(self) -> str:
        return f"{self.phase}: {self.done} of {self.total} training problems"

    def status(self) -> str:
        spent = f"{self.budget.elapsed():.0f} s of the {self.budget.seconds:g} s budget"
        counts = self.counts
        if counts is None:
            return f"{self.kind} set-up, {self.where()}; {spent}"
        best = "none" if counts.best is None else f"{counts.best:g}"
        return f"{self.kind} search: candidates scored {counts.scored}, best score {best}; {spent}"


@dataclass
class _Prepared:
    """What the set-up gives the search."""

    score: Score
    semantic: list[tuple[PolicyMatcher, frozenset[Atom]]]
    examples: Callable[[DecisionList], Sequence[Example]]
    empty_score: float
    same_as_parent: Callable[[DecisionList, DecisionList], bool] | None


def learn_policy(
    kind: str,
    training: Sequence[Problem],
    settings: PolicySearchSettings,
    planner: Planner | None = None,
    *,
    budget: Budget | None = None,
    note: Callable[[str], None] | None = None,
) -> Learned:
    """Search for a decision list that solves ``training`` with the score ``kind``.

    Args:
        kind: ``pg3``, ``pe`` or ``pc``.
        training: the training problems (all of one domain).
        settings: budgets and bounds.
        planner: PC's planner (required for ``pc``).
        budget: the wall clock of set-up and search; default: ``settings.max_seconds`` from now
            (a run starts its budget when the run starts).
        note: when given, a progress line goes there at least every
            :data:`~genplan.runs.progress.PROGRESS_SECONDS` seconds.

    Raises:
        ValueError: an unknown ``kind``, no training problems, or ``pc`` without a planner.
    """
    if kind not in SCORES:
        raise ValueError(f"unknown score {kind!r}; use one of {', '.join(SCORES)}")
    if not training:
        raise ValueError("the policy search needs at least one training problem")
    if kind == "pc" and planner is None:
        raise ValueError("PC needs a planner for its example plans")
    budget = budget if budget is not None else Budget(settings.max_seconds)
    tally = _Tally(kind, budget, len(training))
    reporting: AbstractContextManager[None] = heartbeat(note, tally.status) if note else nullcontext()
    with reporting:
        found: list[bool] = []
        try:
            prepared = _set_up(kind, training, settings, planner, budget, tally, found)
        except (BudgetSpent, JoinTimeout):
            seconds = budget.elapsed()
            nothing = SearchResult(DecisionList(), None, 0, 0, 0.0, SETUP)
            return Learned(nothing, tuple(found), seconds, seconds, tally.where())
        setup_seconds = budget.elapsed()
        tally.counts = SearchCounts()
        goal_predicates = {atom[0] for problem in training for atom in problem.goal}
        result = search_policy(
            prepared.score,
            PolicySuccessors(
                training[0].domain, goal_predicates, prepared.examples if settings.bottom_up else None
            ),
            prepared.semantic,
            max_policies=settings.max_policies,
            budget=budget,
            same_as_parent=prepared.same_as_parent,
            empty_score=prepared.empty_score,
            counts=tally.counts,
        )
    return Learned(result, tuple(found), setup_seconds, budget.elapsed())


def _set_up(
    kind: str,
    training: Sequence[Problem],
    settings: PolicySearchSettings,
    planner: Planner | None,
    budget: Budget,
    tally: _Tally,
    found: list[bool],
) -> _Prepared:
    """The set-up (see the module), the budget checked between problems and inside each search;
    ``found`` fills with PC's planner's outcomes as they come.

    Raises:
        BudgetSpent, JoinTimeout: the budget ran out.
    """
    searches: list[ProblemSearch] = []
    for problem in training:
        budget.check()
        searches.append(ProblemSearch(problem, AdditiveHeuristic(problem)))
        tally.done += 1
    deadline = budget.deadline()
    for search in searches:
        search.matcher.deadline = deadline  # a rule's match stops at the budget's end
    tally.start("planning the empty policy with A* (h_add)")
    plans: list[GuidedPlan | None] = []
    for search in searches:  # the empty policy's plans: the states behaviours are read on
        plans.append(
            policy_guided_plan(
                DecisionList(),
                search,
                rollout_steps=settings.rollout_steps,
                max_expansions=settings.planning_expansions,
                budget=budget,
            )
        )
        tally.done += 1
    semantic: list[tuple[PolicyMatcher, frozenset[Atom]]] = []
    astar: list[Example] = []
    for search, plan in zip(searches, plans):
        if plan is not None:
            semantic.extend((search.matcher, state) for state in plan.states)
            astar.append(Example(search.problem, search.matcher, plan.states, plan.actions))

    def astar_examples(policy: DecisionList) -> Sequence[Example]:
        return astar  # PE's examples: plain A*'s plans, whatever the policy

    score: Score
    examples: Callable[[DecisionList], Sequence[Example]] = astar_examples
    same_as_parent = None
    if kind == "pg3":
        score = pg3 = PG3Score(
            searches,
            rollout_steps=settings.rollout_steps,
            max_expansions=settings.planning_expansions,
            unsolved_cost=float(settings.max_steps),
            empty_plans=plans,
            budget=budget,
        )
        examples, same_as_parent = pg3.examples, pg3.same_as_parent
    elif kind == "pe":
        score = PEScore(training, max_steps=settings.max_steps, budget=budget)
    else:
        assert planner is not None
        tally.start("Fast Downward's example plans")
        planned: list[Sequence[Atom] | None] = []
        for problem in training:
            budget.check()
            actions = planner(problem, min(settings.planner_seconds, budget.remaining()))
            if actions is None:
                budget.check()  # the planner stopped by the budget, not by the problem
            planned.append(actions)
            found.append(actions is not None)
            tally.done += 1
        score = pc = PCScore(training, planned, budget=budget)
        for example in pc.examples:
            example.matcher.deadline = deadline
        examples = pc.plan_examples
    tally.start("scoring the empty policy")
    empty_score = score(DecisionList())
    return _Prepared(score, semantic, examples, empty_score, same_as_parent)
