"""The robustness check: an order-sensitive program is caught on shuffled orders and hash seeds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fake_programs import CORRECT, fenced, heavy_problem, order_sensitive, training_problems
from synthesis_runs import run_synthesis

from genplan.approaches.base import RunContext
from genplan.approaches.generalized_plan import robustness
from genplan.approaches.generalized_plan.evaluate import evaluate_program
from genplan.approaches.generalized_plan.robustness import evaluate_shuffled, shuffled_limits
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings
from genplan.llm import FakeLanguageModel
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem_sets import DomainProblems
from genplan.sandbox import Limits, run_program

EVALUATION = [heavy_problem("eval-0", 12), heavy_problem("eval-1", 16)]
FIRST = "def get_plan(objects, init, goal):\n    return [next(iter(objects))]\n"


def _first_objects() -> list[str]:
    """The object each evaluation problem's ``objects`` yields first in the usual order."""
    firsts = []
    for problem in EVALUATION:
        outcome = run_program(FIRST, problem.objects, problem.init, problem.goal, timeout=5)
        assert outcome.plan is not None
        firsts.append(outcome.plan[0])
    return firsts


def _sensitive() -> str:
    """Correct on both evaluation problems in the usual order, and only in it."""
    first = _first_objects()
    return order_sensitive(first[0]).replace(
        f"next(iter(objects)) != {first[0]!r}", f"next(iter(objects)) not in {tuple(first)!r}"
    )


def test_shuffled_runs_use_other_hash_seeds() -> None:
    assert (
        shuffled_limits(Limits(), 3).hash_seed == 3 and shuffled_limits(Limits(hash_seed=5), 1).hash_seed == 6
    )
    assert shuffled_limits(Limits(), 2).isolation is Limits().isolation


def test_an_order_sensitive_program_is_caught() -> None:
    program = _sensitive()
    usual = evaluate_program(program, EVALUATION, timeout=5, workers=2, limits=Limits())
    assert all(check.solved for check in usual)  # in the usual order it looks correct
    checks = evaluate_shuffled(program, EVALUATION, 4, timeout=5, workers=2, limits=Limits())
    assert all(check.base.solved for check in checks)
    assert all(check.order_sensitive and not check.solved for check in checks)
    failed = [check.shuffled[check.first_failed_run - 1] for check in checks]  # type: ignore[operator]
    assert {c.failure.value for c in failed} == {"plan-semantics"}  # type: ignore[union-attr]


def test_each_shuffled_run_builds_the_sets_in_its_own_order(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int, int | None]] = []
    real = robustness.check_program

    def recording(program: str, problem: Any, **kwargs: Any) -> Any:
        calls.append((problem.name, kwargs["limits"].hash_seed, kwargs["order_seed"]))
        return real(program, problem, **kwargs)

    monkeypatch.setattr(robustness, "check_program", recording)
    evaluate_shuffled(CORRECT, EVALUATION[:1], 3, timeout=5, workers=1, limits=Limits(hash_seed=7))
    assert sorted(calls, key=lambda call: call[1]) == [
        ("eval-0", 7, None),  # the usual order: sorted, the run's hash seed
        ("eval-0", 8, 1),
        ("eval-0", 9, 2),
        ("eval-0", 10, 3),
    ]


def test_an_order_independent_program_passes_every_order() -> None:
    checks = evaluate_shuffled(CORRECT, EVALUATION, 3, timeout=5, workers=2, limits=Limits())
    assert all(check.solved and not check.order_sensitive for check in checks)
    assert [len(check.shuffled) for check in checks] == [3, 3] and checks[0].hash_seeds == (1, 2, 3)


def test_a_run_with_shuffles_reports_the_program_as_order_sensitive(tmp_path: Path) -> None:
    problems = DomainProblems(
        "heavy", load_domain(builtin_domain_file("heavy")), tuple(training_problems()), tuple(EVALUATION)
    )
    sensitive = _sensitive()
    train_firsts = [
        run_program(FIRST, p.objects, p.init, p.goal, timeout=5).plan[0]  # type: ignore[index]
        for p in training_problems()
    ]
    program = sensitive.replace("not in (", f"not in {tuple(train_firsts)!r} + (")
    model = FakeLanguageModel(["Summary.", "Strategy.", fenced(program)])
    report = run_synthesis(
        problems,
        model,
        SynthesisSettings(shuffles=3, timeout=5.0),
        RunContext(folder=tmp_path / "run", eval_timeout=5.0, workers=2),
    )
    record = report.record
    assert (
        record.label == "timeout-5+shuffles3"
        and record.details["training_outcome"] == "solved all training problems"
    )
    assert record.solved == 0 and record.details["order_sensitive"] is True
    assert record.details["order_sensitive_problems"] == 2
    first = record.problems[0]
    assert first.status == "plan-semantics" and first.details["order_sensitive"] is True
    assert first.message is not None and first.message.startswith("with objects and atoms shuffled (run ")
    assert len(first.details["shuffled"]) == 3 and "plan-semantics" in first.details["shuffled"]
