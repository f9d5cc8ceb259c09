"""Quality references in parallel and bounded (issue 36): optimal costs of the training problems
computed across the cores, smallest first, within a total budget, with progress; problems left
without one are listed; the worst problems are judged, not only the mean."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fake_programs import heavy_problem

import genplan.approaches.generalized_plan.plan_quality as plan_quality
import genplan.runs.progress as progress
from genplan.approaches.generalized_plan.plan_quality import (
    CostComparison,
    QualityVerdict,
    optimal_costs,
)
from genplan.approaches.generalized_plan.settings import SynthesisSettings
from genplan.pddl.problem import Problem
from genplan.plans.optimal import OptimalPlan
from genplan.runs.observations import Observations


class FakePlanner:
    """A* that takes ``seconds`` per problem (cut short by its budget), records the order and
    how many ran at once, and returns a plan of one action."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.started: list[str] = []
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()

    def __call__(self, problem: Problem, *, timeout: float, **kw: Any) -> OptimalPlan:
        with self.lock:
            self.started.append(problem.name)
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(min(self.seconds, timeout))
        with self.lock:
            self.running -= 1
        if timeout < self.seconds:
            return OptimalPlan(None, None, timeout, True, timeout, "time limit")
        return OptimalPlan(1, ["(pack-first o0)"], self.seconds, False, timeout, "")


@pytest.fixture
def planner(monkeypatch: pytest.MonkeyPatch) -> FakePlanner:
    fake = FakePlanner(0.3)
    monkeypatch.setattr(plan_quality, "optimal_plan", fake)
    monkeypatch.setattr(
        plan_quality, "check_plan", lambda problem, plan: type("V", (), {"valid": True, "cost": 1.0})()
    )
    return fake


def _problems() -> list[Problem]:
    return [heavy_problem(f"p{items}", items) for items in (6, 2, 5, 3, 4)]


def test_optimal_costs_run_in_parallel_smallest_first(planner: FakePlanner) -> None:
    answers = optimal_costs(_problems(), Observations(), budget=30, workers=2)
    assert planner.started[:2] == ["p2", "p3"] and sorted(planner.started) == ["p2", "p3", "p4", "p5", "p6"]
    assert planner.most == 2
    assert [cost for cost, _ in answers] == [1.0] * 5


def test_the_budget_bounds_them_and_the_rest_are_listed(
    planner: FakePlanner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "PROGRESS_SECONDS", 0.1)
    lines: list[str] = []
    observations = Observations()
    started = time.monotonic()
    answers = optimal_costs(_problems(), observations, budget=0.45, workers=2, note=lines.append)
    assert time.monotonic() - started < 1.5
    costs = dict(zip(["p6", "p2", "p5", "p3", "p4"], (cost for cost, _ in answers)))
    assert costs["p2"] == costs["p3"] == 1.0 and costs["p6"] is None  # the smallest first; the largest left
    assert any(line.startswith("plan quality: optimal costs of ") for line in lines)  # progress meanwhile
    assert lines[-1].startswith("plan quality: no optimal cost for ") and "p6" in lines[-1]
    assert observations.measured == sum(
        cost is not None for cost in costs.values()
    )  # cut short: not recorded


def test_recorded_costs_are_reused_without_a_planner(planner: FakePlanner) -> None:
    observations = Observations()
    optimal_costs(_problems(), observations, budget=30, workers=2)
    planner.started.clear()
    again = optimal_costs(_problems(), observations, budget=30, workers=2)
    assert planner.started == [] and [cost for cost, _ in again] == [1.0] * 5


def _verdict(ratios: list[float | None]) -> QualityVerdict:
    comparisons = tuple(
        CostComparison(f"p{i}", 10.0 * (ratio or 1), None if ratio is None else 10.0, ("(a)",), ("(b)",))
        for i, ratio in enumerate(ratios)
    )
    return QualityVerdict(comparisons, 1.05)


def test_the_worst_problems_are_judged_not_only_the_mean() -> None:
    hidden = _verdict([1.0] * 19 + [1.6])  # mean 1.03: under the threshold
    assert hidden.mean_ratio == pytest.approx(1.03)
    assert hidden.too_costly and hidden.worst_ratios == [1.6, 1.0]  # the worst tenth: 2 of 20
    assert hidden.to_json()["worst_mean_ratio"] == 1.3
    text = hidden.feedback(heavy_problem("p19", 2))
    assert text.startswith(
        "The code solves every training problem, but its plans cost more than optimal plans: on average "
        "1.03 times the optimal cost, and 1.30 times on the worst 2 of them."
    )
    assert not _verdict([1.0] * 19 + [1.18]).too_costly  # within twice the mean's margin: 1.09
    assert _verdict([1.08, 1.08, 1.0]).too_costly  # the mean itself (1.053), as before


def test_problems_without_an_optimal_cost_are_listed_and_left_out() -> None:
    verdict = _verdict([1.0, None, 1.0])
    assert [row["optimal"] for row in verdict.to_json()["costs"]] == [10.0, None, 10.0]
    assert verdict.mean_ratio == 1.0 and "worst_mean_ratio" not in verdict.to_json()
    assert "worst_mean_ratio" not in _verdict([1.3, 1.0]).to_json()  # the mean decides: recorded as before


def test_the_budget_is_a_setting() -> None:
    assert SynthesisSettings().quality_budget == 300.0
    assert SynthesisSettings(quality_budget=60).label == "quality-budget-60"
    with pytest.raises(ValueError, match="quality_budget"):
        SynthesisSettings(quality_budget=0)
