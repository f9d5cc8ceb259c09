"""The synthesis loop driven by a scripted fake model through every feedback path (Sec. 4.2)."""

from __future__ import annotations

import pytest
from fake_programs import (
    BAD_ACTIONS,
    CORRECT,
    HELPER_DEFINED,
    INVALID_PLAN,
    LOOPS,
    ONLY_SMALL,
    RAISES,
    USES_EARLIER_HELPER,
    fenced,
    training_problems,
)

from genplan.approaches.generalized_plan.synthesize import SynthesisSettings, synthesize
from genplan.llm import FakeLanguageModel
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.plans.failures import FailureKind
from genplan.sandbox import Limits

COT_OPENING = [
    "The domain is about packing items into a box.",
    "Pack the heaviest item first, then the next heaviest.",
]
DOMAIN_PDDL = load_domain(builtin_domain_file("heavy")).to_pddl()
FAST = SynthesisSettings(timeout=2.0)


def run(answers: list[str], settings: SynthesisSettings = FAST):
    model = FakeLanguageModel(answers)
    result = synthesize(model, DOMAIN_PDDL, training_problems(), settings, limits=Limits())
    return model, result


def sent_feedback(model: FakeLanguageModel, index: int) -> str:
    """The user message that opened exchange ``index`` of the fake model's history."""
    return model.history[index][-1].content


def test_a_correct_first_program_needs_no_feedback() -> None:
    model, result = run([*COT_OPENING, fenced(CORRECT)])
    assert len(model.history) == 3
    assert result.solved_training and result.feedback_rounds_used == 0
    assert "Write a short summary of this domain in words." in sent_feedback(model, 0)
    assert "What is that strategy?" in sent_feedback(model, 1)
    assert "def get_plan(objects, init, goal):" in sent_feedback(model, 2)


def test_exception_feedback_shows_traceback_and_task() -> None:
    model, result = run([*COT_OPENING, fenced(RAISES), fenced(CORRECT)])
    assert [r.failure for r in result.rounds] == [FailureKind.PYTHON_EXCEPTION, None]
    feedback = sent_feedback(model, 3)
    assert feedback.startswith("Given this task: (define (problem train-0)")
    assert "IndexError" in feedback and "<file-name-omitted>" in feedback
    assert 'heaviest = [atom[3] for atom in init if atom[0] == "heavier"]' in feedback
    assert feedback.endswith("Fix the code.")


def test_timeout_feedback_has_the_note_and_where_it_was_interrupted() -> None:
    model, result = run([*COT_OPENING, fenced(LOOPS), fenced(CORRECT)])
    assert result.rounds[0].failure is FailureKind.TIMEOUT
    feedback = sent_feedback(model, 3)
    assert "The code was interrupted because it timed out (possible infinite loop)." in feedback
    assert "KeyboardInterrupt" in feedback and "line " in feedback


def test_badly_formed_actions_get_syntax_feedback_with_valid_operators() -> None:
    model, result = run([*COT_OPENING, fenced(BAD_ACTIONS), fenced(CORRECT)])
    assert result.rounds[0].failure is FailureKind.PLAN_SYNTAX
    feedback = sent_feedback(model, 3)
    assert "The code returned this plan:\n['pack-first o0']" in feedback
    assert "is invalid at step 1" in feedback
    assert "NOTE: the valid operators are: (pack-first ?item) (stack ?bottom ?top)." in feedback


def test_invalid_plan_gets_val_advice() -> None:
    model, result = run([*COT_OPENING, fenced(INVALID_PLAN), fenced(CORRECT)])
    assert result.rounds[0].failure is FailureKind.PLAN_SEMANTICS
    feedback = sent_feedback(model, 3)
    assert "The code failed. It returned the following plan:" in feedback
    assert "unsatisfied precondition" in feedback
    assert "(Set (heavier" in feedback


