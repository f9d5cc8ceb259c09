"""Quality feedback: a program that solves every training problem is asked for cheaper plans.

Beyond the paper (Silver et al. 2024 score validity only; generalized programs are known to
trade plan quality for speed). With ``quality_feedback`` on, once the program solves every
training problem its plan costs are compared with optimal costs on the training problems
(Fast Downward's A* with LM-cut: the training problems are small) and, on those A* does not
finish, with the cost of a LAMA-first plan (a best-known cost: suboptimal plans on the larger
problems are seen too). When the mean ratio cost / reference exceeds ``quality_threshold`` (or
the worst problems' does, twice its margin), a sixth feedback kind, ``plan-quality``, shows the
costs per problem beside the references and, for the problem with the worst ratio, both plans,
asking for shorter plans that stay valid; a reference that is not optimal is called a plan a
planner found, never optimal. The synthesis loop keeps the better program
(:mod:`.synthesize`): a revision that solves fewer training problems or is not cheaper in total
is not kept.

Reference costs are observations (:mod:`genplan.runs.observations`): computed once, recorded in
``observations.json``, so a rerun or a replay sends the same prompt.

Problems are named as the run names them (:func:`check_quality`'s ``names``): a folder's problems
by their key, the file relative to the folder (``training/easy/p01.pddl``), since PDDL names repeat
across an IPC learning-track folder; generated problems by their PDDL name, unique by construction
(``gripper-train-04``), which keeps the prompts of the saved quality runs, and their replays, as
they were.
"""

from __future__ import annotations

import contextlib
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from genplan.approaches.generalized_plan import prompts
from genplan.approaches.generalized_plan.checking import check_program
from genplan.approaches.generalized_plan.evaluate import default_workers
from genplan.approaches.generalized_plan.settings import QUALITY_BUDGET_SECONDS
from genplan.pddl.problem import Problem
from genplan.plans.costs import cost_text
from genplan.plans.optimal import optimal_plan
from genplan.plans.references import planner_run
from genplan.plans.validate import check_plan
from genplan.runs.keys import ProblemNames
from genplan.runs.observations import Observations, digest
from genplan.runs.progress import heartbeat
from genplan.sandbox import Limits

OPTIMAL_SECONDS = 60.0
"""Budget of A* with LM-cut per training problem; a problem it does not finish gets a LAMA-first
reference instead, when one is found in time."""

PLANNER_SECONDS = 60.0
"""Budget of LAMA-first per training problem A* did not finish."""

OPTIMAL = "optimal"
LAMA_FIRST = "lama-first"
"""The kinds of reference cost: A*'s optimal cost, or the cost of a LAMA-first plan."""

WORST_SHARE = 0.1
"""The share of rated problems (at least one) whose ratios make the worst problems' mean."""


@dataclass(frozen=True)
class CostComparison:
    """One training problem's plan cost beside its reference cost.

    Attributes:
        problem: the problem's name as the run gives it (its key for a folder's problems).
        cost: the program's plan cost.
        reference: the reference cost, or ``None`` when no planner found one in time.
        plan / reference_plan: both plans (actions as written).
        kind: :data:`OPTIMAL` (A* with LM-cut) or :data:`LAMA_FIRST` (a LAMA-first plan's cost,
            a best-known cost that may not be optimal).
    """

    problem: str
    cost: float
    reference: float | None
    plan: tuple[str, ...]
    reference_plan: tuple[str, ...] | None
    kind: str = OPTIMAL

    @property
    def ratio(self) -> float | None:
        """``cost / reference`` (1 when both are 0), or ``None`` without a reference cost."""
        if self.reference is None:
            return None
        if self.reference == 0:
            return 1.0 if self.cost == 0 else float("inf")
        return self.cost / self.reference

    def to_json(self) -> dict[str, Any]:
        """``problem``, ``cost`` and ``optimal`` (null where unknown); a reference that is not
        optimal is ``reference`` with its ``kind`` (``optimal`` null)."""
        if self.kind == OPTIMAL or self.reference is None:
            return {"problem": self.problem, "cost": self.cost, "optimal": self.reference}
        return {
            "problem": self.problem,
            "cost": self.cost,
            "optimal": None,
            "reference": self.reference,
            "kind": self.kind,
        }


