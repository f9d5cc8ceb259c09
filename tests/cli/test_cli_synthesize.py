"""``genplan synthesize`` as a user meets it (issue 12): where ``--save`` writes, which error
comes first, which model is recorded."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path

import pytest
from fake_programs import CORRECT, fenced
from synthesis_runs import run_synthesis

import genplan.paths
from genplan.approaches.base import RunContext
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings
from genplan.cli import main, model_options
from genplan.cli import synthesize as synthesize_command
from genplan.llm import FakeLanguageModel, read_recording
from genplan.paths import data_folder
from genplan.pddl.problem_sets import load_domain_problems

SAVED_HEAVY = data_folder("synthesized") / "heavy" / "main-seed0"
REPO = Path(genplan.paths.__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _no_model_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def recorded_fake_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A heavy conversation recorded with the fake model (model name "fake"), alone in a folder."""
    work = tmp_path_factory.mktemp("recorded")
    problems = load_domain_problems("heavy", 0, 2, work, size_check=True)
    model = FakeLanguageModel(["Packing.", "Heaviest first.", fenced(CORRECT)])
    context = RunContext(folder=work / "run", model_name="fake", backend_name="fake", eval_timeout=30.0)
    report = run_synthesis(problems, model, SynthesisSettings(), context)
    alone = work / "alone"
    alone.mkdir()
    shutil.copy(report.folder / "conversation.jsonl", alone / "conversation.jsonl")
    return alone / "conversation.jsonl"


def _layout(root: Path, *, checkout: bool) -> Path:
    """A copy of genplan's data as a source checkout or an installed package; returns the saved heavy run."""
    data = root if checkout else root / "genplan" / "_data"
    data.mkdir(parents=True)
    if checkout:
        (root / "pyproject.toml").write_text("[project]\nname = 'genplan'\n")
    for kind in ("domains", "generators"):
        (data / kind).symlink_to(REPO / kind if (REPO / kind).is_dir() else data_folder(kind))
    saved = data / "synthesized" / "heavy" / "main-seed0"
    shutil.copytree(SAVED_HEAVY, saved)
    return saved


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.slow
def test_save_never_overwrites_the_saved_run_it_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = _layout(tmp_path / "checkout", checkout=True)
    monkeypatch.setattr(genplan.paths, "_PACKAGE", tmp_path / "checkout" / "genplan")
    before = _snapshot(saved)
    code = main(
        ["synthesize", "--domain", "heavy", "--n", "2", "--save", "--runs-dir", str(tmp_path / "runs")]
    )
    assert code == 0
    assert _snapshot(saved) == before
    assert f"Not saved: {saved} already holds this conversation" in capsys.readouterr().out
    assert sorted(p.name for p in saved.parent.iterdir()) == ["main-seed0"]


def test_save_from_an_installed_package_writes_to_the_working_directory_and_says_where(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    recorded_fake_run: Path,
) -> None:
    shipped = _layout(tmp_path / "site-packages", checkout=False)
    monkeypatch.setattr(genplan.paths, "_PACKAGE", tmp_path / "site-packages" / "genplan")
    user = tmp_path / "user"
    user.mkdir()
    monkeypatch.chdir(user)
    before = _snapshot(shipped)
    code = main(
        [
            "synthesize",
            "--domain",
            "heavy",
            "--n",
            "2",
            "--llm",
            f"replay:{recorded_fake_run}",
            "--save",
            "--runs-dir",
            str(tmp_path / "runs"),
        ]
    )
    assert code == 0
    assert _snapshot(shipped) == before  # nothing written into the installed package
    written = user / "synthesized" / "heavy" / "main-seed0"
    assert (written / "program.py").read_text() == (
        tmp_path / "runs" / "heavy" / "main-seed0" / "program.py"
    ).read_text()
    assert f"Saved to {written.resolve()}" in capsys.readouterr().out


def test_a_misspelt_domain_is_the_first_error_with_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["synthesize", "--domain", "hevy"]) == 2
    error = capsys.readouterr().err
    assert "unknown domain 'hevy': did you mean heavy?" in error
    assert "no language model" not in error


