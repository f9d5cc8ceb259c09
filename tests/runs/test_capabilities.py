"""Declared capabilities, checked in one place before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.cli import main
from genplan.paths import data_folder
from genplan.sandbox import IsolationUnavailable

REACT = data_folder("synthesized") / "blocksworld-by-length-4-8-12-x2" / "react-seed0" / "conversation.jsonl"


def test_an_approach_that_runs_no_model_code_needs_no_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def missing(args: object) -> None:
        raise IsolationUnavailable("bubblewrap is missing")

    monkeypatch.setattr("genplan.requests.compose.sandbox_limits", missing)
    arguments = ["run", "--approach", "react", "--domain", "gripper", "--n", "0"]
    assert main([*arguments, "--llm", f"replay:{REACT}", "--runs-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    # the generalized plan runs model code: the sandbox is checked before anything starts
    assert main(["run", "--approach", "generalized-plan", "--domain", "gripper", "--n", "0",
                 "--llm", f"replay:{REACT}", "--runs-dir", str(tmp_path)]) != 0  # fmt: skip
    assert "bubblewrap is missing" in capsys.readouterr().err


@pytest.mark.parametrize("approach", ["asp", "react"])
def test_isolation_none_is_refused_where_it_has_no_effect(
    approach: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["run", "--approach", approach, "--domain", "gripper", "--isolation", "none",
                 "--runs-dir", str(tmp_path)])  # fmt: skip
    assert code != 0
    error = capsys.readouterr().err
    assert f"--isolation none has no effect for {approach}" in error and "leave it out" in error


@pytest.mark.parametrize("approach", ["generalized-plan", "io"])
def test_one_message_for_a_task_in_english_to_an_approach_that_cannot_read_it(
    approach: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--approach", approach, "--domain", "mcp", "--runs-dir", str(tmp_path)]) != 0
    error = capsys.readouterr().err
    assert f"mcp is a task in English (description.md), which {approach} cannot take" in error
    assert "approaches that can: asp" in error


def test_the_grid_gives_the_same_message_for_a_task_in_english() -> None:
    from genplan.approaches import get_approach
    from genplan.approaches.base import check_capabilities
    from genplan.errors import ConfigurationError
    from genplan.sandbox import Isolation

    with pytest.raises(
        ConfigurationError, match=r"mcp is a task in English \(description.md\), which io cannot"
    ):
        check_capabilities(get_approach("io"), domain="mcp", english=True, isolation=Isolation.BWRAP)


def test_a_grid_of_approaches_that_run_no_model_code_needs_no_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def missing(args: object) -> None:
        raise IsolationUnavailable("bubblewrap is missing")

    monkeypatch.setattr("genplan.cli.experiments.checked_limits", missing)
    grid = ["experiments", "--domains", "gripper", "--n", "0", "--engine", "sequential",
            "--runs-dir", str(tmp_path / "runs"), "--results", str(tmp_path / "results"),
            "--llm", f"replay:{REACT}"]  # fmt: skip
    assert main([*grid, "--approach", "react"]) == 0
    assert "1 cells" in capsys.readouterr().out
    # a grid with an approach that runs model code checks the sandbox before any cell starts
    assert main([*grid, "--approach", "react", "--approach", "generalized-plan"]) != 0
    assert "bubblewrap is missing" in capsys.readouterr().err