@dataclass(frozen=True)
class QualityVerdict:
    """The program's plan costs on the training problems against reference costs.

    Attributes:
        comparisons: one :class:`CostComparison` per training problem, in order.
        threshold: the largest mean ratio accepted.
    """

    comparisons: tuple[CostComparison, ...]
    threshold: float

    @property
    def total_cost(self) -> float:
        """The program's plan costs summed over the training problems."""
        return sum(c.cost for c in self.comparisons)

    @property
    def mean_ratio(self) -> float | None:
        """Mean of cost / reference over problems with a reference cost, or ``None`` without any."""
        ratios = [c.ratio for c in self.comparisons if c.ratio is not None]
        return statistics.mean(ratios) if ratios else None

    @property
    def worst_ratios(self) -> list[float]:
        """The largest ratios: the worst tenth of the problems with a reference cost (at least
        one), largest first; empty without any."""
        ratios = sorted((c.ratio for c in self.comparisons if c.ratio is not None), reverse=True)
        return ratios[: max(1, round(len(ratios) * WORST_SHARE))] if ratios else []

    @property
    def worst_threshold(self) -> float:
        """The largest mean ratio accepted on the worst problems: twice the mean's margin
        (1.10 for a threshold of 1.05)."""
        return 1 + 2 * (self.threshold - 1)

    @property
    def worst_too_costly(self) -> bool:
        """Whether the worst problems' mean ratio exceeds :attr:`worst_threshold`: a mean over
        many small problems solved optimally hides plans that cost more on the larger ones."""
        worst = self.worst_ratios
        return bool(worst) and statistics.mean(worst) > self.worst_threshold

    @property
    def too_costly(self) -> bool:
        """Whether the mean ratio exceeds the threshold, or the worst problems' mean ratio
        exceeds :attr:`worst_threshold`."""
        ratio = self.mean_ratio
        return (ratio is not None and ratio > self.threshold) or self.worst_too_costly

    @property
    def worst_index(self) -> int | None:
        """The position of the comparison with the largest ratio (the first of equals), or ``None``
        when no problem has a reference cost."""
        rated = [i for i, c in enumerate(self.comparisons) if c.ratio is not None]
        return max(rated, key=lambda i: self.comparisons[i].ratio or 0.0) if rated else None

    @property
    def worst(self) -> CostComparison | None:
        """The comparison with the largest ratio (the first of equals), or ``None``."""
        index = self.worst_index
        return self.comparisons[index] if index is not None else None

    def to_json(self) -> dict[str, Any]:
        """Costs per problem (:meth:`CostComparison.to_json`: ``optimal`` null where none is
        known), the mean ratio and the threshold (no plans); when the worst problems alone make the plans too costly (the mean
        does not), also ``worst_mean_ratio``."""
        ratio = self.mean_ratio
        data: dict[str, Any] = {
            "costs": [c.to_json() for c in self.comparisons],
            "mean_ratio": round(ratio, 6) if ratio is not None else None,
            "threshold": self.threshold,
            "total_cost": self.total_cost,
        }
        if self.worst_too_costly and not (ratio is not None and ratio > self.threshold):
            data["worst_mean_ratio"] = round(statistics.mean(self.worst_ratios), 6)
        return data

    def feedback(self, problem: Problem) -> str:
        """The ``plan-quality`` message; ``problem`` is the worst problem (:attr:`worst`)."""
        ratio = self.mean_ratio
        assert ratio is not None
        kinds = {c.kind for c in self.comparisons if c.reference is not None}
        measure = "the optimal cost" if kinds == {OPTIMAL} else "the best known cost"
        if ratio > self.threshold:
            opening = f"on average {ratio:.2f} times {measure}."
        else:  # the worst problems alone: the mean hides them
            ratios = self.worst_ratios
            opening = (
                f"on average {ratio:.2f} times {measure}, and {statistics.mean(ratios):.2f} times on "
                f"the worst {len(ratios)} of them."
            )
        if kinds == {OPTIMAL}:
            than, column = "optimal plans", "optimal cost"
        elif OPTIMAL in kinds:
            than, column = "the best plans known (optimal, or found by a planner)", "best known cost"
        else:
            than, column = "plans a planner found", "best known cost"
        lines = [
            f"The code solves every training problem, but its plans cost more than {than}: {opening}",
            "",
            f"problem | your plan's cost | {column}",
        ]
        worst = self.worst
        assert worst is not None and worst.reference is not None and worst.reference_plan is not None
        mark = kinds != {OPTIMAL}
        lines += [f"{c.problem} | {cost_text(c.cost)} | {_reference_text(c, mark)}" for c in self.comparisons]
        if worst.kind == OPTIMAL:
            known = f"cost {cost_text(worst.cost)}, optimal {cost_text(worst.reference)}"
            shown = "An optimal plan is:"
        else:
            known = (
                f"cost {cost_text(worst.cost)}; a planner found a plan of cost {cost_text(worst.reference)}"
            )
            shown = f"A plan of cost {cost_text(worst.reference)} exists (found by a planner):"
        lines += [
            "",
            f"The worst is {worst.problem} ({known}). "
            f"Given this task: {prompts.task_text_for_feedback(problem)}",
            f"Your code returned this plan:\n{prompts.plan_display(worst.plan)}",
            f"{shown}\n{prompts.plan_display(worst.reference_plan)}",
            "Revise get_plan so that it returns shorter (cheaper) plans that stay valid on every problem of "
            "the domain. Keep what makes the code correct.",
        ]
        return "\n".join(lines)


