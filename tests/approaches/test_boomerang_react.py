"""Boomerang, ReAct and ReAct-Select with the scripted fake model: feedback, reuse, budgets."""

from __future__ import annotations

import json
from pathlib import Path

from blocks import OPTIMAL, problem_set
from planner_helpers import last_user, run, user_texts

from genplan.llm import FakeLanguageModel


def _sequence(*actions: str) -> str:
    return "Reflect: -\nThink: -\nAction Sequence: " + ", ".join(actions)


def test_boomerang_second_plan_sees_the_first_plans_trajectory_and_error(tmp_path: Path) -> None:
    model = FakeLanguageModel([_sequence("(unstack a b)", "(pick-up b)", "(stack b c)"), _sequence(*OPTIMAL)])
    record = run("boomerang", model, tmp_path, problem_set(optimal={"tower": 4}))
    result = record.problems[0]
    assert result.status == "solved" and result.plan_length == 4 and result.details["optimal"] is True
    second = model.history[1]
    assert [m.role for m in second] == ["user", "assistant", "user"]
    assert second[1].content == _sequence("(unstack a b)", "(pick-up b)", "(stack b c)")
    feedback = second[2].content
    assert "action 2 of your sequence failed: (pick-up b) is not applicable: (handempty) is false" in feedback
    assert "1. (unstack a b) -> (clear b) (clear c) (holding a) (ontable b) (ontable c)" in feedback
    # (unstack a b) again from the initial state is served from memory: 2 + 3 queries, 1 reused
    assert result.world_model_queries == 5 and result.details["queries_reused"] == 1
    assert result.llm_calls == 2 and record.feedback == {"precondition": 1}


def test_boomerang_says_which_goals_a_valid_plan_left_unmet(tmp_path: Path) -> None:
    model = FakeLanguageModel([_sequence(*OPTIMAL[:2]), "Think: oops", _sequence(*OPTIMAL)])
    record = run("boomerang", model, tmp_path, problem_set())
    assert record.problems[0].status == "solved" and record.problems[0].llm_calls == 3
    assert "applied without error but did not reach the goal; unmet: (on b c)" in last_user(model, 1)
    assert "no 'Action Sequence:' line" in last_user(model, 2)
    assert record.feedback == {"answer-format": 1, "goal-not-reached": 1}


def test_boomerang_stops_when_the_query_budget_is_used_up(tmp_path: Path) -> None:
    model = FakeLanguageModel([_sequence("(pick-up c)", "(stack c a)"), _sequence(*OPTIMAL)])
    record = run("boomerang", model, tmp_path, problem_set(), budget=3)
    result = record.problems[0]
    assert result.status == "budget-exhausted" and result.world_model_queries == 3
    assert result.plan_length is None and result.llm_calls == 2


def test_boomerang_stops_after_its_iterations(tmp_path: Path) -> None:
    model = FakeLanguageModel([_sequence("(pick-up b)"), _sequence("(pick-up b)")])
    record = run("boomerang", model, tmp_path, problem_set(), iterations=2)
    result = record.problems[0]
    assert result.status == "step-limit" and result.llm_calls == 2
    assert result.world_model_queries == 1 and result.details["queries_reused"] == 1


def _act(action: str, state: str | None = None) -> str:
    return "Think: -\n" + (f"State: {state}\n" if state else "") + f"Action: {action}"


def test_react_acts_from_the_last_state_and_hears_every_observation(tmp_path: Path) -> None:
    model = FakeLanguageModel(
        [_act("(pick-up b)"), _act("(unstack a b)"), _act("(stack a b)"), _act("(unstack a b)")]
        + [_act(action) for action in OPTIMAL[1:]]
    )
    record = run("react", model, tmp_path, problem_set())
    result = record.problems[0]
    assert result.status == "solved"
    # the plan is every applied action, the walk back and forth included
    assert result.details["plan"] == ["(unstack a b)", "(stack a b)", *OPTIMAL]
    assert "Observation: (pick-up b) is not applicable: (clear b) is false. The state is unchanged." in (
        last_user(model, 1)
    )
    assert "Current state: (clear b) (clear c) (holding a)" in last_user(model, 2)
    assert "Valid actions in the current state: (put-down a), (stack a b), (stack a c)" in last_user(model, 2)
    # (unstack a b) in the initial state twice: counted once
    assert result.world_model_queries == 6 and result.details["queries_reused"] == 1
    assert result.llm_calls == 7 and record.feedback == {"precondition": 1}


def test_react_stops_after_its_decisions(tmp_path: Path) -> None:
    model = FakeLanguageModel([_act("(unstack a b)"), "I am not sure.", _act("(put-down a)")])
    record = run("react", model, tmp_path, problem_set(), steps=3)
    result = record.problems[0]
    assert result.status == "step-limit" and result.llm_calls == 3 and result.world_model_queries == 2
    assert "no 'Action:' line" in last_user(model, 2)


def test_react_select_continues_from_any_visited_state(tmp_path: Path) -> None:
    answers = [
        _act("(pick-up c)", "S0"),
        _act("(unstack a b)", "S0"),
        _act("(put-down a)", "S7"),
        _act("(put-down a)", "S2"),
        _act("(pick-up b)", "S3"),
        _act("(stack b c)", "S4"),
    ]
    model = FakeLanguageModel(answers)
    record = run("react-select", model, tmp_path, problem_set())
    result = record.problems[0]
    assert result.status == "solved" and result.details["plan"] == OPTIMAL  # (pick-up c) is not on the path
    assert "from S0, (pick-up c) led to a new state S1: (clear a) (holding c)" in last_user(model, 1)
    assert "no visited state S7 (visited: S0 to S2)" in last_user(model, 3)
    assert "S0: (clear a) (clear c) (handempty) (on a b) (ontable b) (ontable c)" in user_texts(model, 0)
    assert record.feedback == {"answer-format": 1}


def test_traces_and_conversation_are_written(tmp_path: Path) -> None:
    model = FakeLanguageModel([_sequence(*OPTIMAL)])
    record = run("boomerang", model, tmp_path, problem_set())
    assert record.artifacts == [
        "conversation.jsonl",
        "identity.json",
        "traces.jsonl",
        "metadata.json",
        "results.json",
        "plans/tower.plan",
    ]
    plan = (tmp_path / "plans" / "tower.plan").read_text().splitlines()
    assert plan[:-1] == list(OPTIMAL) and plan[-1] == f"; cost = {len(OPTIMAL)} (unit cost)"
    assert record.problems[0].plan_cost == len(OPTIMAL)
    trace = json.loads((tmp_path / "traces.jsonl").read_text())
    assert trace["problem"] == "tower" and trace["trace"][0]["event"] == "rollout"
    assert len((tmp_path / "conversation.jsonl").read_text().splitlines()) == 1
