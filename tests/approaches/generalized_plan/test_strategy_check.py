"""The strategy check before code, and reflection before repair, driven by the fake model."""

from __future__ import annotations

import pytest
from fake_programs import CORRECT, RAISES, fenced, training_problems

from genplan.approaches.generalized_plan.refinement_prompts import REFLECT_AND_FIX
from genplan.approaches.generalized_plan.strategy import checked_problem, extract_plan
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings, synthesize
from genplan.errors import ConfigurationError
from genplan.llm import FakeLanguageModel
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.plans.failures import FailureKind
from genplan.sandbox import Limits

OPENING = ["A packing domain.", "Pack the lightest item first, then heavier ones on top."]
DOMAIN_PDDL = load_domain(builtin_domain_file("heavy")).to_pddl()
CHECK = SynthesisSettings(check_strategy=True, timeout=5.0)
# train-1 (4 items, o0 the heaviest) is the larger prompt problem, so the one followed by hand.
WRONG_PLAN = (
    "Following the strategy:\n```plan\n(pack-first o3)\n(stack o3 o2)\n(stack o2 o1)\n(stack o1 o0)\n```"
)
RIGHT_PLAN = (
    "Revised strategy: pack the heaviest item first, then each next heaviest on top.\n"
    "```plan\n1. (pack-first o0)\n2. (stack o0 o1)\n3. (stack o1 o2)\n4. (stack o2 o3)\n```"
)


@pytest.mark.parametrize(
    "answer, plan",
    [
        ("```plan\n(a x)\n(b x y)\n```", ["(a x)", "(b x y)"]),
        ("Steps:\n1. (a  x) ; first\n2. `(b x y)`", ["(a x)", "(b x y)"]),
        ("```\n(old x)\n```\nthen\n```plan\n(new x)\n```", ["(new x)"]),
        ("```python\nprint(1)\n```\n```\n(a x)\n```", ["(a x)"]),
        ("I cannot follow it.", None),
    ],
)
def test_the_plan_is_read_from_the_answer(answer: str, plan: list[str] | None) -> None:
    assert extract_plan(answer) == plan


def test_the_larger_prompt_problem_is_followed() -> None:
    assert checked_problem(training_problems()[:2]).name == "train-1"


def test_a_strategy_whose_plan_val_rejects_is_revised_before_any_code() -> None:
    model = FakeLanguageModel([*OPENING, WRONG_PLAN, RIGHT_PLAN, fenced(CORRECT)])
    result = synthesize(model, DOMAIN_PDDL, training_problems(), CHECK, limits=Limits())
    assert [(c.valid, c.failure) for c in result.strategy_checks] == [
        (False, FailureKind.PLAN_SEMANTICS),
        (True, None),
    ]
    request = model.history[2][-1].content
    assert request.startswith("Before writing any code, check the strategy by hand on this problem")
    assert "(define (problem train-1)" in request and "(heavier o0 o3)" in request  # shown in full
    assert "```plan" in request and "Write no Python code yet." in request
    revision = model.history[3][-1].content
    assert revision.startswith("That plan is not valid.") and "Revise the strategy" in revision
    assert "unsatisfied precondition" in revision or "Set (" in revision  # VAL's advice
    assert "Implement the strategy as a Python function." in model.history[4][-1].content
    assert result.solved_training and result.strategy_feedback == 1 and result.exchanges == 5


def test_a_valid_plan_goes_straight_to_the_code() -> None:
    model = FakeLanguageModel([*OPENING, RIGHT_PLAN, fenced(CORRECT)])
    result = synthesize(model, DOMAIN_PDDL, training_problems(), CHECK, limits=Limits())
    assert [c.valid for c in result.strategy_checks] == [True] and len(model.history) == 4


def test_an_answer_without_a_plan_is_asked_again_and_revisions_run_out() -> None:
    settings = SynthesisSettings(check_strategy=True, strategy_rounds=1, timeout=5.0)
    model = FakeLanguageModel([*OPENING, "I would pack them.", WRONG_PLAN, fenced(CORRECT)])
    result = synthesize(model, DOMAIN_PDDL, training_problems(), settings, limits=Limits())
    assert [(c.plan_length, c.valid) for c in result.strategy_checks] == [(None, False), (4, False)]
    assert "The answer did not contain a plan." in model.history[3][-1].content
    assert "Implement the strategy" in model.history[4][-1].content  # out of revisions: code anyway
    assert result.solved_training


def test_a_strategy_check_needs_the_strategy_step() -> None:
    with pytest.raises(ValueError, match="chain_of_thought"):
        SynthesisSettings(check_strategy=True, chain_of_thought=False)
    from genplan.cli.synthesize import build_parser_for_tests, request_from

    args = build_parser_for_tests().parse_args(["--domain", "heavy", "--no-cot", "--check-strategy"])
    with pytest.raises(ConfigurationError, match="check_strategy needs chain_of_thought"):
        request_from(args)


def test_reflection_asks_why_before_the_fix_and_keeps_the_explanation() -> None:
    explained = "The code indexed atom[3], but heavier atoms have three parts.\n\n" + fenced(
        CORRECT, prose=""
    )
    model = FakeLanguageModel(["Summary.", "Strategy.", fenced(RAISES), explained])
    result = synthesize(
        model, DOMAIN_PDDL, training_problems(), SynthesisSettings(reflect=True, timeout=5.0), limits=Limits()
    )
    feedback = model.history[3][-1].content
    assert "IndexError" in feedback and feedback.endswith(REFLECT_AND_FIX)
    assert "Fix the code." not in feedback
    assert result.rounds[1].reflection == "The code indexed atom[3], but heavier atoms have three parts."
    assert result.rounds[0].reflection is None and result.solved_training
    assert "reflection" in result.rounds[1].to_json() and "reflection" not in result.rounds[0].to_json()


def test_without_reflection_the_papers_feedback_is_sent() -> None:
    model = FakeLanguageModel(["Summary.", "Strategy.", fenced(RAISES), fenced(CORRECT)])
    result = synthesize(
        model, DOMAIN_PDDL, training_problems(), SynthesisSettings(timeout=5.0), limits=Limits()
    )
    assert model.history[3][-1].content.endswith("\nFix the code.")
    assert result.rounds[1].reflection is None