def _reference_text(comparison: CostComparison, mark: bool) -> str:
    """A table cell: the reference cost, with its kind when ``mark`` (references are mixed)."""
    if comparison.reference is None:
        return "unknown"
    if not mark:
        return cost_text(comparison.reference)
    kind = "optimal" if comparison.kind == OPTIMAL else "found by a planner"
    return f"{cost_text(comparison.reference)} ({kind})"


class _OutOfBudget(Exception):
    """A* was cut short by the quality budget: no observation is recorded (a later run with
    more budget tries again)."""


def _optimal_key(problem: Problem) -> str:
    return f"optimal-cost/{digest(problem.domain.to_pddl())}/{problem.name}/{digest(problem.to_pddl())}"


def optimal_cost(
    problem: Problem, observations: Observations, seconds: float = OPTIMAL_SECONDS
) -> tuple[float | None, tuple[str, ...] | None]:
    """The optimal cost and plan of ``problem`` (A* with LM-cut), an observation keyed by the
    domain's and problem's text, so a replay reuses the recorded value.

    Args:
        seconds: A*'s budget; below :data:`OPTIMAL_SECONDS` (the quality budget running out),
            a search that does not finish is not recorded, so a later run tries it again.

    Raises:
        _OutOfBudget: A* did not finish within a budget cut short.
    """

    def measure() -> dict[str, Any]:
        answer = optimal_plan(problem, timeout=min(seconds, OPTIMAL_SECONDS))
        if answer.plan is None:
            if seconds < OPTIMAL_SECONDS and answer.timed_out:
                raise _OutOfBudget
            return {"cost": None, "plan": None}
        verdict = check_plan(problem, answer.plan)
        return {"cost": verdict.cost if verdict.valid else None, "plan": list(answer.plan)}

    value = observations.get(_optimal_key(problem), measure)
    plan = value.get("plan")
    return value.get("cost"), tuple(plan) if plan is not None and value.get("cost") is not None else None


def _lama_first_key(problem: Problem) -> str:
    return f"lama-first-cost/{digest(problem.domain.to_pddl())}/{problem.name}/{digest(problem.to_pddl())}"


def lama_first_cost(
    problem: Problem, observations: Observations, seconds: float, budget: float
) -> tuple[float | None, tuple[str, ...] | None]:
    """The cost and plan of a LAMA-first plan for ``problem`` (a best-known cost, where A* did
    not finish), an observation keyed by the domain's and problem's text, so a replay reuses
    the recorded value and runs no planner.

    Args:
        seconds: what is left of the quality budget; the search has at most
            :data:`PLANNER_SECONDS` of it, and none when nothing is left.
        budget: the quality budget in all (``--quality-budget`` seconds). A search it cut short
            (or left no time for) is recorded as ``{"cost": null, "plan": null, "budget": ...,
            "seconds": ...}`` (the quality budget and the seconds the search had), so a run
            with the same budget or a smaller one does not search again and a larger one does,
            the rule of :func:`~genplan.plans.references.planner_references`.

    Raises:
        ConfigurationError: Fast Downward is not installed.
    """
    limit = min(seconds, PLANNER_SECONDS)

    def measure() -> dict[str, Any]:
        cut = {"cost": None, "plan": None, "budget": budget, "seconds": round(max(limit, 0.0), 3)}
        if limit <= 0:
            return cut
        run = planner_run(LAMA_FIRST, problem, timeout=limit)
        if run.plan is None:
            return cut if run.timed_out and limit < PLANNER_SECONDS else {"cost": None, "plan": None}
        verdict = check_plan(problem, run.plan)
        return {"cost": verdict.cost if verdict.valid else None, "plan": list(run.plan)}

    def reuse(value: Any) -> bool:
        had = value.get("budget")
        return value.get("cost") is not None or not isinstance(had, (int, float)) or had >= budget

    value = observations.get(_lama_first_key(problem), measure, reuse)
    plan = value.get("plan")
    return value.get("cost"), tuple(plan) if plan is not None and value.get("cost") is not None else None


