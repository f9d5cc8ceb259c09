"""PG3, PE and PC within their budget: ``max_seconds`` bounds set-up and search alike, progress is
reported while they run, and the record's seconds say what the person waited."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from genplan.approaches import get_approach
from genplan.approaches.base import ProblemResult, RunContext
from genplan.approaches.pg3 import learning, planning
from genplan.approaches.pg3.budget import Budget, BudgetSpent
from genplan.approaches.pg3.learning import SETUP, learn_policy
from genplan.approaches.pg3.settings import PolicySearchSettings
from genplan.llm import FakeLanguageModel
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems, load_domain_problems
from genplan.runs import progress


class Ticks:
    """A fake clock: every reading is ``step`` seconds after the one before."""

    def __init__(self, step: float = 1.0):
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


class Notes:
    """A run's progress that keeps the notes."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def note(self, text: str) -> None:
        self.lines.append(text)

    def start_problems(self, total: int) -> None:
        pass

    def problem_done(self, result: ProblemResult) -> None:
        pass


@pytest.fixture(scope="module")
def gripper(tmp_path_factory: pytest.TempPathFactory) -> DomainProblems:
    return load_domain_problems("gripper", 0, 2, tmp_path_factory.mktemp("problems"))


def training(problems: DomainProblems) -> list[Problem]:
    return list(problems.training[:-1] if problems.size_check else problems.training)


