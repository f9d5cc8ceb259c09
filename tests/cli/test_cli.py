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
from synthesis_runs import run_synthesis

from genplan.approaches.base import RunContext
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings
from genplan.cli import main, model_options
from genplan.cli import synthesize as synthesize_command
from genplan.errors import ConfigurationError
from genplan.llm import FakeLanguageModel, read_recording
from genplan.paths import builtin_domain_file, data_folder, source_checkout
from genplan.pddl.generate import write_problems
from genplan.pddl.problem_sets import load_domain_problems
from genplan.requests import models as request_models


def _user_env(**extra: str) -> dict[str, str]:
    """The environment a user's shell gives: no model keys, no hash seed chosen."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "GENPLAN", "PYTHONHASHSEED"))}
    return {**env, **extra}


def _genplan(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "genplan", *args],
        cwd=cwd,
        env=_user_env(**env),
        capture_output=True,
        text=True,
        timeout=300,
    )


CONSOLE_SCRIPT = Path(sys.executable).parent / "genplan"


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
        RunContext(folder=work / "run", model_name="fake", backend_name="fake", eval_timeout=30.0),
    )
    assert report.summary.fraction_solved == 1.0
    return report.folder


@pytest.mark.slow
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
    monkeypatch.setattr(request_models, "saved_replay_folder", lambda *a: tmp_path / "nothing")
    args = synthesize_command.build_parser_for_tests().parse_args(["--domain", "heavy"])
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY") as caught:
        request_models.choose_backend(
            model_options.backend_from_arguments(args), "generalized-plan", "heavy", "heavy", "main", 0, None
        )
    assert "--llm files:DIR" in str(caught.value) and "--base-url" in str(caught.value)


def test_no_model_but_a_saved_recording_replays_it(
    monkeypatch: pytest.MonkeyPatch, recorded_heavy_run: Path
) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(request_models, "saved_replay_folder", lambda *a: recorded_heavy_run)
    args = synthesize_command.build_parser_for_tests().parse_args(["--domain", "heavy"])
    spec, note = request_models.choose_backend(
        model_options.backend_from_arguments(args), "generalized-plan", "heavy", "heavy", "main", 0, None
    )
    assert spec.recording == recorded_heavy_run / "conversation.jsonl"
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
            "--plans",
            str(tmp_path / "plans"),
        ]
    )
    assert code == 0
    data = json.loads(results.read_text())
    assert data["summary"]["fraction_solved"] == 1.0 and len(data["problems"]) == 4
    assert all(p["status"] == "solved" and p["plan_length"] >= 100 for p in data["problems"])
    assert all(p["plan_cost"] == p["plan_length"] for p in data["problems"])
    # No reference costs: no quality number (C* would be each plan's own cost; issue 33 item 5)
    assert data["scores"]["quality"] is None and data["scores"]["references"] is None
    assert data["scores"]["references_found"] == {"all": 0} and data["scores"]["agile"]["all"] == 4.0
    assert all(p["checked_by"] == "val" and p["check_note"] is None for p in data["problems"])
    assert data["summary"]["checked_by"] == {"val": 4}
    assert data["machine"]["cpus"] >= 1 and len(data["machine"]["load_average"]["end"]) == 3
    saved = sorted(str(p.relative_to(tmp_path / "plans")) for p in (tmp_path / "plans").rglob("*.plan"))
    assert saved == [row["problem"][: -len(".pddl")] + ".plan" for row in data["problems"]]


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


@pytest.mark.skipif(not CONSOLE_SCRIPT.is_file(), reason="the genplan console script is not installed")
def test_modules_in_the_working_directory_are_never_imported(
    recorded_heavy_run: Path, tmp_path: Path
) -> None:
    """The console script used to re-execute itself as ``python -m genplan``, which put the working
    directory first on the import path: a pddl.py, tqdm.py or genplan.py there broke every command."""
    work = tmp_path / "work"
    work.mkdir()
    for name in ("pddl", "tqdm", "genplan", "lark", "multiprocess"):
        (work / f"{name}.py").write_text(
            f"raise SystemExit('imported ./{name}.py from the working directory')\n"
        )
    domain_file = builtin_domain_file("heavy")
    problem = work / "p.pddl"  # an empty :init is outside the fast path: the pddl library parses it
    problem.write_text(
        "(define (problem p) (:domain heavy-pack) (:objects o1) (:init) (:goal (and (packed o1))))"
    )
    plan = work / "plan"
    plan.write_text("(pack-first o1)\n")
    commands = [
        ["--version"],
        ["validate", str(domain_file), str(problem), str(plan)],
        [
            "evaluate",
            "--program",
            str(recorded_heavy_run / "program.py"),
            "--domain",
            "heavy",
            "--n",
            "1",
            "--work-dir",
            str(tmp_path / "runs"),
        ],
    ]
    for command in commands:
        result = subprocess.run(
            [str(CONSOLE_SCRIPT), *command],
            cwd=work,
            env=_user_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert "from the working directory" not in result.stderr, (command, result.stderr)
        assert result.returncode in (0, 1), (command, result.stderr)


def test_cprofile_profiles_the_real_work(tmp_path: Path) -> None:
    """``python -m cProfile -m genplan ...`` used to profile only a re-execution of itself."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "cProfile",
            "-s",
            "cumulative",
            "-m",
            "genplan",
            "generate",
            "--domain",
            "heavy",
            "--split",
            "train",
            "--n",
            "1",
            "--out",
            str(tmp_path / "out"),
        ],
        cwd=tmp_path,
        env=_user_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "function calls" in result.stdout and "write_problems" in result.stdout


