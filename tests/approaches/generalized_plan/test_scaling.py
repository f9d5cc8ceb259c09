"""Scaling feedback: fit, projection, profiling in the sandbox, and the feedback loop with the fake model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_programs import CORRECT, CUBIC, CUBIC_HOT_LINE, fenced, heavy_problem
from synthesis_runs import run_synthesis

from genplan.approaches.base import RunContext
from genplan.approaches.generalized_plan import scaling
from genplan.approaches.generalized_plan.scaling import (
    Measurement,
    ProblemSize,
    ScalingTarget,
    best_growth,
    check_scaling,
    fit_and_project,
    fit_growth,
    project,
)
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings, synthesize
from genplan.llm import FakeLanguageModel
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems
from genplan.plans.failures import FailureKind
from genplan.runs.observations import Observations
from genplan.sandbox import Limits, run_untrusted

OPENING = ["A packing domain.", "Pack the heaviest item first, then the next heaviest."]
TRAINING = [heavy_problem(f"train-{n:02d}", n) for n in (3, 4, 5, 6, 8, 10, 12)]
FAR = ScalingTarget(ProblemSize(2000, 2_001_001), 10.0)
"""2000 items (heavy's initial atoms grow as n^2 / 2): the cubic program needs many minutes there."""
DOMAIN_PDDL = load_domain(builtin_domain_file("heavy")).to_pddl()
SCALING = SynthesisSettings(scaling_feedback=True, timeout=10.0)


def _measurements(exponent: float) -> list[Measurement]:
    return [
        Measurement(f"p{n}", ProblemSize(n, n * n), 1e-3 * n**exponent, 100 * n**3) for n in (2, 4, 8, 16, 32)
    ]


@pytest.mark.parametrize("exponent", [0.0, 1.0, 2.0, 3.0])
def test_a_power_law_is_fitted_and_projected_from_the_largest_problem(exponent: float) -> None:
    growth = fit_growth(_measurements(exponent), "time", "objects")
    assert growth is not None and growth.exponent == pytest.approx(exponent)
    projected = project(_measurements(exponent), growth, ProblemSize(320, 0))
    assert projected == pytest.approx(1e-3 * 320**exponent)
    by_initial_atoms = fit_growth(_measurements(exponent), "time", "init_atoms")
    assert by_initial_atoms is not None and by_initial_atoms.exponent == pytest.approx(exponent / 2)


def test_time_follows_the_work_where_the_work_grows_faster() -> None:
    work = fit_growth(_measurements(1.0), "work", "objects")
    assert work is not None and work.exponent == pytest.approx(3.0)
    assert project(_measurements(1.0), work, ProblemSize(320, 0)) == pytest.approx(32e-3 * 10**3)


def test_the_growth_is_fitted_where_fixed_costs_no_longer_hide_it() -> None:
    sizes = (2, 3, 4, 6, 8, 16, 24, 32)
    measurements = [Measurement(f"p{n}", ProblemSize(n, n), 5e-3 + 1e-4 * n**3) for n in sizes]
    everything = [(float(m.size.objects), m.seconds) for m in measurements]
    from genplan.approaches.generalized_plan.scaling import fit_power

    assert fit_power(everything)[0] < 2.5  # type: ignore[index]
    assert best_growth(measurements, "time").exponent > 2.9  # type: ignore[union-attr]


def test_only_the_larger_half_of_the_training_problems_is_measured() -> None:
    from genplan.approaches.generalized_plan.scaling import problems_to_measure

    assert [p.name for p in problems_to_measure(TRAINING)] == ["train-06", "train-08", "train-10", "train-12"]
    assert [p.name for p in problems_to_measure(TRAINING[:3])] == ["train-03", "train-04", "train-05"]


def test_no_growth_is_fitted_from_one_size() -> None:
    measurements = [Measurement("a", ProblemSize(5, 9), 0.1), Measurement("b", ProblemSize(5, 9), 0.2)]
    assert best_growth(measurements, "time") is None


def test_the_profile_counts_lines_of_the_program_in_the_sandbox() -> None:
    problem = heavy_problem("p", 6)
    from genplan.sandbox import program_arguments

    call = run_untrusted(
        CUBIC,
        "genplan.approaches.generalized_plan.profiling:profile_get_plan",
        [*program_arguments(problem.objects, problem.init, problem.goal), 1_000_000],
        timeout=10,
    )
    assert call.value is not None, call
    lines = call.value["lines"]
    hot = CUBIC.splitlines().index(f"                {CUBIC_HOT_LINE}") + 1
    assert lines[0][0] in (hot - 1, hot)  # the innermost loop header or its test, 6^3 times
    assert dict(map(tuple, lines))[hot] == 6**3 and call.value["complete"] is True


def test_the_profile_stops_counting_at_its_cap() -> None:
    problem = heavy_problem("p", 10)
    from genplan.sandbox import program_arguments

    call = run_untrusted(
        CUBIC,
        "genplan.approaches.generalized_plan.profiling:profile_get_plan",
        [*program_arguments(problem.objects, problem.init, problem.goal), 500],
        timeout=10,
    )
    assert call.value is not None and call.value["events"] == 500 and call.value["complete"] is False


def test_a_cubic_program_is_too_slow_for_the_largest_problem_and_a_linear_one_is_not() -> None:
    cubic = check_scaling(CUBIC, TRAINING, FAR, timeout=10.0, limits=Limits())
    linear = check_scaling(CORRECT, TRAINING, FAR, timeout=10.0, limits=Limits())
    assert cubic.too_slow and not linear.too_slow, (cubic.to_json(), linear.to_json())
    assert cubic.growth is not None and cubic.growth.exponent > 1.4  # in initial atoms (n^2 / 2): n^2.8+
    assert linear.projected_seconds is not None and linear.projected_seconds < 1.0
    assert cubic.profiled_problem == "train-12"
    hot = CUBIC.splitlines().index(f"                {CUBIC_HOT_LINE}") + 1
    assert (hot, 12**3) in cubic.hot_lines
    assert all(m.work is not None for m in cubic.measurements)


def test_a_cubic_program_gets_scaling_feedback_and_the_repair_does_not() -> None:
    model = FakeLanguageModel([*OPENING, fenced(CUBIC), fenced(CORRECT)])
    result = synthesize(model, DOMAIN_PDDL, TRAINING, SCALING, scaling_target=FAR, limits=Limits())
    assert [r.failure for r in result.rounds] == [FailureKind.SCALING, None]
    feedback = model.history[3][-1].content
    assert feedback.startswith("The code solved every training problem, but it is too slow")
    assert "train-12: 12 objects, 79 initial atoms:" in feedback
    assert "The largest problem to solve has 2000 objects and 2001001 initial atoms" in feedback
    assert "over the 10 s limit" in feedback and CUBIC_HOT_LINE in feedback
    assert feedback.endswith("Fix the code.")
    assert result.rounds[1].scaling is not None and result.rounds[1].scaling["too_slow"] is False
    assert result.feedback_kinds == ["scaling"]


def _noisy_microseconds(program: str, problem: Problem, timeout: float, limits: object) -> dict[str, object]:
    """Timings as a loaded machine gives them for a program of a few microseconds: the largest
    problem's call was held up (20 times as long), which made a linear program fit as cubic."""
    seconds = 4e-5 if len(problem.objects) >= 12 else 2e-6 + 1e-7 * len(problem.objects)
    return {"seconds": seconds, "status": "success"}


def test_a_linear_program_gets_no_scaling_feedback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scaling, "_measure_time", _noisy_microseconds)  # deterministic, and noisy
    model = FakeLanguageModel([*OPENING, fenced(CORRECT)])
    result = synthesize(model, DOMAIN_PDDL, TRAINING, SCALING, scaling_target=FAR, limits=Limits())
    assert len(model.history) == 3 and [r.failure for r in result.rounds] == [None]
    verdict = result.rounds[0].scaling
    assert verdict is not None and verdict["projected_seconds"] < 1.0
    assert verdict["basis"] == "work" and [fit["basis"] for fit in verdict["fits"]] == ["work"]


