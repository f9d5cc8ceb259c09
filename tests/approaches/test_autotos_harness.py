"""The AutoToS harnesses: the checks of Steps 2-4 and the evaluation search, on canned components."""

from __future__ import annotations

from typing import Any

import pytest
from autotos_programs import (
    GOAL,
    GOAL_ALWAYS,
    GOAL_INTEGER,
    GOAL_ONE_ATOM,
    HEAVY,
    HEAVY_LISTS,
    HEAVY_LOOPING,
    HEAVY_MUTATING,
    HEAVY_NO_STACK,
    HEAVY_RAISING,
    HEAVY_SWALLOWING,
    HEAVY_UNSOUND,
)
from fake_programs import heavy_problem

import genplan.approaches.autotos.frontier as frontier
from genplan.approaches.autotos import prompts
from genplan.approaches.autotos.examples import (
    example_problem,
    example_task,
    goal_cases,
    successor_cases,
    task_json,
)
from genplan.approaches.autotos.sandboxed import run_in_process, sandbox_runner
from genplan.approaches.autotos.states import state_from_json
from genplan.plans.successors import SuccessorGenerator
from genplan.plans.validate import check_plan
from genplan.sandbox import Limits

HARNESS = "genplan.approaches.autotos.harness"
EXACT = {
    "search": "bfs",
    "search_seconds": 20.0,
    "call_seconds": 1.0,
    "soundness": "exact",
    "goal_verdicts": True,
    "completeness": False,
    "max_expansions": 0,
}


def call(function: str, program: str, *args: Any) -> dict[str, Any]:
    outcome = run_in_process(program, f"{HARNESS}:{function}", [program, *args], 60.0)
    assert outcome.status == "success", outcome
    return outcome.value


def program(successor: str, goal: str = GOAL) -> str:
    return successor.strip() + "\n\n" + goal.strip() + "\n"


@pytest.fixture(scope="module")
def example() -> Any:
    return example_problem(heavy_problem("train-4", 4), 3, 0)


def test_the_broken_variants_differ_from_the_correct_components() -> None:
    assert HEAVY_MUTATING != HEAVY


def test_correct_components_pass_every_check(example: Any) -> None:
    task = example_task(example)
    assert call("goal_tests", program(HEAVY), goal_cases([example]), 1.0)["passed"]
    found = call("search_check", program(HEAVY), task, EXACT)
    assert found["passed"] and found["outcome"] == "goal"
    complete = call(
        "search_check", program(HEAVY), task, {**EXACT, "completeness": True, "max_expansions": 50}
    )
    assert complete["passed"], complete["failure"]
    assert call("successor_tests", program(HEAVY), task, successor_cases(example), 1.0)["passed"]


@pytest.mark.parametrize(
    ("goal", "category"),
    [(GOAL_ALWAYS, "goal-soundness"), (GOAL_INTEGER, "goal-bad-output")],
)
def test_goal_unit_tests_report_the_first_wrong_verdict(example: Any, goal: str, category: str) -> None:
    cases = goal_cases([example])
    report = call("goal_tests", program(HEAVY, goal), cases, 1.0)
    assert not report["passed"]
    failure = report["failure"]
    assert failure["category"] == category
    first_wrong = (
        next(i for i, c in enumerate(cases) if not c["expected"]) if category == "goal-soundness" else 0
    )
    assert failure["case"] == first_wrong
    assert failure["state"] == cases[first_wrong]["state"]


def test_the_exact_soundness_check_names_a_state_and_a_successor_no_action_gives(example: Any) -> None:
    report = call("search_check", program(HEAVY_UNSOUND), example_task(example), EXACT)
    failure = report["failure"]
    assert failure["category"] == "successor-soundness"
    state, successor = state_from_json(failure["state"]), state_from_json(failure["successor"])
    truth = {s for _, s in SuccessorGenerator.for_problem(example.problem).successors(state)}
    assert successor not in truth