@pytest.mark.slow
def test_results_do_not_depend_on_the_hash_seed(recorded_heavy_run: Path, tmp_path: Path) -> None:
    """Two replays under different string-hash seeds ask the same prompts and write the same records."""
    folders = []
    for seed in ("1", "2"):
        runs = tmp_path / f"runs{seed}"
        result = _genplan(
            "synthesize",
            "--domain",
            "heavy",
            "--n",
            "3",
            "--llm",
            f"replay:{recorded_heavy_run / 'conversation.jsonl'}",
            "--runs-dir",
            str(runs),
            cwd=tmp_path,
            PYTHONHASHSEED=seed,
        )
        assert result.returncode == 0, result.stderr
        folders.append(runs / "heavy" / "main-seed0")
    first_exchanges, second_exchanges = (read_recording(f / "conversation.jsonl") for f in folders)
    assert [(e.messages, e.response) for e in first_exchanges] == [
        (e.messages, e.response) for e in second_exchanges
    ]
    for name in ("program.py", "training.json"):
        assert (folders[0] / name).read_text() == (folders[1] / name).read_text(), name
    first, second = (json.loads((f / "results.json").read_text()) for f in folders)
    assert [(r["problem"], r["status"], r["plan_length"]) for r in first] == [
        (r["problem"], r["status"], r["plan_length"]) for r in second
    ]


@pytest.mark.slow
def test_a_users_hash_seed_does_not_change_a_replay(tmp_path: Path) -> None:
    """The saved miconic run's first program iterates over sets, so its failing plan (and the
    feedback the recording holds) depends on the sandbox's hash seed, which the user's shell
    must not choose."""
    from genplan.paths import data_folder

    result = _genplan("synthesize", "--domain", "miconic", "--n", "1", cwd=tmp_path, PYTHONHASHSEED="2")
    assert result.returncode == 0, result.stderr
    saved = data_folder("synthesized") / "miconic" / "main-seed0"
    replayed = tmp_path / "runs" / "miconic" / "main-seed0"
    assert (replayed / "program.py").read_text() == (saved / "program.py").read_text()


def test_validate_names_the_plan_file_line_and_counts_steps_from_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problem_file = write_problems("heavy", "train", 0, tmp_path, n=1)[0]
    plan = tmp_path / "plan"
    plan.write_text("; first the heaviest item\n\n(pack-first o999)\n")
    assert main(["validate", str(builtin_domain_file("heavy")), str(problem_file), str(plan)]) == 1
    out = capsys.readouterr().out
    assert (
        f"{plan}:3: the action pack-first o999 is invalid at step 1 because the object o999 does not exist"
        in out
    )