def test_times_below_the_floor_are_not_fitted_the_work_is() -> None:
    sizes = (6, 8, 10, 12)
    noisy = [Measurement(f"p{n}", ProblemSize(n, n * n), 2e-6 if n < 12 else 4e-5, 50 * n) for n in sizes]
    assert fit_growth(noisy, "time", "objects") is None  # every time is below the floor
    verdict = fit_and_project(noisy, FAR)
    assert verdict.growth is not None and verdict.growth.basis == "work"
    assert verdict.growth.exponent == pytest.approx(1.0) and not verdict.too_slow
    unmeasured = [Measurement(m.problem, m.size, m.seconds) for m in noisy]  # no work counted either
    assert (
        fit_and_project(unmeasured, FAR).note
        == "times below 1 ms are not fitted and the work was not counted"
    )
    slow = [Measurement(m.problem, m.size, 1e-3 * m.size.objects**3) for m in noisy]  # above it: fitted
    assert best_growth(slow, "time").exponent == pytest.approx(3.0)  # type: ignore[union-attr]


def test_without_the_setting_a_cubic_program_passes_training() -> None:
    model = FakeLanguageModel([*OPENING, fenced(CUBIC)])
    result = synthesize(
        model, DOMAIN_PDDL, TRAINING, SynthesisSettings(timeout=10.0), scaling_target=FAR, limits=Limits()
    )
    assert [r.failure for r in result.rounds] == [None] and result.rounds[0].scaling is None


