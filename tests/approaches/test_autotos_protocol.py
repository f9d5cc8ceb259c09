"""The AutoToS feedback loop with the scripted fake model: every feedback path, the budget, ablations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from autotos_programs import (
    GOAL,
    GOAL_ALWAYS,
    GRIPPER,
    GRIPPER_FIRST_ONLY,
    HEAVY,
    HEAVY_LOOPING,
    HEAVY_MUTATING,
    HEAVY_NO_STACK,
    HEAVY_UNSOUND,
    fenced,
)
from fake_programs import heavy_problem

from genplan.approaches.autotos import prompts
from genplan.approaches.autotos.categories import Component
from genplan.approaches.autotos.examples import ExampleProblem, example_problems
from genplan.approaches.autotos.protocol import ProtocolResult, component_code, run_protocol
from genplan.approaches.autotos.sandboxed import HarnessOutcome, run_in_process
from genplan.approaches.autotos.settings import AutoToSSettings
from genplan.llm import FakeLanguageModel
from genplan.pddl.problem_sets import load_domain_problems


@pytest.fixture(scope="module")
def heavy_examples() -> list[ExampleProblem]:
    training = [heavy_problem("train-0", 3), heavy_problem("train-1", 4), heavy_problem("train-2", 5)]
    return example_problems(training, 3, 3, 0)


@pytest.fixture(scope="module")
def gripper_examples(tmp_path_factory: pytest.TempPathFactory) -> list[ExampleProblem]:
    problems = load_domain_problems("gripper", 0, 1, tmp_path_factory.mktemp("gripper"))
    return example_problems(problems.training, 2, 3, 0)


def protocol(
    examples: list[ExampleProblem], answers: list[str], **settings: Any
) -> tuple[ProtocolResult, FakeLanguageModel]:
    model = FakeLanguageModel([fenced(a) if "def " in a else a for a in answers])
    domain = examples[0].problem.domain.to_pddl()
    result = run_protocol(model, domain, examples, AutoToSSettings(**settings), run_in_process)
    return result, model


def kinds(result: ProtocolResult) -> list[tuple[int, str, str, str]]:
    return [(e.step, e.phase.value, e.component.value, e.category.value) for e in result.events]


def test_correct_components_pass_with_one_call_each(heavy_examples: list[ExampleProblem]) -> None:
    result, model = protocol(heavy_examples, [HEAVY, GOAL])
    assert result.outcome == "passed"
    assert result.events == []
    assert result.calls_until_passed == 2 and result.calls_until_sound == 2
    first, second = model.history
    assert first[0].role == "system" and first[0].content == prompts.SYSTEM_PROMPT
    assert "successor_states(state, objects)" in first[1].content
    assert "state = {('box-empty',)" in first[1].content
    assert second[-1].content == prompts.goal_prompt(heavy_examples[0].problem)
    assert [c["step"] for c in result.checks] == [2, 3, 3, 3, 4, 4, 4]


def test_every_check_says_what_it_checks_and_how_it_went(heavy_examples: list[ExampleProblem]) -> None:
    """Issue 27 item 10: the checks (minutes of searches) are not silent."""
    lines: list[str] = []
    model = FakeLanguageModel([fenced(HEAVY), fenced(GOAL)])
    domain = heavy_examples[0].problem.domain.to_pddl()
    run_protocol(model, domain, heavy_examples, AutoToSSettings(), run_in_process, on_event=lines.append)
    first = heavy_examples[0].name
    assert lines[0].startswith("step 2: goal unit tests passed in ")
    assert lines[1] == f"step 3: soundness search on {first}, up to 630 s ..."
    assert lines[2].startswith(f"step 3: soundness search on {first} passed in ")
    assert sum(line.endswith("...") for line in lines) == 6 and len(lines) == 13
    assert lines[-1].startswith(f"step 4: completeness check on {heavy_examples[-1].name} passed")


def test_a_wrong_goal_test_gets_goal_feedback_and_step_2_runs_again(
    heavy_examples: list[ExampleProblem],
) -> None:
    result, model = protocol(heavy_examples, [HEAVY, GOAL_ALWAYS, GOAL])
    assert result.outcome == "passed"
    assert kinds(result) == [(2, "goal", "is_goal", "goal-soundness")]
    assert "return True" in result.milestones["initial"]
    assert result.milestones["sound"] == result.milestones["final"] == result.program
    feedback = model.history[2][-1].content
    assert "incorrectly reporting that the state is a goal state" in feedback
    assert "state = {('box-empty',)" in feedback and "goal = {" in feedback
    assert "Remember how you fixed the previous mistakes" in feedback
    assert [c["step"] for c in result.checks][:3] == [2, 2, 3]
    assert result.calls == {Component.SUCCESSOR: 1, Component.GOAL: 2}
    assert result.calls_until_passed == 3


def test_an_unsound_successor_gets_the_offending_transition(heavy_examples: list[ExampleProblem]) -> None:
    result, model = protocol(heavy_examples, [HEAVY_UNSOUND, GOAL, HEAVY])
    assert kinds(result) == [(3, "successor-soundness", "successor_states", "successor-soundness")]
    feedback = model.history[2][-1].content
    assert "no single applicable action leads to" in feedback
    assert "Example wrong successor state: the input state without" in feedback
    assert "objects = frozenset({" in feedback
    assert result.outcome == "passed"


def test_a_changed_input_state_gets_feedback(heavy_examples: list[ExampleProblem]) -> None:
    result, model = protocol(heavy_examples, [HEAVY_MUTATING, GOAL, HEAVY])
    assert kinds(result) == [(3, "successor-soundness", "successor_states", "input-changed")]
    assert "changed its input state" in model.history[2][-1].content
    assert "removed {('box-empty',)" in model.history[2][-1].content


def test_an_incomplete_successor_gets_the_missing_successors(gripper_examples: list[ExampleProblem]) -> None:
    result, model = protocol(gripper_examples, [GRIPPER_FIRST_ONLY, GOAL, GRIPPER])
    assert kinds(result) == [(4, "successor-completeness", "successor_states", "successor-completeness")]
    feedback = model.history[2][-1].content
    assert "failed to produce all successors" in feedback
    assert "Missing successors are:" in feedback and "'gripper1')" in feedback
    assert result.outcome == "passed" and result.calls_until_sound == 2 and result.calls_until_passed == 3
    assert result.milestones["initial"] == result.milestones["sound"] != result.milestones["final"]


def test_a_component_that_runs_too_long_gets_timeout_feedback(heavy_examples: list[ExampleProblem]) -> None:
    result, model = protocol(heavy_examples, [HEAVY_LOOPING, GOAL, HEAVY], call_seconds=0.2)
    assert kinds(result) == [(3, "successor-soundness", "successor_states", "successor-timeout")]
    assert "took longer than 0.2 s" in model.history[2][-1].content


def test_a_search_that_cannot_reach_the_example_goal_names_the_missing_step(
    heavy_examples: list[ExampleProblem],
) -> None:
    result, model = protocol(heavy_examples, [HEAVY_NO_STACK, GOAL, HEAVY])
    assert kinds(result) == [(3, "successor-soundness", "successor_states", "search-exhausted")]
    feedback = model.history[2][-1].content
    assert "ran out of states to expand" in feedback and "failed to produce a successor" in feedback


def test_an_answer_without_the_function_is_parse_error_feedback(heavy_examples: list[ExampleProblem]) -> None:
    result, model = protocol(heavy_examples, ["I would rather not.", HEAVY, HEAVY, GOAL])
    assert kinds(result)[0] == (1, "successor-soundness", "successor_states", "parse-error")
    assert "contains no Python code" in model.history[1][-1].content
    assert kinds(result)[1] == (1, "goal", "is_goal", "parse-error")
    assert "defines no function is_goal" in model.history[3][-1].content
    assert result.outcome == "passed"


def test_a_policy_violation_is_blamed_on_the_component_that_holds_it(
    heavy_examples: list[ExampleProblem],
) -> None:
    importing = HEAVY.replace("    successors = []", "    import os\n    successors = []", 1)
    assert importing != HEAVY
    result, model = protocol(heavy_examples, [importing, GOAL, HEAVY])
    assert kinds(result) == [(2, "successor-soundness", "successor_states", "successor-exception")]
    assert "os" in model.history[2][-1].content
    assert [c["step"] for c in result.checks][:2] == [2, 2]


def test_the_budget_per_function_stops_the_loop_and_keeps_the_components(
    heavy_examples: list[ExampleProblem],
) -> None:
    result, model = protocol(heavy_examples, [HEAVY, *[GOAL_ALWAYS] * 3], calls_per_function=3)
    assert result.outcome == "budget-exhausted"
    assert result.calls[Component.GOAL] == 3 and len(model.history) == 4
    assert result.calls_until_passed is None
    assert "return True" in (result.sources[Component.GOAL] or "")


def test_the_budget_per_domain_counts_both_functions(heavy_examples: list[ExampleProblem]) -> None:
    result, model = protocol(
        heavy_examples, [HEAVY_UNSOUND, GOAL_ALWAYS, GOAL, *[HEAVY_UNSOUND] * 3], max_calls=4
    )
    assert result.outcome == "budget-exhausted"
    assert len(model.history) == 4


def test_the_partial_mode_lets_through_what_its_test_cannot_see(heavy_examples: list[ExampleProblem]) -> None:
    result, _ = protocol(heavy_examples, [HEAVY_UNSOUND, GOAL], checks="partial", completeness_test=False)
    assert result.outcome == "passed" and result.events == []


def test_without_the_soundness_test_an_unsound_successor_passes(heavy_examples: list[ExampleProblem]) -> None:
    """Also through Step 4: the stacking it allows too much of leaves no successor out."""
    result, _ = protocol(heavy_examples, [HEAVY_UNSOUND, GOAL], soundness_test=False)
    assert result.outcome == "passed" and result.events == []


def test_without_the_completeness_step_an_incomplete_successor_passes(
    gripper_examples: list[ExampleProblem],
) -> None:
    result, _ = protocol(gripper_examples, [GRIPPER_FIRST_ONLY, GOAL], completeness_test=False)
    assert result.outcome == "passed" and result.calls_until_passed == 2


def test_the_partial_mode_tests_completeness_on_known_successors(
    gripper_examples: list[ExampleProblem],
) -> None:
    result, _ = protocol(gripper_examples, [GRIPPER_FIRST_ONLY, GOAL, GRIPPER], checks="partial")
    assert kinds(result) == [(4, "successor-completeness", "successor_states", "successor-completeness")]


@pytest.mark.parametrize(
    ("answer", "component", "expected"),
    [
        (
            "```python\ndef is_goal(state, goal):\n    return goal <= state\n```",
            Component.GOAL,
            "def is_goal",
        ),
        ("no code here", Component.GOAL, None),
        ("```python\ndef successor_states(state, objects:\n```", Component.SUCCESSOR, None),
        ("```python\ndef successor_states(s, o):\n    return []\n```", Component.GOAL, None),
    ],
)
def test_component_code_is_taken_only_from_an_answer_that_defines_it(
    answer: str, component: Component, expected: str | None
) -> None:
    code, problem = component_code(answer, component)
    assert (code is None) == (expected is None)
    if expected is None:
        assert problem
    else:
        assert code is not None and expected in code


def test_an_answer_that_also_redefines_the_other_function_changes_only_the_one_asked_for() -> None:
    answer = fenced(
        "def successor_states(state, objects):\n    return []\n\ndef is_goal(state, goal):\n    return True\n"
    )
    code, _ = component_code(answer, Component.SUCCESSOR)
    assert code is not None and "successor_states" in code and "is_goal" not in code


def test_examples_come_from_the_training_problems(tmp_path: Path) -> None:
    problems = load_domain_problems("heavy", 0, 1, tmp_path)
    examples = example_problems(problems.training, 3, 3, 0)
    assert [e.name for e in examples] == [p.name for p in problems.training[:3]]
    for example in examples:
        assert example.goal <= example.states[-1] and not example.goal <= example.init
        assert len(example.walk) == len(example.states) - 1 >= 3


@pytest.mark.parametrize(
    "forged",
    [
        {"category": "no-such-category"},
        {"category": "goal-soundness", "state": 5},
        "not a report",
    ],
    ids=["unknown category", "evidence of the wrong shape", "no report"],
)
def test_a_forged_harness_report_is_feedback_never_a_traceback(
    heavy_examples: list[ExampleProblem], forged: Any
) -> None:
    forged_once = [True]

    def runner(source: str, harness: str, args: list[Any], timeout: float) -> HarnessOutcome:
        if forged_once and harness.endswith(":goal_tests"):
            forged_once.clear()
            return HarnessOutcome("success", {"passed": False, "failure": forged}, 0.01)
        return run_in_process(source, harness, args, timeout)

    model = FakeLanguageModel([fenced(HEAVY), fenced(GOAL), fenced(GOAL)])
    domain = heavy_examples[0].problem.domain.to_pddl()
    result = run_protocol(model, domain, heavy_examples, AutoToSSettings(), runner)
    assert result.outcome == "passed"
    assert [e.category.value for e in result.events] == ["goal-exception"]
    assert "malformed report" in result.events[0].message