def test_the_partial_test_catches_only_what_it_can_see(example: Any) -> None:
    """Stacking a lighter item under a heavier one breaks no invariant the partial test knows."""
    partial = {**EXACT, "soundness": "partial", "goal_verdicts": False}
    assert call("search_check", program(HEAVY_UNSOUND), example_task(example), partial)["passed"]
    breaking = HEAVY.replace(
        'new |= {("packed", top), ("nothing-above", top)}', 'new |= {("packed", top), ("heavier", top, top)}'
    )
    assert breaking != HEAVY
    failure = call("search_check", program(breaking), example_task(example), partial)["failure"]
    assert failure["category"] == "successor-soundness"
    assert "static facts changed" in failure["reason"]


def test_a_changed_input_state_is_reported_with_what_changed(example: Any) -> None:
    failure = call("search_check", program(HEAVY_MUTATING), example_task(example), EXACT)["failure"]
    assert failure["category"] == "input-changed"
    assert ["box-empty"] in failure["removed"]


def test_a_missing_successor_is_reported_by_the_exact_completeness_check(example: Any) -> None:
    options = {**EXACT, "completeness": True, "max_expansions": 50}
    failure = call("search_check", program(HEAVY_NO_STACK), example_task(example), options)["failure"]
    assert failure["category"] == "successor-completeness"
    assert failure["missing_count"] >= 1


def test_a_search_that_misses_the_example_goal_names_the_first_missing_step(example: Any) -> None:
    failure = call("search_check", program(HEAVY_NO_STACK), example_task(example), EXACT)["failure"]
    assert failure["category"] == "search-exhausted"
    state = state_from_json(failure["state"])
    assert state in example.states
    assert state_from_json(failure["missing"][0]) == example.states[example.states.index(state) + 1]


def test_a_goal_test_wrong_on_a_searched_state_is_caught_by_the_exact_verdicts(example: Any) -> None:
    failure = call("search_check", program(HEAVY, GOAL_ONE_ATOM), example_task(example), EXACT)["failure"]
    assert failure["category"] == "goal-soundness"
    state, goal = state_from_json(failure["state"]), state_from_json(failure["goal"])
    assert not goal <= state


def test_without_exact_verdicts_a_wrongly_reached_goal_is_still_caught(example: Any) -> None:
    options = {**EXACT, "soundness": "partial", "goal_verdicts": False}
    failure = call("search_check", program(HEAVY, GOAL_ONE_ATOM), example_task(example), options)["failure"]
    assert failure["category"] == "goal-soundness"


@pytest.mark.parametrize(
    ("successor", "category", "evidence"),
    [
        (HEAVY_LOOPING, "successor-timeout", "seconds"),
        (HEAVY_SWALLOWING, "successor-timeout", "seconds"),
        (HEAVY_RAISING, "successor-exception", "traceback"),
        (HEAVY_LISTS, "successor-bad-output", "reason"),
    ],
)
def test_a_failing_call_is_reported_with_the_state_it_failed_on(
    example: Any, successor: str, category: str, evidence: str
) -> None:
    options = {**EXACT, "call_seconds": 0.2}
    failure = call("search_check", program(successor), example_task(example), options)["failure"]
    assert failure["category"] == category
    assert failure["state"] == example_task(example)["init"]
    assert failure[evidence]


def test_a_traceback_shows_the_program_line_not_the_harness(example: Any) -> None:
    failure = call("search_check", program(HEAVY_RAISING), example_task(example), EXACT)["failure"]
    trace = failure["traceback"]
    assert "return [items[100]]" in trace and "IndexError" in trace
    assert "harness" not in trace


def test_the_evaluation_search_returns_a_valid_optimal_plan() -> None:
    problem = heavy_problem("eval-5", 5)
    options = {"search": "bfs", "search_seconds": 20.0, "call_seconds": 1.0}
    report = call("solve", program(HEAVY), task_json(problem), options)
    assert report["status"] == "plan-found"
    assert len(report["plan"]) == 5
    assert check_plan(problem, report["plan"]).valid