def test_validate_reads_vals_timed_plan_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 item 8: ``0.000: (move a b) [1.000]`` as LPG, OPTIC, POPF and TFD write it."""
    problem_file = write_problems("heavy", "train", 0, tmp_path, n=1)[0]
    domain_file = builtin_domain_file("heavy")
    from genplan.pddl.problem import load_problem

    plan = ORACLES["heavy"](load_problem(problem_file, domain_file))
    timed = tmp_path / "timed.plan"
    timed.write_text("".join(f"{step}.000: {action}  [1.000]\n" for step, action in enumerate(plan)))
    assert main(["validate", str(domain_file), str(problem_file), str(timed)]) == 0
    assert f"Plan valid ({len(plan)} actions" in capsys.readouterr().out
    timed.write_text(f"0.000: {plan[0]} [1]\n0.5:(pack-first o999)\n")
    assert main(["validate", str(domain_file), str(problem_file), str(timed)]) == 1
    assert f"{timed}:2: the action pack-first o999 is invalid at step 2" in capsys.readouterr().out


def test_files_that_are_not_utf8_or_cannot_be_written_are_errors_not_tracebacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], recorded_heavy_run: Path
) -> None:
    problem_file = write_problems("heavy", "train", 0, tmp_path, n=1)[0]
    plan = tmp_path / "plan"
    plan.write_bytes("(pack-first o1)\n; caf\xe9\n".encode("latin-1"))
    assert main(["validate", str(builtin_domain_file("heavy")), str(problem_file), str(plan)]) == 2
    assert f"{plan}:2: the plan file is not UTF-8 text" in capsys.readouterr().err

    a_file = tmp_path / "a-file"
    a_file.write_text("")
    assert main(["generate", "--domain", "heavy", "--split", "train", "--out", str(a_file / "out")]) == 2
    assert f"cannot write problems to {a_file / 'out'}" in capsys.readouterr().err

    program = tmp_path / "program.py"
    program.write_bytes("# caf\xe9\n".encode("latin-1"))
    code = main(
        ["evaluate", "--program", str(program), "--domain", "heavy", "--work-dir", str(tmp_path / "w")]
    )
    assert code == 2 and f"program file {program} is not UTF-8 text" in capsys.readouterr().err

    code = main(
        [
            "solve",
            "--domain",
            "heavy",
            "--program",
            str(recorded_heavy_run / "program.py"),
            str(problem_file),
            "-o",
            str(a_file / "plan"),
        ]
    )
    assert code == 2 and f"cannot write the plan to {a_file / 'plan'}" in capsys.readouterr().err


def test_solve_with_a_domain_file_asks_for_the_program_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problem_file = write_problems("heavy", "train", 0, tmp_path, n=1)[0]
    assert main(["solve", "--domain", str(builtin_domain_file("heavy")), str(problem_file)]) == 2
    error = capsys.readouterr().err
    assert "--program PROGRAM.py" in error and "program=" not in error


def test_evaluate_shows_the_first_reason_per_kind_and_fails_when_nothing_is_solved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "program.py"
    program.write_text(RAISES)
    code = main(
        [
            "evaluate",
            "--program",
            str(program),
            "--domain",
            "heavy",
            "--n",
            "2",
            "--work-dir",
            str(tmp_path / "w"),
        ]
    )
    assert code == 1
    out = capsys.readouterr().out
    assert "python-exception (2 problems), first on eval/eval-00.pddl:" in out
    assert "IndexError" in out  # the exception itself, not only the status
    assert "Solved 0/2" in out


def _ipc_folder(root: Path) -> Path:
    """An IPC 2023 learning-track folder for heavy: 3 training problems, 2 per testing level
    (the same PDDL names in every level, as IPC's are)."""
    import shutil

    folder = root / "ipc-heavy"
    folder.mkdir()
    shutil.copy(builtin_domain_file("heavy"), folder / "domain.pddl")
    write_problems("heavy", "train", 0, folder / "training" / "easy", n=3)
    for level in ("easy", "medium", "hard"):
        write_problems("heavy", "eval", 0, folder / "testing" / level, n=2)
    return folder


def test_an_ipc_folder_evaluates_every_level_and_says_how_many_of_how_many(
    recorded_heavy_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27 item 7: the default is every evaluation problem of a folder, not --n 30 of testing/easy."""
    folder = _ipc_folder(tmp_path)
    program = str(recorded_heavy_run / "program.py")
    common = ["evaluate", "--program", program, "--domain", str(folder), "--work-dir", str(tmp_path / "w")]
    assert main(common) == 0
    captured = capsys.readouterr()
    assert "ipc-heavy: 6 of 6 evaluation problems" in captured.err
    assert "testing/hard/eval-01.pddl" in captured.out and "Solved 6/6" in captured.out
    assert main([*common, "--n", "3"]) == 0
    captured = capsys.readouterr()
    assert "ipc-heavy: 3 of 6 evaluation problems" in captured.err and "Solved 3/3" in captured.out


def test_training_rounds_name_a_folders_problems_by_file_key(tmp_path: Path) -> None:
    """Issue 27 item 7: training lines name problems as results do (IPC names repeat across levels)."""
    problems = load_domain_problems(str(_ipc_folder(tmp_path)), 0, None, tmp_path / "work")
    model = FakeLanguageModel(["Packing.", "Heaviest first.", fenced(RAISES), fenced(CORRECT)])
    context = RunContext(folder=tmp_path / "run", model_name="fake", backend_name="fake", eval_timeout=30.0)
    report = run_synthesis(problems, model, SynthesisSettings(), context)
    failed = report.synthesis.rounds[0].failed_problem
    assert failed is not None and failed.startswith("training/easy/train-0")
    assert report.synthesis.training_problems_used[:2] == [
        "training/easy/train-00.pddl",
        "training/easy/train-01.pddl",
    ]
    rounds = json.loads((report.folder / "training.json").read_text())
    assert rounds[0]["failed_problem"] == failed
    assert "testing/easy/eval-00.pddl" in {result.problem for result in report.record.problems}


@pytest.mark.parametrize(
    "command",
    [["run", "--approach", "generalized-plan"], ["synthesize"], ["experiments"], ["evaluate"]],
)
def test_one_flag_name_per_meaning_across_commands(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--eval-timeout" in text and "--runs-dir" in text
    assert "--work-dir" not in text or "--work-dir is its old name, deprecated" in text


@pytest.mark.parametrize(
    ("old", "new"),
    [(["--timeout", "7"], ["--eval-timeout", "7"]), (["--work-dir", "w"], ["--runs-dir", "w"])],
)
def test_evaluate_keeps_the_old_names_as_aliases(old: list[str], new: list[str]) -> None:
    from genplan.cli import build_parser

    base = ["evaluate", "--program", "p.py", "--domain", "heavy"]
    assert build_parser().parse_args([*base, *old]) == build_parser().parse_args([*base, *new])
    parsed = build_parser().parse_args([*base, *new])
    assert parsed.eval_timeout == 7.0 if new[0] == "--eval-timeout" else parsed.runs_dir == Path("w")


def test_evaluate_with_the_new_names(
    tmp_path: Path, recorded_heavy_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = str(recorded_heavy_run / "program.py")
    arguments = ["evaluate", "--program", program, "--domain", "heavy", "--n", "2"]
    code = main([*arguments, "--eval-timeout", "20", "--runs-dir", str(tmp_path / "w")])
    assert code == 0, capsys.readouterr().err
    assert "2/2" in capsys.readouterr().out and (tmp_path / "w").is_dir()


def test_a_run_without_runs_dir_writes_under_the_test_s_own_folder(tmp_path: Path) -> None:
    checkout = source_checkout()
    before = sorted(checkout.iterdir()) if checkout is not None else []
    assert main(["synthesize", "--domain", "heavy", "--n", "1"]) == 0  # replays the saved run
    assert (tmp_path / "runs" / "heavy" / "main-seed0" / "metadata.json").is_file()
    assert (sorted(checkout.iterdir()) if checkout is not None else []) == before  # nothing in the checkout


def test_no_debug_with_no_model_replays_the_first_program_of_the_main_recording(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["synthesize", "--domain", "gripper", "--no-debug", "--n", "2", "--runs-dir", str(tmp_path)]
    assert main(arguments) == 0
    out = capsys.readouterr().out
    main_recording = data_folder("synthesized") / "gripper" / "main-seed0" / "conversation.jsonl"
    assert (
        f"replaying the recorded conversation {main_recording} (its first program is the no-debug run's)"
        in out
    )
    assert "Feedback rounds used: 0" in out and "Evaluation: 2/2 solved" in out


def test_no_model_names_the_saved_runs_on_other_problem_sets_that_would_replay(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["run", "--approach", "boomerang", "--domain", "blocksworld"]) == 2
    err = capsys.readouterr().err
    assert "no language model is set up" in err
    assert "blocksworld-by-length-4-8-12-x2/boomerang-seed0" in err
    assert "--problems by-length:4,8,12 --per-length 2" in err


def test_solve_reads_the_problem_before_it_starts_the_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from genplan.cli import solve as solve_command

    started: list[object] = []
    monkeypatch.setattr(solve_command, "sandbox_limits", lambda args: started.append(args))
    bad = tmp_path / "bad.pddl"
    bad.write_text("(define (problem p) (:domain heavy-pack) (:objects o1)")
    assert main(["solve", "--domain", "heavy", str(bad)]) == 2
    assert "bad.pddl" in capsys.readouterr().err and started == []  # no worker started for a bad file
