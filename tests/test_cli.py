"""The command line as a user runs it: synthesize with a recorded conversation, validate, solve, evaluate."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_programs import CORRECT, RAISES, fenced
from oracles import ORACLES

from genplan.approaches.base import RunContext
from genplan.approaches.generalized_plan.runs import run_synthesis
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings
from genplan.cli import main, model_options
from genplan.cli import synthesize as synthesize_command
from genplan.errors import ConfigurationError
from genplan.llm import FakeLanguageModel
from genplan.paths import builtin_domain_file
from genplan.pddl.generate import write_problems
from genplan.pddl.problem_sets import load_domain_problems


def _genplan(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "GENPLAN"))}
    env["PYTHONHASHSEED"] = "0"
    return subprocess.run(
        [sys.executable, "-m", "genplan", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def recorded_heavy_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A heavy run recorded with the fake model (one exception round, then a correct program)."""
    work = tmp_path_factory.mktemp("recorded")
    problems = load_domain_problems("heavy", 0, 3, work, size_check=True)
    model = FakeLanguageModel(["Packing.", "Heaviest first.", fenced(RAISES), fenced(CORRECT)])
    report = run_synthesis(
        problems,
        model,
        SynthesisSettings(),
        RunContext(folder=work / "run", model_name="fake", backend_name="fake"),
    )
    assert report.summary.fraction_solved == 1.0
    return report.folder


def test_synthesize_replays_a_recorded_conversation_end_to_end(
    recorded_heavy_run: Path, tmp_path: Path
) -> None:
    result = _genplan(
        "synthesize",
        "--domain",
        "heavy",
        "--n",
        "3",
        "--llm",
        f"replay:{recorded_heavy_run / 'conversation.jsonl'}",
        "--runs-dir",
        str(tmp_path / "runs"),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "training round 0: python-exception" in result.stdout
    assert "training round 1: solved all training problems" in result.stdout
    assert "Feedback rounds used: 1 (python-exception)" in result.stdout
    assert "Evaluation: 3/3 solved (fraction 1.00)" in result.stdout
    replayed = tmp_path / "runs" / "heavy" / "main-seed0" / "program.py"
    assert replayed.read_text() == (recorded_heavy_run / "program.py").read_text()


def test_a_changed_prompt_is_a_clear_replay_error(recorded_heavy_run: Path, tmp_path: Path) -> None:
    result = _genplan(
        "synthesize",
        "--domain",
        "heavy",
        "--seed",
        "1",
        "--n",
        "3",
        "--llm",
        f"replay:{recorded_heavy_run / 'conversation.jsonl'}",
        "--runs-dir",
        str(tmp_path),
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert "not in the recording" in result.stderr and "message 0 (user) differs" in result.stderr


def test_no_model_and_no_recording_names_the_ways_to_set_one_up(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(model_options, "saved_run_folder", lambda *a: tmp_path / "nothing")
    args = synthesize_command.build_parser_for_tests().parse_args(["--domain", "heavy"])
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY") as caught:
        model_options.choose_backend(args, "heavy", "main")
    assert "--llm files:DIR" in str(caught.value) and "--base-url" in str(caught.value)


def test_no_model_but_a_saved_recording_replays_it(
    monkeypatch: pytest.MonkeyPatch, recorded_heavy_run: Path
) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(model_options, "saved_run_folder", lambda *a: recorded_heavy_run)
    args = synthesize_command.build_parser_for_tests().parse_args(["--domain", "heavy"])
    spec, note = model_options.choose_backend(args, "heavy", "main")
    assert spec == f"replay:{recorded_heavy_run / 'conversation.jsonl'}"
    assert note is not None and "replaying" in note


def test_validate_exit_codes_and_advice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem_file = write_problems("heavy", "train", 0, tmp_path, n=1)[0]
    domain_file = builtin_domain_file("heavy")
    from genplan.pddl.problem import load_problem

    plan = ORACLES["heavy"](load_problem(problem_file, domain_file))
    good = tmp_path / "good.plan"
    good.write_text("\n".join(plan) + "\n; cost = 3 (unit cost)\n")
    assert main(["validate", str(domain_file), str(problem_file), str(good)]) == 0
    assert "Plan valid" in capsys.readouterr().out
    bad = tmp_path / "bad.plan"
    bad.write_text("\n".join(plan[:-1]) + "\n")
    assert main(["validate", str(domain_file), str(problem_file), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "Plan invalid (plan-semantics" in out and "The goal is not satisfied" in out
    wrong = tmp_path / "wrong.plan"
    wrong.write_text("(pack-first)\n")
    assert main(["validate", str(domain_file), str(problem_file), str(wrong)]) == 1
    assert "takes 1 arguments but 0 were given" in capsys.readouterr().out


def test_solve_and_evaluate_with_a_program_file(
    recorded_heavy_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = recorded_heavy_run / "program.py"
    problem_file = write_problems("heavy", "eval", 5, tmp_path / "problems", n=1)[0]
    plan_file = tmp_path / "sas_plan"
    assert (
        main(
            ["solve", "--domain", "heavy", "--program", str(program), str(problem_file), "-o", str(plan_file)]
        )
        == 0
    )
    assert main(["validate", str(builtin_domain_file("heavy")), str(problem_file), str(plan_file)]) == 0
    capsys.readouterr()
    results = tmp_path / "results.json"
    code = main(
        [
            "evaluate",
            "--program",
            str(program),
            "--domain",
            "heavy",
            "--n",
            "4",
            "--timeout",
            "20",
            "--json",
            str(results),
            "--work-dir",
            str(tmp_path / "work"),
        ]
    )
    assert code == 0
    data = json.loads(results.read_text())
    assert data["summary"]["fraction_solved"] == 1.0 and len(data["problems"]) == 4
    assert all(p["status"] == "solved" and p["plan_length"] >= 100 for p in data["problems"])


def test_files_backend_timeout_is_settable_and_the_prompt_stays(tmp_path: Path) -> None:
    result = _genplan(
        "synthesize",
        "--domain",
        "heavy",
        "--n",
        "1",
        "--llm",
        f"files:{tmp_path / 'prompts'}",
        "--files-timeout",
        "1",
        "--runs-dir",
        str(tmp_path / "runs"),
        cwd=tmp_path,
    )
    assert result.returncode == 2 and "no answer in" in result.stderr
    prompt = (tmp_path / "prompts" / "0001.prompt.md").read_text()
    assert prompt.startswith("## user\n\nDomain:\n(define (domain heavy-pack)")
    assert prompt.rstrip().endswith("Write a short summary of this domain in words.")