@dataclass(frozen=True)
class Reference:
    """A training problem's reference cost.

    Attributes:
        cost: the reference cost, or ``None`` when no planner found one in time.
        plan: the plan of that cost (actions as written), or ``None``.
        kind: :data:`OPTIMAL` or :data:`LAMA_FIRST`.
    """

    cost: float | None
    plan: tuple[str, ...] | None
    kind: str = OPTIMAL


@dataclass
class _Tally:
    """The references' progress, for the periodic line."""

    total: int
    done: int = 0
    optimal: int = 0
    planner: int = 0

    def status(self) -> str:
        return (
            f"plan quality: reference costs of {self.done} of {self.total} training problems "
            f"({self.optimal} optimal, {self.planner} by LAMA-first)"
        )


def reference_costs(
    problems: Sequence[Problem],
    observations: Observations,
    *,
    budget: float = QUALITY_BUDGET_SECONDS,
    workers: int | None = None,
    note: Callable[[str], None] | None = None,
) -> list[Reference]:
    """The reference cost and plan of each of ``problems`` (in their order): the optimal one
    (A* with LM-cut, :func:`optimal_cost`) or, where A* gives none, a LAMA-first plan's
    (:func:`lama_first_cost`) within what is left of the budget. Problems run in parallel
    across ``workers`` threads (default: the usable cores), smallest first (fewest initial
    atoms, then objects), within ``budget`` wall-clock seconds in all.

    Recorded costs are reused at once (a replay runs no planner). An A* search that cannot
    start before the budget runs out, or is cut short by it, is not recorded (a later run tries
    again); a LAMA-first search cut by it is recorded with the budget. ``note`` gets a progress
    line at least every :data:`~genplan.runs.progress.PROGRESS_SECONDS` while the planners run,
    and a closing line naming the problems left without a reference cost.

    Raises:
        ConfigurationError: Fast Downward is not installed.
    """
    deadline = time.monotonic() + budget
    order = sorted(range(len(problems)), key=lambda i: (len(problems[i].init), len(problems[i].objects)))
    answers = [Reference(None, None)] * len(problems)
    tally = _Tally(len(problems))
    lock = threading.Lock()

    def solve(index: int) -> None:
        problem = problems[index]
        left = deadline - time.monotonic()
        if left > 0:
            with contextlib.suppress(_OutOfBudget):
                answers[index] = Reference(*optimal_cost(problem, observations, min(left, OPTIMAL_SECONDS)))
        if answers[index].cost is None:
            cost, plan = lama_first_cost(problem, observations, deadline - time.monotonic(), budget)
            answers[index] = Reference(cost, plan, LAMA_FIRST if cost is not None else OPTIMAL)
        with lock:
            tally.done += 1
            tally.optimal += answers[index].cost is not None and answers[index].kind == OPTIMAL
            tally.planner += answers[index].kind == LAMA_FIRST

    with (
        heartbeat(note, tally.status) if note is not None else contextlib.nullcontext(),
        ThreadPoolExecutor(max_workers=workers or default_workers()) as pool,
    ):
        list(pool.map(solve, order))
    missing = [problems[i].name for i in range(len(problems)) if answers[i].cost is None]
    if note is not None and missing:
        shown = ", ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
        note(
            f"plan quality: no reference cost for {len(missing)} of {len(problems)} training problems ({shown})"
        )
    return answers


def check_quality(
    program: str,
    training: Sequence[Problem],
    threshold: float,
    *,
    timeout: float,
    limits: Limits,
    observations: Observations,
    names: ProblemNames | None = None,
    budget: float = QUALITY_BUDGET_SECONDS,
    note: Callable[[str], None] | None = None,
) -> QualityVerdict | None:
    """Compare ``program``'s plan costs with reference costs on ``training``; ``None`` when the
    program does not solve every one of them (the training check decides then).

    ``names`` name the problems in the verdict and its table (a folder's file keys, as the
    run's rounds and results name them); a problem's PDDL name where not given. Reference
    costs come from :func:`reference_costs` (optimal, else LAMA-first; in parallel, within
    ``budget`` seconds, progress to ``note``); problems without one are listed in the verdict
    and left out of its ratios.
    """
    solved: list[tuple[float, tuple[str, ...]]] = []
    for problem in training:
        check = check_program(program, problem, timeout=timeout, limits=limits)
        if not check.solved or check.verdict is None or check.verdict.cost is None:
            return None
        solved.append((check.verdict.cost, tuple(check.outcome.plan or ())))
    references = reference_costs(training, observations, budget=budget, note=note)
    comparisons = []
    for problem, (cost, plan), reference in zip(training, solved, references):
        label = names(problem) if names is not None else problem.name
        comparisons.append(CostComparison(label, cost, reference.cost, plan, reference.plan, reference.kind))
    return QualityVerdict(tuple(comparisons), threshold)