def test_a_replay_records_the_model_of_its_recording(
    tmp_path: Path, recorded_fake_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The recording alone, without a metadata.json beside it: the run used to record gpt-4o."""
    runs = tmp_path / "runs"
    assert (
        main(
            [
                "synthesize",
                "--domain",
                "heavy",
                "--n",
                "2",
                "--llm",
                f"replay:{recorded_fake_run}",
                "--runs-dir",
                str(runs),
            ]
        )
        == 0
    )
    metadata = json.loads((runs / "heavy" / "main-seed0" / "metadata.json").read_text())
    assert metadata["model"] == "fake"
    assert "model fake" in capsys.readouterr().out


def _answer_prompts(folder: Path, answers: list[str], stop: threading.Event) -> None:
    """Play the person behind ``--llm files:DIR``: answer each new prompt file in order."""
    answered = 0
    while not stop.is_set() and answered < len(answers):
        prompt = folder / f"{answered + 1:04d}.prompt.json"
        if prompt.is_file():
            (folder / f"{answered + 1:04d}.response.md").write_text(answers[answered])
            answered += 1
        time.sleep(0.05)


@pytest.mark.slow
def test_the_files_backend_records_an_unknown_model_unless_named(tmp_path: Path) -> None:
    prompts = tmp_path / "prompts"
    stop = threading.Event()
    answerer = threading.Thread(
        target=_answer_prompts, args=(prompts, ["Packing.", "Heaviest first.", fenced(CORRECT)], stop)
    )
    answerer.start()
    try:
        code = main(
            [
                "synthesize",
                "--domain",
                "heavy",
                "--n",
                "1",
                "--llm",
                f"files:{prompts}",
                "--files-timeout",
                "60",
                "--runs-dir",
                str(tmp_path / "runs"),
            ]
        )
    finally:
        stop.set()
        answerer.join()
    assert code == 0
    folder = tmp_path / "runs" / "heavy" / "main-seed0"
    assert json.loads((folder / "metadata.json").read_text())["model"] == "unknown"
    assert {e.model for e in read_recording(folder / "conversation.jsonl")} == {"unknown"}


@pytest.mark.parametrize(
    ("flags", "spec", "expected"),
    [
        ([], "files:/tmp/x", "unknown"),
        ([], "manual", "unknown"),
        (["--model", "qwen2.5-coder"], "files:/tmp/x", "qwen2.5-coder"),
        ([], "openai", "gpt-4o"),
        (["--model", "llama3"], "openai", "llama3"),
        ([], f"replay:{SAVED_HEAVY / 'conversation.jsonl'}", "claude"),
        (["--model", "claude"], f"replay:{SAVED_HEAVY / 'conversation.jsonl'}", "claude"),
    ],
)
def test_the_model_recorded_is_the_one_that_answers(flags: list[str], spec: str, expected: str) -> None:
    args = synthesize_command.build_parser_for_tests().parse_args(
        ["--domain", "heavy", "--llm", spec, *flags]
    )
    model, note = model_options.backend_from_arguments(args).recorded_model()
    assert model == expected
    assert (note is not None) == (expected == "unknown")


@pytest.mark.parametrize(
    "flags",
    [
        ["--n", "-3"],
        ["--files-timeout", "-1"],
        ["--timeout", "nan"],
        ["--seed", "-1"],
        ["--workers", "0"],
        ["--eval-timeout", "0"],
        ["--temperature", "-3"],
        ["--temperature", "hot"],
        ["--temperature", "inf"],
    ],
)
def test_nonsense_numbers_are_refused(flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["synthesize", "--domain", "heavy", *flags])
    assert caught.value.code == 2
    assert f"argument {flags[0]}: must be" in capsys.readouterr().err


def test_n_0_runs_the_training_phase_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["synthesize", "--domain", "gripper", "--n", "0", "--runs-dir", str(tmp_path)])
    assert code == 0
    record = json.loads((tmp_path / "gripper" / "main-seed0" / "metadata.json").read_text())
    assert record["evaluation_problems"] == 0
    assert json.loads((tmp_path / "gripper" / "main-seed0" / "results.json").read_text()) == []
    assert "Evaluation: none (no evaluation problems: --n 0)" in capsys.readouterr().out


def test_the_flags_beyond_the_paper_name_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["synthesize"], ["run", "--approach", "generalized-plan"]):
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        shown = capsys.readouterr().out
        for flag in ("--scaling-feedback", "--candidates", "--check-strategy", "--reflect", "--shuffles"):
            assert flag in shown, (command, flag)
        assert "--quality-feedback" in shown and "--quality-threshold" in shown, command
    args = synthesize_command.build_parser_for_tests().parse_args(
        ["--domain", "miconic", "--candidates", "3", "--check-strategy", "--reflect"]
    )
    settings = synthesize_command.request_from(args).settings
    assert settings.label == "candidates3+check-strategy+reflect"
    assert SynthesisSettings().label == "main" and SynthesisSettings(names=False).label == "no-names"
    assert SynthesisSettings(chain_of_thought=False, scaling_feedback=True).label == "no-cot+scaling"
    assert SynthesisSettings(shuffles=4).label == "shuffles4"
    assert (
        SynthesisSettings(check_strategy=True, strategy_rounds=3).label == "check-strategy+strategy-rounds-3"
    )
    quality = synthesize_command.build_parser_for_tests().parse_args(
        ["--domain", "miconic", "--quality-feedback", "--quality-threshold", "1.1"]
    )
    assert synthesize_command.request_from(quality).settings.label == "quality+quality-threshold-1.1"


@pytest.mark.slow
def test_a_replay_reuses_the_times_its_recording_measured(tmp_path: Path) -> None:
    """The recorded run's scaling feedback shows times a thousand times the real ones; the replay
    can only ask the recorded prompts if it takes the times from the recording's folder."""
    from fake_programs import CUBIC

    problems = load_domain_problems("heavy", 0, 2, tmp_path / "work", size_check=False)
    settings = SynthesisSettings(scaling_feedback=True)

    def record(folder: Path, answers: list[str]) -> Path:
        context = RunContext(folder=folder, model_name="fake", backend_name="fake", eval_timeout=30.0)
        return run_synthesis(problems, FakeLanguageModel(answers), settings, context).folder

    honest = record(tmp_path / "honest", ["Packing.", "Heaviest first.", fenced(CUBIC)])
    measured = json.loads((honest / "observations.json").read_text())
    slowed = {
        k: {**v, "seconds": v["seconds"] * 1000} if k.startswith("time/") else v for k, v in measured.items()
    }
    (tmp_path / "slowed").mkdir()
    (tmp_path / "slowed" / "observations.json").write_text(json.dumps(slowed))
    recorded = record(tmp_path / "slowed", ["Packing.", "Heaviest first.", fenced(CUBIC), fenced(CORRECT)])
    assert json.loads((recorded / "training.json").read_text())[0]["failure"] == "scaling"
    runs = tmp_path / "replayed"
    arguments = ["synthesize", "--domain", "heavy", "--no-size-check", "--scaling-feedback", "--n", "2"]
    code = main([*arguments, "--llm", f"replay:{recorded / 'conversation.jsonl'}", "--runs-dir", str(runs)])
    assert code == 0
    replayed = runs / "heavy" / "scaling-seed0"
    assert (replayed / "program.py").read_text() == (recorded / "program.py").read_text()
    assert (replayed / "training.json").read_text() == (recorded / "training.json").read_text()


@pytest.mark.parametrize("command", [["synthesize"], ["run", "--approach", "generalized-plan"]])
def test_a_replay_with_another_model_is_an_error_saying_how_to_set_it_up(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([*command, "--domain", "gripper", "--model", "gpt-4o", "--runs-dir", str(tmp_path)])
    assert code == 2
    error = capsys.readouterr().err
    assert "--model gpt-4o" in error and "claude" in error and "OPENAI_API_KEY" in error
    assert not (tmp_path / "gripper").exists()  # nothing ran, nothing recorded as gpt-4o


@pytest.mark.parametrize(
    "command", [["synthesize"], ["run", "--approach", "generalized-plan"], ["experiments", "--domains"]]
)
@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--max-tokens", "-5"], "argument --max-tokens: must be a positive integer"),
        (["--temperature", "-3"], "argument --temperature: must be a number from 0 to 2"),
        (["--request-timeout", "0"], "argument --request-timeout: must be a positive number"),
        (["--llm", "claude"], "argument --llm: use one of"),
    ],
)
def test_every_model_using_command_checks_the_model_flags(
    command: list[str], flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(
            [*command, "gripper", *flags]
            if command[0] == "experiments"
            else [*command, "--domain", "gripper", *flags]
        )
    assert caught.value.code == 2
    assert message in capsys.readouterr().err