def count_plans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the empty policy's and every candidate's guided searches (a list of one count)."""
    calls = [0]
    plan = planning.policy_guided_plan

    def counted(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        return plan(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(learning, "policy_guided_plan", counted)
    monkeypatch.setattr("genplan.approaches.pg3.scores.policy_guided_plan", counted)
    return calls


def test_the_budget_is_spent_when_its_clock_says_so() -> None:
    budget = Budget(4.0, clock=Ticks())  # made at 1
    assert budget.elapsed() == 1.0 and budget.remaining() == 2.0  # read at 2, then 3
    budget.check()  # read at 4: 3 s of 4 spent
    with pytest.raises(BudgetSpent, match="the 4 s budget ran out"):
        budget.check()  # read at 5: all 4 spent
    assert budget.remaining() == 0.0


@pytest.mark.parametrize("kind", ["pg3", "pe"])
def test_a_set_up_that_outlasts_the_budget_stops_with_the_empty_policy_and_says_where(
    gripper: DomainProblems, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    problems = training(gripper)
    calls = count_plans(monkeypatch)
    clock = Ticks()
    settings = PolicySearchSettings(max_seconds=len(problems) + 3)
    learned = learn_policy(kind, problems, settings, budget=Budget(settings.max_seconds, clock=clock))
    # One reading per problem prepared, one for the planning's deadline, then one per state
    # expanded: the budget runs out while the empty policy is planned, and nothing runs on.
    assert learned.result.stop == SETUP and learned.result.policy.rules == ()
    assert learned.result.scored == 0 and learned.result.score is None
    assert learned.setup_stopped is not None
    assert learned.setup_stopped.startswith("planning the empty policy")
    assert f"of {len(problems)} training problems" in learned.setup_stopped
    assert calls[0] == 1  # the first problem's search was cut; no other search started
    assert learned.seconds <= settings.max_seconds + 2  # at most the final readings past the end


def test_the_search_stops_within_a_step_of_the_budget(
    gripper: DomainProblems, monkeypatch: pytest.MonkeyPatch
) -> None:
    problems = training(gripper)[:3]
    calls = count_plans(monkeypatch)
    clock = Ticks()
    seconds = 250.0
    learned = learn_policy(
        "pg3",
        problems,
        PolicySearchSettings(max_seconds=seconds, bottom_up=False),
        budget=Budget(seconds, clock=clock),
    )
    assert learned.result.stop == "seconds" and learned.result.scored > 1  # begun, then cut short
    assert clock.now <= seconds + 3  # every step of work reads the clock: none ran past the end
    assert learned.setup_seconds < learned.seconds <= seconds + 2
    assert calls[0] < clock.readings  # each guided search reads the clock at least once


def test_pc_asks_its_planner_only_for_the_time_left(gripper: DomainProblems) -> None:
    problems = training(gripper)
    clock = Ticks(step=0.0)
    asked: list[float] = []

    def planner(problem: Problem, seconds: float) -> Sequence[Atom] | None:
        asked.append(seconds)
        clock.now += seconds  # a planner that runs out of time
        return None

    settings = PolicySearchSettings(max_seconds=100.0, planner_seconds=60.0)
    learned = learn_policy("pc", problems, settings, planner, budget=Budget(100.0, clock=clock))
    assert asked == [60.0, 40.0]
    # the first found no plan in its 60 s; the second was cut by the budget, not judged
    assert learned.result.stop == SETUP and learned.training_plans == (False,)
    assert learned.setup_stopped == f"Fast Downward's example plans: 1 of {len(problems)} training problems"


def test_heartbeat_reports_while_a_step_runs_and_stops_with_the_block() -> None:
    lines: list[str] = []
    two = threading.Event()

    def note(text: str) -> None:
        lines.append(text)
        if len(lines) >= 2:
            two.set()

    with progress.heartbeat(note, lambda: "still here", interval=0.01):
        assert two.wait(timeout=60)  # one long step: the lines come from the heartbeat alone
    count = len(lines)
    assert lines[:2] == ["still here", "still here"]
    two.clear()
    assert not two.wait(timeout=0.05) and len(lines) == count  # nothing after the block


def test_a_run_counts_its_set_up_against_max_seconds_and_says_so(
    gripper: DomainProblems, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = count_plans(monkeypatch)
    notes = Notes()
    settings = PolicySearchSettings(max_seconds=1e-9)  # spent before the first training problem
    context = RunContext(folder=tmp_path / "run", progress=notes, workers=1, eval_timeout=30.0)
    record = get_approach("pg3").run(gripper, FakeLanguageModel(), settings, context)
    assert calls[0] == 0  # no training problem was planned
    details = record.details
    assert details["search_stop"] == SETUP and details["policies_scored"] == 0
    assert details["setup_stopped"].startswith("preparing each problem's search: 0 of")
    assert any("budget ran out during set-up" in line for line in notes.lines), notes.lines
    assert (tmp_path / "run" / "policy.txt").is_file() and len(record.problems) == len(gripper.evaluation)


def test_the_record_s_seconds_cover_set_up_search_and_the_whole_run(
    gripper: DomainProblems, tmp_path: Path
) -> None:
    context = RunContext(folder=tmp_path / "run", workers=1, eval_timeout=30.0)
    record = get_approach("pg3").run(gripper, FakeLanguageModel(), PolicySearchSettings(), context)
    d = json.loads((tmp_path / "run" / "metadata.json").read_text())["details"]
    assert d == record.details
    assert d["search_stop"] == "solved"
    assert 0 < d["setup_seconds"] <= d["learning_seconds"] <= d["run_seconds"]
    assert d["search_seconds"] <= d["learning_seconds"]
    assert "setup_stopped" not in d


def test_progress_lines_come_during_set_up_and_search(
    gripper: DomainProblems, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "PROGRESS_SECONDS", 0.001)
    notes = Notes()
    context = RunContext(folder=tmp_path / "run", progress=notes, workers=1, eval_timeout=30.0)
    get_approach("pe").run(gripper, FakeLanguageModel(), PolicySearchSettings(max_policies=30), context)
    lines = notes.lines
    assert lines[0].startswith("pe: learning a policy from") and "set-up included" in lines[0]
    assert any(line.startswith("pe set-up, planning the empty policy") for line in lines), lines
    assert any(line.startswith("pe search: ") and "candidates scored" in line for line in lines), lines
    assert any("rules after" in line and "(set-up" in line for line in lines), lines
