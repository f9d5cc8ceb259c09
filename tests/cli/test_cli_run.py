"""``genplan run --approach NAME``: any registered approach from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_programs import CORRECT, fenced
from synthesis_runs import run_synthesis

from genplan.approaches.base import RunContext
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings
from genplan.cli import main
from genplan.llm import FakeLanguageModel
from genplan.pddl.problem_sets import load_domain_problems


@pytest.fixture(scope="module")
def recorded_heavy_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A heavy run with feedback rounds capped at 2, recorded with the fake model (one repair)."""
    work = tmp_path_factory.mktemp("recorded")
    problems = load_domain_problems("heavy", 0, 2, work, size_check=False)
    model = FakeLanguageModel(
        ["Packing.", "Heaviest first.", fenced("def get_plan(objects, init, goal):\n    return []\n")]
    )
    model.enqueue(fenced(CORRECT))
    run_synthesis(
        problems,
        model,
        SynthesisSettings(feedback_rounds=2),
        RunContext(folder=work / "run", model_name="fake", backend_name="fake", eval_timeout=30.0),
    )
    return work / "run"


def test_the_approach_settings_are_flags(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--approach", "generalized-plan", "--help"])
    shown = capsys.readouterr().out
    for flag in ("--feedback-rounds", "--no-names", "--chain-of-thought", "--prompt-problems"):
        assert flag in shown


def test_a_bad_setting_value_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["run", "--approach", "generalized-plan", "--domain", "gripper", "--feedback-rounds", "two"])
    assert stopped.value.code == 2
    assert "--feedback-rounds" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--approach", "react", "--budget", "abc"], "argument --budget: must be an integer, got 'abc'"),
        (["--approach", "react", "--budget", "2.5"], "argument --budget: must be an integer, got '2.5'"),
    ],
)
def test_a_setting_that_is_not_a_number_says_so_in_plain_words(
    flags: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27 item 11: not Python's `invalid literal for int() with base 10`."""
    with pytest.raises(SystemExit) as stopped:
        main(["run", *flags, "--domain", "blocksworld"])
    assert stopped.value.code == 2 and expected in capsys.readouterr().err


def test_run_replays_a_recording_with_the_settings_it_was_made_with(
    recorded_heavy_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "run",
            "--approach",
            "generalized-plan",
            "--domain",
            "heavy",
            "--no-size-check",
            "--feedback-rounds",
            "2",
            "--n",
            "2",
            "--llm",
            f"replay:{recorded_heavy_run / 'conversation.jsonl'}",
            "--model",
            "fake",
            "--runs-dir",
            str(tmp_path),
        ]
    )
    assert code == 0
    shown = capsys.readouterr().out
    assert "approach generalized-plan (feedback-rounds-2)" in shown
    assert "LLM calls: 4" in shown
    metadata = json.loads((tmp_path / "heavy" / "feedback-rounds-2-seed0" / "metadata.json").read_text())
    assert metadata["settings"]["feedback_rounds"] == 2
    assert [
        r["problem"]
        for r in json.loads((tmp_path / "heavy" / "feedback-rounds-2-seed0" / "results.json").read_text())
    ] == [
        "eval/eval-00.pddl",
        "eval/eval-01.pddl",
    ]


def test_run_scores_against_a_reference_file_and_keeps_its_plans(
    recorded_heavy_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    references = tmp_path / "upper_bounds.json"
    keys = ["eval/eval-00.pddl", "eval/eval-01.pddl"]
    references.write_text(json.dumps({f"heavy/{key}": 5 for key in keys}))
    arguments = ["run", "--approach", "generalized-plan", "--domain", "heavy", "--no-size-check"]
    arguments += ["--feedback-rounds", "2", "--n", "2", "--model", "fake", "--runs-dir", str(tmp_path)]
    arguments += ["--llm", f"replay:{recorded_heavy_run / 'conversation.jsonl'}"]
    missing = tmp_path / "missing.json"
    missing.write_text(json.dumps({keys[0]: 5}))
    assert main([*arguments, "--references", str(missing)]) == 2
    assert f"{missing}: no reference cost for eval/eval-01.pddl" in capsys.readouterr().err
    assert main([*arguments, "--references", str(references)]) == 0
    shown = capsys.readouterr().out
    folder = tmp_path / "heavy" / "feedback-rounds-2-seed0"
    results = json.loads((folder / "results.json").read_text())
    metadata = json.loads((folder / "metadata.json").read_text())
    costs = [r["plan_cost"] for r in results]
    assert all(cost > 5 for cost in costs) and costs == [r["plan_length"] for r in results]
    scores = metadata["scores"]
    assert scores["quality"]["all"] == pytest.approx(sum(5 / c for c in costs), abs=1e-4)
    assert scores["references"] == f"file {references}" and scores["time_limit_seconds"] == 30.0
    assert f"Scores: quality {scores['quality']['all']:.2f}/2" in shown
    assert metadata["artifacts"][-2:] == ["plans/eval/eval-00.plan", "plans/eval/eval-01.plan"]
    saved = (folder / "plans" / "eval" / "eval-01.plan").read_text().splitlines()
    assert saved[-1] == f"; cost = {costs[1]} (unit cost)" and len(saved) == costs[1] + 1
