"""``genplan run --approach asp``: flags, tasks in English, and replaying a recorded run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from asp_fixtures import KNOWLEDGE, MCP_ENCODING, MCP_QUERY, SIGNATURE, UNCHANGED_TEXT, rules

from genplan.approaches.asp.approach import AspApproach
from genplan.approaches.asp.settings import AspSettings
from genplan.approaches.base import RunContext
from genplan.cli import main
from genplan.llm import FakeLanguageModel
from genplan.pddl.problem_sets import load_problems

QUERIES = "```\n% Query 1: the start (satisfiable)\n% horizon: 0\ninit(at(boat,bank1)).\n```\n"


def test_the_asp_settings_are_flags(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--approach", "asp", "--help"])
    shown = capsys.readouterr().out
    for flag in (
        "--revisions",
        "--sample-queries",
        "--max-horizon",
        "--no-successor-check",
        "--no-val-check",
    ):
        assert flag in shown


def test_a_task_in_english_needs_an_approach_that_reads_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(
        [
            "run",
            "--approach",
            "generalized-plan",
            "--domain",
            "mcp",
            "--llm",
            "manual",
            "--runs-dir",
            str(tmp_path),
        ]
    )
    assert code != 0
    assert "task in English" in capsys.readouterr().err


def test_a_task_in_english_is_refused_before_the_model_is_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code = main(["run", "--approach", "autotos", "--domain", "mcp", "--runs-dir", str(tmp_path)])
    assert code != 0
    err = capsys.readouterr().err
    assert "mcp is a task in English" in err
    assert "no language model" not in err


def test_evaluate_refuses_a_task_in_english(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "program.py"
    program.write_text("def get_plan(objects, init, goal):\n    return []\n")
    code = main(["evaluate", "--program", str(program), "--domain", "mcp", "--work-dir", str(tmp_path)])
    assert code != 0
    assert "mcp is a task in English" in capsys.readouterr().err


@pytest.mark.slow
def test_a_recorded_run_replays_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = FakeLanguageModel([SIGNATURE, KNOWLEDGE, rules(MCP_ENCODING, MCP_QUERY), QUERIES, UNCHANGED_TEXT])
    recorded = tmp_path / "recorded"
    AspApproach().run(
        load_problems("mcp", 0, 30, tmp_path),
        model,
        AspSettings(revisions=3),
        RunContext(folder=recorded, eval_timeout=30.0),
    )
    code = main(
        [
            "run",
            "--approach",
            "asp",
            "--domain",
            "mcp",
            "--revisions",
            "3",
            "--llm",
            f"replay:{recorded / 'conversation.jsonl'}",
            "--runs-dir",
            str(tmp_path / "runs"),
        ]
    )
    assert code == 0, capsys.readouterr().err
    replayed = tmp_path / "runs" / "mcp" / "asp+revisions-3-seed0"
    assert (replayed / "encoding.lp").read_text() == MCP_ENCODING
    metadata = json.loads((replayed / "metadata.json").read_text())
    assert metadata["approach"] == "asp" and metadata["llm_calls"] == 5 and metadata["solved"] == 1
    # Every check's clingo outcome came from the recording's folder; the evaluation ran clingo.
    assert metadata["details"]["check_clingo_runs"]["made"] == 0
    assert metadata["details"]["check_clingo_runs"]["reused"] > 0
    shown = capsys.readouterr().out
    assert "Answer: 11 crossings (known: 11 crossings)" in shown
    assert "Revisions used: 1 of 3" in shown
    assert metadata["problem_set"] == "english" and metadata["generators"] is None
    assert "problems: a task in English" in shown
