"""The error boundary of running a model's program (issue 23): an error genplan raises while it
runs a program or checks its plan, anticipated or not, is feedback for the model, never a
traceback that ends the run."""

from __future__ import annotations

from typing import Any

import pytest
from fake_programs import CORRECT, fenced, heavy_problem, training_problems

import genplan.approaches.generalized_plan.checking as checking
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings, synthesize
from genplan.llm import FakeLanguageModel
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.plans.failures import FailureKind
from genplan.plans.untrusted_text import BLOCK_CAP
from genplan.sandbox import IsolationUnavailable, Limits, RunStatus

TRIGGER = "(trigger-the-checker)"
TRIGGERS = f"""
def get_plan(objects, init, goal):
    return ["{TRIGGER}"]
"""
"""A program whose plan reaches a (simulated) bug in genplan's plan checker."""

HOSTILE_MESSAGE = "\x1b[2J\x1b[Hchecker broke " + "x" * 50_000


@pytest.fixture
def checker_with_a_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan checker raises an error nobody anticipated for the plan of :data:`TRIGGERS`."""
    real = checking.check_plan

    def buggy(problem: Any, plan: Any, **options: Any) -> Any:
        if plan == [TRIGGER]:
            raise KeyError(HOSTILE_MESSAGE)
        return real(problem, plan, **options)

    monkeypatch.setattr(checking, "check_plan", buggy)


def test_an_internal_error_is_a_python_exception_with_a_capped_escaped_message(
    checker_with_a_bug: None,
) -> None:
    problem = heavy_problem("train-0", 3)
    check = checking.check_program(TRIGGERS, problem, timeout=5, limits=Limits())
    assert check.failure is FailureKind.PYTHON_EXCEPTION and not check.solved
    assert check.outcome.status is RunStatus.RAISED
    message = check.to_json()["message"]
    assert "KeyError" in message and "checker broke" in message
    assert "\x1b" not in message and "\\x1b[2J" in message
    assert len(message) < BLOCK_CAP + 200 and "characters cut" in message
    feedback = checking.feedback_for(check, problem)
    assert "KeyError" in feedback and "\x1b" not in feedback and len(feedback) < 20_000


def test_an_error_of_the_sandbox_itself_is_feedback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the worker answered something genplan did not expect")

    monkeypatch.setattr(checking, "run_program", broken)
    check = checking.check_program(CORRECT, heavy_problem("train-0", 3), timeout=5, limits=Limits())
    assert check.failure is FailureKind.PYTHON_EXCEPTION
    assert "RuntimeError: the worker answered" in (check.outcome.traceback or "")


def test_a_sandbox_that_cannot_start_still_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable(*args: Any, **kwargs: Any) -> Any:
        raise IsolationUnavailable("bubblewrap cannot start here; use --isolation none")

    monkeypatch.setattr(checking, "run_program", unavailable)
    with pytest.raises(IsolationUnavailable):
        checking.check_program(CORRECT, heavy_problem("train-0", 3), timeout=5, limits=Limits())


def test_synthesis_goes_on_after_an_internal_error(checker_with_a_bug: None) -> None:
    opening = ["The domain is about packing items.", "Pack the heaviest item first."]
    model = FakeLanguageModel([*opening, fenced(TRIGGERS), fenced(CORRECT)])
    domain = load_domain(builtin_domain_file("heavy")).to_pddl()
    result = synthesize(model, domain, training_problems(), SynthesisSettings(timeout=5.0), limits=Limits())
    assert [r.failure for r in result.rounds] == [FailureKind.PYTHON_EXCEPTION, None]
    assert result.solved_training
    feedback = model.history[3][-1].content
    assert "KeyError" in feedback and "\x1b" not in feedback
