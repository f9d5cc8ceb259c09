"""AutoToS end to end: the run folder and record, the command line, and replaying a recording."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from autotos_programs import GOAL, fenced
from oracles.components import SUCCESSORS

from genplan.approaches import get_approach
from genplan.approaches.autotos.approach import AutoToS
from genplan.approaches.autotos.sandboxed import run_in_process
from genplan.approaches.autotos.settings import AutoToSSettings
from genplan.approaches.base import RunContext, read_record
from genplan.cli import main
from genplan.llm import FakeLanguageModel
from genplan.pddl.problem_sets import load_domain_problems

FOREST_ANYWHERE = """
def successor_states(state, objects):
    successors = []
    for atom in state:
        if atom[0] == "at":
            for name, kind in objects:
                if name != atom[1]:
                    new = set(state)
                    new.discard(atom)
                    new.add(("at", name))
                    successors.append(new)
    return successors
"""
"""Walks anywhere, adjacent or not."""

SETTINGS = AutoToSSettings(search_seconds=20.0)


@pytest.fixture(scope="module")
def forest_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A forest run with the fake model: an unsound successor function, then a correct one."""
    work = tmp_path_factory.mktemp("forest")
    problems = load_domain_problems("forest", 0, 2, work)
    model = FakeLanguageModel([fenced(FOREST_ANYWHERE), fenced(GOAL), fenced(SUCCESSORS["forest"])])
    folder = work / "runs" / "forest" / "autotos-seed0"
    context = RunContext(folder=folder, model_name="fake", backend_name="fake", workers=1, eval_timeout=30.0)
    AutoToS(runner=run_in_process).run(problems, model, SETTINGS, context)
    return folder


def test_the_record_counts_calls_feedback_by_phase_and_error_categories(forest_run: Path) -> None:
    record = read_record(forest_run)
    assert (record.approach, record.label, record.llm_calls) == ("autotos", "autotos+search-seconds-20", 3)
    assert record.feedback == {"goal": 0, "successor-soundness": 1, "successor-completeness": 0}
    details = record.details
    assert details["outcome"] == "passed" and details["calls_until_passed"] == 3
    assert details["error_categories"] == {"successor-soundness": 1}
    assert details["calls_per_component"] == {"successor_states": 2, "is_goal": 1}
    assert [p.problem for p in record.problems] == ["eval/eval-00.pddl", "eval/eval-01.pddl"]
    assert all(p.solved and p.plan_length and p.details["expanded"] >= 1 for p in record.problems)
    assert (record.problem_set, record.generators) == ("generated", "v2")


def test_the_run_folder_holds_the_artifacts(forest_run: Path) -> None:
    record = read_record(forest_run)
    for name in record.artifacts:
        assert (forest_run / name).is_file(), name
    program = (forest_run / "components.py").read_text()
    assert not (forest_run / "program.py").exists()
    assert "adjacent" in program and "def is_goal" in program
    events = json.loads((forest_run / "feedback.json").read_text())
    assert [e["category"] for e in events] == ["successor-soundness"]
    assert "no single applicable action" in events[0]["message"]


def test_autotos_is_registered_with_its_settings_as_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert isinstance(get_approach("autotos"), AutoToS)
    with pytest.raises(SystemExit):
        main(["run", "--approach", "autotos", "--help"])
    shown = capsys.readouterr().out
    for flag in ("--checks", "--no-soundness-test", "--no-completeness-test", "--search", "--search-seconds"):
        assert flag in shown


def test_a_bad_check_mode_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["run", "--approach", "autotos", "--domain", "forest", "--checks", "approximate"])
    assert stopped.value.code == 2
    assert "--checks" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("settings", "label"),
    [
        (AutoToSSettings(), "autotos"),
        (AutoToSSettings(checks="partial", soundness_test=False), "autotos+partial+no-soundness-test"),
        (AutoToSSettings(completeness_test=False, search="dfs"), "autotos+no-completeness-test+dfs"),
        (AutoToSSettings(max_calls=5), "autotos+max-calls-5"),
    ],
)
def test_the_label_names_what_differs_from_the_main_protocol(settings: AutoToSSettings, label: str) -> None:
    assert AutoToS().label(settings) == label


def test_settings_reject_values_no_run_could_use() -> None:
    with pytest.raises(ValueError, match="search_seconds"):
        AutoToSSettings(search_seconds=0)
    with pytest.raises(ValueError, match="max_calls"):
        AutoToSSettings(max_calls=1)


def test_the_command_line_replays_a_recording_to_the_same_components(
    forest_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "run",
            "--approach",
            "autotos",
            "--domain",
            "forest",
            "--n",
            "2",
            "--search-seconds",
            "20",
            "--llm",
            f"replay:{forest_run / 'conversation.jsonl'}",
            "--runs-dir",
            str(tmp_path),
        ]
    )
    assert code == 0
    shown = capsys.readouterr().out
    assert "approach autotos (autotos+search-seconds-20)" in shown and "LLM calls: 3" in shown
    assert "Feedback by phase: goal 0, successor-soundness 1, successor-completeness 0" in shown
    replayed = tmp_path / "forest" / "autotos+search-seconds-20-seed0"
    assert (replayed / "components.py").read_text() == (forest_run / "components.py").read_text()
    assert json.loads((replayed / "feedback.json").read_text()) == json.loads(
        (forest_run / "feedback.json").read_text()
    )
    assert read_record(replayed).solved == 2
