"""``genplan run --approach NAME``: any registered approach from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_programs import CORRECT, fenced

from genplan.approaches.base import RunContext
from genplan.approaches.generalized_plan.runs import run_synthesis
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
        RunContext(folder=work / "run", model_name="fake", backend_name="fake"),
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
