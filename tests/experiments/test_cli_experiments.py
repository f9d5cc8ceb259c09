"""``genplan experiments``: a grid by flags, replaying the saved runs, resumed on a second call."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.cli import main
from genplan.experiments.journal import read_jsonl


def grid_arguments(tmp_path: Path, *flags: str) -> list[str]:
    """``genplan experiments`` on gripper with 2 evaluation problems, in this process, with
    ``flags`` added, its runs and results in ``tmp_path``."""
    return [
        "experiments",
        "--domains",
        "gripper",
        *flags,
        "--n",
        "2",
        "--engine",
        "sequential",
        "--runs-dir",
        str(tmp_path / "runs"),
        "--results",
        str(tmp_path / "results"),
    ]


def test_a_grid_replays_saved_runs_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arguments = grid_arguments(tmp_path)
    assert main(arguments) == 0
    assert "1 cells: 0 recorded before, 1 finished now, 0 failed" in capsys.readouterr().out
    (run,) = read_jsonl(tmp_path / "results" / "runs.jsonl")
    assert run["cell"] == "gripper/generalized-plan/main-seed0" and run["model"] == "claude"
    assert run["backend"] == "replay" and run["fraction_solved"] == 1.0
    assert (
        tmp_path / "runs" / "saved" / "gripper" / "generalized-plan" / "main-seed0" / "program.py"
    ).is_file()
    assert main(arguments) == 0
    assert "1 cells: 1 recorded before, 0 finished now" in capsys.readouterr().out
    for flags, named in (
        (["--n", "3"], "--n 2 (now 3)"),
        (["--eval-timeout", "5"], "--eval-timeout 30.0 (now 5.0)"),
        (["--generators", "v2"], '--generators "v1" (now "v2")'),
    ):
        assert main([*arguments, *flags]) == 2  # not "recorded before" with the old numbers
        error = capsys.readouterr().err
        assert "gripper/generalized-plan/main-seed0" in error and named in error, error


def test_bad_grids_are_errors_not_tracebacks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["experiments", "--domains", "gripper", "--approach", "generalized-plan:colour=red"]) == 2
    assert "unknown setting 'colour'" in capsys.readouterr().err
    assert main(["experiments", str(tmp_path / "missing.toml")]) == 2
    assert "cannot read grid file" in capsys.readouterr().err
    assert main(["experiments", "--domains", "gripper", "--llm", "manual"]) == 2
    assert "use it with --engine sequential" in capsys.readouterr().err


def test_the_grid_bar_writes_plain_lines_to_a_non_terminal() -> None:
    """Issue 27 item 10: no bar (carriage returns, escape codes) in a log file or a pipe."""
    import io

    from genplan.cli.experiments import _GridBar

    log = io.StringIO()
    bar = _GridBar(log)
    bar.start(total=4, recorded=1)
    bar.update(done=0, failed=0, running=2)
    bar.update(done=1, failed=0, running=1)
    bar.update(done=1, failed=0, running=1)  # nothing finished since: no line
    bar.update(done=1, failed=1, running=0)
    bar.close()
    lines = log.getvalue().splitlines()
    assert len(lines) == 2 and "\r" not in log.getvalue() and "\x1b" not in log.getvalue()
    assert lines[0].startswith("cells: 2 of 4 finished (done 2, failed 0, running 1; ")
    assert lines[1].startswith("cells: 3 of 4 finished (done 2, failed 1, running 0; ")


def test_with_no_model_cells_with_no_saved_run_are_skipped_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["experiments", "--domains", "gripper,blocksworld", "--n", "2", "--engine", "sequential"]
    arguments += ["--runs-dir", str(tmp_path / "runs"), "--results", str(tmp_path / "results")]
    assert main(arguments) == 0
    out, err = capsys.readouterr()
    assert "1 cell(s) have no saved run to replay (blocksworld/generalized-plan/main-seed0): skipped" in err
    assert "2 cells: 0 recorded before, 1 finished now, 0 failed, 1 skipped (no saved run to replay)" in out
    assert [run["cell"] for run in read_jsonl(tmp_path / "results" / "runs.jsonl")] == [
        "gripper/generalized-plan/main-seed0"
    ]
    assert main(["experiments", "--domains", "blocksworld", "--runs-dir", str(tmp_path / "runs")]) == 2
    assert "no saved run to replay" in capsys.readouterr().err  # nothing at all to run: an error


def test_a_grid_of_approaches_that_ask_no_model_runs_without_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PE asks no model: its cell runs with no backend set up and no saved run (it used to be
    refused: "no model backend is set"), records model and backend ``none`` and 0 calls, and sits
    beside a cell that replays its saved run."""
    arguments = grid_arguments(tmp_path, "--approach", "pe:max-policies=3", "--approach", "generalized-plan")
    assert main(arguments) == 0, capsys.readouterr().err
    assert "2 cells: 0 recorded before, 2 finished now, 0 failed" in capsys.readouterr().out
    runs = {run["approach"]: run for run in read_jsonl(tmp_path / "results" / "runs.jsonl")}
    pe = runs["pe"]
    assert pe["cell"] == "gripper/pe/pe+max-policies-3-seed0"
    assert (pe["model"], pe["backend"], pe["llm_calls"]) == ("none", "none", 0)
    assert (runs["generalized-plan"]["model"], runs["generalized-plan"]["backend"]) == ("claude", "replay")
    assert (
        tmp_path / "runs" / "none" / "gripper" / "pe" / "pe+max-policies-3-seed0" / "policy.txt"
    ).is_file()
    assert main(arguments) == 0
    assert "2 cells: 2 recorded before, 0 finished now" in capsys.readouterr().out