def test_fixed_after_two_rounds() -> None:
    _, result = run([*COT_OPENING, fenced(RAISES), fenced(ONLY_SMALL), fenced(CORRECT)])
    assert [r.failure for r in result.rounds] == [
        FailureKind.PYTHON_EXCEPTION,
        FailureKind.PYTHON_EXCEPTION,
        None,
    ]
    assert result.rounds[1].passed == 1 and result.rounds[1].failed_problem == "train-1"
    assert result.feedback_rounds_used == 2 and result.solved_training
    assert result.training_problems_used == ["train-0", "train-1"]


def test_never_fixed_stops_after_four_rounds_and_keeps_the_last_program() -> None:
    model, result = run([*COT_OPENING] + [fenced(RAISES)] * 4 + [fenced(INVALID_PLAN)])
    assert len(result.rounds) == 5 and result.feedback_rounds_used == 4
    assert not result.solved_training
    assert result.rounds[-1].failure is FailureKind.PLAN_SEMANTICS
    assert result.program.rstrip().endswith(INVALID_PLAN.strip().splitlines()[-1].strip())
    assert len(model.history) == 3 + 4  # no fifth feedback message


def test_an_answer_without_code_gets_feedback_not_a_crash() -> None:
    model, result = run([*COT_OPENING, "I would pack the heaviest item first.", fenced(CORRECT)])
    assert result.rounds[0].failure is FailureKind.NO_CODE
    assert "did not contain any Python code" in sent_feedback(model, 3)
    assert result.solved_training


def test_helpers_from_earlier_answers_stay_defined() -> None:
    _, result = run([*COT_OPENING, fenced(HELPER_DEFINED), fenced(USES_EARLIER_HELPER)])
    assert result.solved_training
    assert "def order_by_weight" in result.program and result.program.count("def get_plan") == 2


def test_no_cot_merges_the_prompts() -> None:
    settings = SynthesisSettings(chain_of_thought=False, timeout=2.0)
    model, result = run([fenced(CORRECT)], settings)
    assert len(model.history) == 1 and result.solved_training
    first = sent_feedback(model, 0)
    assert "Write a short summary" not in first and "What is that strategy?" not in first
    assert "without using search" in first and "def get_plan(objects, init, goal):" in first


def test_no_debug_uses_the_first_program() -> None:
    settings = SynthesisSettings(debugging=False, timeout=2.0)
    model, result = run([*COT_OPENING, fenced(RAISES)], settings)
    assert len(model.history) == 3
    assert result.rounds[0].failure is FailureKind.PYTHON_EXCEPTION and not result.solved_training
    assert "atom[3]" in result.program


def test_the_fake_model_running_out_is_an_error() -> None:
    from genplan.llm import LLMError

    with pytest.raises(LLMError):
        run([*COT_OPENING])


def test_output_that_is_not_a_list_of_strings_gets_syntax_feedback() -> None:
    wrong = "def get_plan(objects, init, goal):\n    return {'plan': sorted(objects)}\n"
    model, result = run([*COT_OPENING, fenced(wrong), fenced(CORRECT)])
    assert result.rounds[0].failure is FailureKind.PLAN_SYNTAX
    feedback = sent_feedback(model, 3)
    assert "The code returned this plan:\n{'plan': ['o0', 'o1', 'o2']}" in feedback
    assert "However, the plan must be a list of strings, got dict. NOTE: the valid operators are:" in feedback


class _CountlessModel:
    """A model that, like the files backend, answers without token counts."""

    name = "countless"

    def complete(self, messages, *, sample=0):
        from genplan.llm.base import Completion, Usage

        return Completion("answer", Usage(None, None), "countless")


def test_token_totals_are_unknown_once_an_answer_has_no_counts() -> None:
    from genplan.approaches.generalized_plan.synthesize import Conversation

    counted = Conversation(FakeLanguageModel(["one two", "three"]))
    counted.ask("a b c")
    counted.ask("d")
    assert counted.prompt_tokens is not None and counted.prompt_tokens > 0
    assert counted.completion_tokens == 3

    countless = Conversation(_CountlessModel())
    countless.ask("a b c")
    assert countless.prompt_tokens is None and countless.completion_tokens is None