def test_recorded_measurements_are_reused_so_the_feedback_repeats(tmp_path: Path) -> None:
    first = Observations(tmp_path / "a" / "observations.json")
    verdict = check_scaling(CUBIC, TRAINING, FAR, timeout=10.0, limits=Limits(), observations=first)
    recorded = json.loads((tmp_path / "a" / "observations.json").read_text())
    for key, value in recorded.items():  # the replayed run measured ten times slower
        if key.startswith("time/"):
            value["seconds"] *= 10
    (tmp_path / "a" / "observations.json").write_text(json.dumps(recorded))
    again = Observations(tmp_path / "b" / "observations.json", [tmp_path / "a" / "observations.json"])
    replayed = check_scaling(CUBIC, TRAINING, FAR, timeout=10.0, limits=Limits(), observations=again)
    assert again.reused == 2 * 4  # the timing and the profile of each of the larger half (6 to 12 items)
    assert [m.seconds for m in replayed.measurements] == pytest.approx(
        [10 * m.seconds for m in verdict.measurements]
    )
    assert replayed.projected_seconds == pytest.approx(10 * verdict.projected_seconds)  # type: ignore[operator]
    assert json.loads((tmp_path / "b" / "observations.json").read_text()) == recorded


@pytest.mark.slow
def test_a_run_records_the_scaling_feedback_and_counts_it_as_its_own_kind(tmp_path: Path) -> None:
    problems = DomainProblems(
        "heavy",
        load_domain(builtin_domain_file("heavy")),
        tuple(TRAINING),
        (heavy_problem("eval-0", 600),),
    )
    model = FakeLanguageModel([*OPENING, fenced(CUBIC), fenced(CORRECT)])
    settings = SynthesisSettings(scaling_feedback=True, timeout=10.0)
    report = run_synthesis(  # 600 items: the cubic program needs about a minute, the repair milliseconds
        problems, model, settings, RunContext(folder=tmp_path / "run", eval_timeout=2.0, workers=1)
    )
    record = report.record
    assert record.label == "timeout-10+scaling" and record.feedback == {"scaling": 1}
    assert record.details["feedback_kinds"] == ["scaling"] and record.solved == 1
    rounds = json.loads((tmp_path / "run" / "training.json").read_text())
    assert rounds[0]["failure"] == "scaling" and rounds[0]["scaling"]["target"]["objects"] == 600
    assert "observations.json" in record.artifacts
