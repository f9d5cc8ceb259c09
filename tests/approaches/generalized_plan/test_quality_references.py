"""Quality references in parallel and bounded (issue 36): optimal costs of the training problems
computed across the cores, smallest first, within a total budget, with progress; problems left
without one are listed; the worst problems are judged, not only the mean; where A* does not
finish, a LAMA-first plan's cost is the reference."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fake_programs import heavy_problem

import genplan.approaches.generalized_plan.plan_quality as plan_quality
import genplan.runs.progress as progress
from genplan.approaches.generalized_plan.plan_quality import (
    LAMA_FIRST,
    CostComparison,
    QualityVerdict,
    Reference,
    reference_costs,
)
from genplan.approaches.generalized_plan.settings import SynthesisSettings
from genplan.pddl.problem import Problem
from genplan.plans.fast_downward import PlannerRun
from genplan.plans.optimal import OptimalPlan
from genplan.runs.observations import Observations


class FakePlanner:
    """A* that takes ``seconds`` per problem (cut short by its budget; on ``unfinished``
    problems it runs out its whole budget), records the order and how many ran at once, and
    returns a plan of one action; LAMA-first (:meth:`lama`) takes ``lama_seconds`` and returns
    a plan of two."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.lama_seconds = 0.05
        self.unfinished: set[str] = set()
        self.started: list[str] = []
        self.lama_started: list[str] = []
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()

    def __call__(self, problem: Problem, *, timeout: float, **kw: Any) -> OptimalPlan:
        with self.lock:
            self.started.append(problem.name)
            self.running += 1
            self.most = max(self.most, self.running)
        seconds = timeout if problem.name in self.unfinished else self.seconds
        time.sleep(min(seconds, timeout))
        with self.lock:
            self.running -= 1
        if timeout < seconds or problem.name in self.unfinished:
            return OptimalPlan(None, None, timeout, True, timeout, "time limit")
        return OptimalPlan(1, ["(pack-first o0)"], self.seconds, False, timeout, "")

    def lama(self, planner: str, problem: Problem, *, timeout: float, **kw: Any) -> PlannerRun:
        assert planner == "lama-first"
        with self.lock:
            self.lama_started.append(problem.name)
        time.sleep(min(self.lama_seconds, timeout))
        if timeout < self.lama_seconds:
            return PlannerRun(None, timeout, True, "time limit")
        return PlannerRun(["(pack-first o0)", "(pack-first o1)"], self.lama_seconds, False)


@pytest.fixture
def planner(monkeypatch: pytest.MonkeyPatch) -> FakePlanner:
    fake = FakePlanner(0.3)
    monkeypatch.setattr(plan_quality, "optimal_plan", fake)
    monkeypatch.setattr(plan_quality, "planner_run", fake.lama)
    monkeypatch.setattr(
        plan_quality,
        "check_plan",
        lambda problem, plan: type("V", (), {"valid": True, "cost": float(len(plan))})(),
    )
    return fake


def _problems() -> list[Problem]:
    return [heavy_problem(f"p{items}", items) for items in (6, 2, 5, 3, 4)]


def test_optimal_costs_run_in_parallel_smallest_first(planner: FakePlanner) -> None:
    answers = reference_costs(_problems(), Observations(), budget=30, workers=2)
    assert planner.started[:2] == ["p2", "p3"] and sorted(planner.started) == ["p2", "p3", "p4", "p5", "p6"]
    assert planner.most == 2
    assert answers == [Reference(1.0, ("(pack-first o0)",), "optimal")] * 5 and planner.lama_started == []


def test_the_budget_bounds_them_and_the_rest_are_listed(
    planner: FakePlanner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(progress, "PROGRESS_SECONDS", 0.1)
    planner.lama_seconds = 5.0  # LAMA-first does not finish in what is left either
    lines: list[str] = []
    path = tmp_path / "observations.json"
    started = time.monotonic()
    answers = reference_costs(_problems(), Observations(path), budget=0.45, workers=2, note=lines.append)
    assert time.monotonic() - started < 1.5
    costs = dict(zip(["p6", "p2", "p5", "p3", "p4"], (answer.cost for answer in answers)))
    assert costs["p2"] == costs["p3"] == 1.0 and costs["p6"] is None  # the smallest first; the largest left
    assert any(line.startswith("plan quality: reference costs of ") for line in lines)  # progress meanwhile
    assert lines[-1].startswith("plan quality: no reference cost for ") and "p6" in lines[-1]
    recorded = json.loads(path.read_text())
    optimal = [key for key in recorded if key.startswith("optimal-cost/")]
    assert len(optimal) == sum(cost is not None for cost in costs.values())  # A* cut short: not recorded
    cut = [value for key, value in recorded.items() if key.startswith("lama-first-cost/")]
    assert len(cut) == 5 - len(optimal)  # LAMA-first cut short (or left no time): recorded with the budget
    assert all(value["cost"] is None and value["budget"] == 0.45 for value in cut)


def test_recorded_costs_are_reused_without_a_planner(planner: FakePlanner) -> None:
    observations = Observations()
    reference_costs(_problems(), observations, budget=30, workers=2)
    planner.started.clear()
    again = reference_costs(_problems(), observations, budget=30, workers=2)
    assert planner.started == [] and [answer.cost for answer in again] == [1.0] * 5


def _no_planner(*args: Any, **kw: Any) -> Any:
    raise AssertionError("a replay runs no planner")


def test_where_astar_does_not_finish_a_lama_first_plan_is_the_reference(
    planner: FakePlanner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(plan_quality, "OPTIMAL_SECONDS", 0.1)  # A*'s own budget per problem
    planner.seconds, planner.unfinished = 0.01, {"p6", "p4"}
    path = tmp_path / "observations.json"
    answers = reference_costs(_problems(), Observations(path), budget=30, workers=2)
    lama = Reference(2.0, ("(pack-first o0)", "(pack-first o1)"), LAMA_FIRST)
    assert [answer.kind for answer in answers] == [
        "lama-first",
        "optimal",
        "optimal",
        "optimal",
        "lama-first",
    ]
    assert answers[0] == answers[4] == lama and sorted(planner.lama_started) == ["p4", "p6"]
    monkeypatch.setattr(plan_quality, "optimal_plan", _no_planner)
    monkeypatch.setattr(plan_quality, "planner_run", _no_planner)
    replay = Observations(tmp_path / "again.json", earlier=[path])
    assert reference_costs(_problems(), replay, budget=30, workers=2) == answers
    assert replay.measured == 0


def test_a_lama_first_search_the_budget_cut_is_not_run_again_with_the_same_budget(
    planner: FakePlanner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(plan_quality, "OPTIMAL_SECONDS", 0.1)
    planner.unfinished, planner.lama_seconds = {"p2"}, 5.0
    problems = [heavy_problem("p2", 2)]
    path = tmp_path / "observations.json"
    assert reference_costs(problems, Observations(path), budget=0.5) == [Reference(None, None)]
    (cut,) = [value for key, value in json.loads(path.read_text()).items() if key.startswith("lama-first")]
    assert cut["cost"] is None and cut["budget"] == 0.5 and 0 < cut["seconds"] <= 0.4
    planner.lama_started.clear()
    assert reference_costs(problems, Observations(path), budget=0.5) == [Reference(None, None)]
    assert planner.lama_started == []  # the same budget: not searched again
    planner.lama_seconds = 0.05
    again = reference_costs(problems, Observations(path), budget=5)  # a larger budget: searched again
    assert planner.lama_started == ["p2"] and again[0].kind == LAMA_FIRST and again[0].cost == 2.0


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