def test_depth_first_search_also_finds_a_valid_plan() -> None:
    problem = heavy_problem("eval-5", 5)
    options = {"search": "dfs", "search_seconds": 20.0, "call_seconds": 1.0}
    report = call("solve", program(HEAVY), task_json(problem), options)
    assert report["status"] == "plan-found" and check_plan(problem, report["plan"]).valid


def test_an_unsound_path_has_no_plan() -> None:
    problem = heavy_problem("eval-4", 4)
    shortcut = HEAVY.replace(
        'new -= {("box-empty",), ("unpacked", item)}',
        'new -= {("box-empty",)}\n            new -= {("unpacked", o) for o in objects}',
    )
    shortcut = shortcut.replace(
        'new |= {("packed", item), ("nothing-above", item)}',
        'new |= {("packed", o) for o in objects}\n            new.add(("nothing-above", item))',
    )
    assert shortcut != HEAVY
    options = {"search": "bfs", "search_seconds": 20.0, "call_seconds": 1.0}
    report = call("solve", program(shortcut), task_json(problem), options)
    assert report["status"] == "unsound-transition"
    assert report["plan"] is None


def test_the_evaluation_search_stops_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frontier.LevelWatch, "level_done", lambda self, size, stored: None)  # always fits
    problem = heavy_problem("eval-40", 40)
    options = {"search": "bfs", "search_seconds": 0.5, "call_seconds": 1.0}
    report = call("solve", program(HEAVY), task_json(problem), options)
    assert report["status"] == "search-timeout"
    assert report["expanded"] >= 1


def test_a_search_whose_levels_cannot_fit_stops_at_once() -> None:
    """Issue 36: heavy's 40 items need at least 40 steps, and its levels grow by dozens of
    states a level: the search stops within seconds, not at the end of its budget."""
    problem = heavy_problem("eval-40", 40)
    options = {"search": "bfs", "search_seconds": 120.0, "call_seconds": 1.0}
    report = call("solve", program(HEAVY), task_json(problem), options)
    assert report["status"] == "search-memory" and report["seconds"] < 60
    assert "a plan needs at least 40 steps here" in report["message"]
    assert "over the memory limit of 2 GiB" in report["message"]


def test_an_exhausted_search_says_so() -> None:
    problem = heavy_problem("eval-3", 3)
    options = {"search": "bfs", "search_seconds": 20.0, "call_seconds": 1.0}
    report = call("solve", program(HEAVY_NO_STACK), task_json(problem), options)
    assert report["status"] == "search-exhausted"


def test_the_evaluation_search_rejects_a_state_with_an_atom_that_is_not_strings() -> None:
    problem = heavy_problem("eval-3", 3)
    numbered = HEAVY.replace(
        'new |= {("packed", item), ("nothing-above", item)}',
        'new |= {("packed", item), ("nothing-above", item), ("count", 1)}',
    )
    assert numbered != HEAVY
    options = {"search": "bfs", "search_seconds": 20.0, "call_seconds": 1.0}
    report = call("solve", program(numbered), task_json(problem), options)
    assert report["status"] == "successor-bad-output"
    assert "('count', 1)" in report["message"]


def test_running_out_of_memory_in_the_sandbox_is_a_failed_search_not_an_exception(example: Any) -> None:
    hungry = "def successor_states(state, objects):\n    return [set(state)] * (10**10)\n"
    outcome = sandbox_runner(Limits())(
        program(hungry), f"{HARNESS}:search_check", [program(hungry), example_task(example), EXACT], 60.0
    )
    assert outcome.status == "success", outcome
    failure = outcome.value["failure"]
    assert failure["category"] == "search-timeout" and failure["memory"] is True
    assert "ran out of memory" in prompts.feedback(failure, frozenset(), init=example.init, goal=example.goal)
