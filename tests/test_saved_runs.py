"""Every saved run under synthesized/ replays to the same final program.

Each recorded conversation is replayed through the real pipeline (``genplan synthesize --llm
replay:...`` for the generalized plan, ``genplan run --approach autotos`` for AutoToS, hash seed
fixed as the command line fixes it): the checks must send the same feedback, so the same answers
are found in the recording, and the final program must be byte-identical to the saved one. The
saved metadata must match the recording, and the README's table must list the run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from genplan.llm import read_recording
from genplan.paths import data_folder

ROOT = Path(__file__).resolve().parents[1]
ALL_SAVED = sorted(p.parent for p in data_folder("synthesized").glob("*/*/conversation.jsonl"))


def _approach(folder: Path) -> str:
    return json.loads((folder / "metadata.json").read_text()).get("approach", "generalized-plan")


SAVED = [p for p in ALL_SAVED if _approach(p) == "generalized-plan"]
AUTOTOS = [p for p in ALL_SAVED if _approach(p) == "autotos"]


def _replay_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "GENPLAN"))}
    env["PYTHONHASHSEED"] = "0"
    return env


@pytest.mark.slow
@pytest.mark.parametrize("saved", SAVED, ids=[f"{p.parent.name}/{p.name}" for p in SAVED])
def test_saved_conversation_replays_to_the_saved_program(saved: Path, tmp_path: Path) -> None:
    metadata = json.loads((saved / "metadata.json").read_text())
    flags = {"no-cot": "--no-cot", "no-debug": "--no-debug", "no-names": "--no-names"}
    variant_flags = [flags[part] for part in metadata["label"].split("+") if part in flags]
    if not metadata["details"]["size_check"]:
        variant_flags.append("--no-size-check")
    env = _replay_env()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "genplan",
            "synthesize",
            "--domain",
            metadata["domain"],
            "--seed",
            str(metadata["seed"]),
            *variant_flags,
            "--llm",
            f"replay:{saved / 'conversation.jsonl'}",
            "--n",
            "2",
            "--runs-dir",
            str(tmp_path),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    replayed = tmp_path / metadata["domain"] / f"{metadata['label']}-seed{metadata['seed']}"
    assert (replayed / "program.py").read_text() == (saved / "program.py").read_text()
    assert json.loads((replayed / "training.json").read_text()) == json.loads(
        (saved / "training.json").read_text()
    )


@pytest.mark.parametrize("saved", SAVED, ids=[f"{p.parent.name}/{p.name}" for p in SAVED])
def test_saved_metadata_matches_its_recording(saved: Path) -> None:
    metadata = json.loads((saved / "metadata.json").read_text())
    exchanges = read_recording(saved / "conversation.jsonl")
    assert exchanges, "empty conversation"
    assert {e.model for e in exchanges} == {metadata["model"]}
    opening = 3 if "no-cot" not in metadata["label"] else 1
    assert len(exchanges) == opening + metadata["details"]["feedback_rounds_used"]
    results = json.loads((saved / "results.json").read_text())
    assert len(results) == metadata["evaluation_problems"]
    solved = sum(r["status"] == "solved" for r in results)
    assert solved / len(results) == pytest.approx(metadata["fraction_solved"])


@pytest.mark.parametrize("saved", SAVED, ids=[f"{p.parent.name}/{p.name}" for p in SAVED])
def test_readme_lists_each_saved_run_with_its_result(saved: Path) -> None:
    metadata = json.loads((saved / "metadata.json").read_text())
    readme = (ROOT / "README.md").read_text()
    solved = metadata["statuses"].get("solved", 0)
    row_start = (
        f"| {metadata['domain']} | {metadata['label']} | {metadata['details']['feedback_rounds_used']} |"
    )
    rows = [line for line in readme.splitlines() if line.startswith(row_start)]
    assert rows, f"README's saved-runs table has no row starting {row_start!r}"
    assert f"| {solved}/{metadata['evaluation_problems']} |" in rows[0]


def _settings_flags(settings: dict[str, object]) -> list[str]:
    """The ``genplan run`` flags that reproduce an AutoToS run's settings."""
    flags = []
    for name, value in settings.items():
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            flags.append(flag if value else "--no-" + name.replace("_", "-"))
        else:
            flags += [flag, str(value)]
    return flags


@pytest.mark.slow
@pytest.mark.parametrize("saved", AUTOTOS, ids=[f"{p.parent.name}/{p.name}" for p in AUTOTOS])
def test_saved_autotos_conversation_replays_to_the_saved_components(saved: Path, tmp_path: Path) -> None:
    metadata = json.loads((saved / "metadata.json").read_text())
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "genplan",
            "run",
            "--approach",
            "autotos",
            "--domain",
            metadata["domain"],
            "--seed",
            str(metadata["seed"]),
            *_settings_flags(metadata["settings"]),
            "--llm",
            f"replay:{saved / 'conversation.jsonl'}",
            "--n",
            "0",
            "--runs-dir",
            str(tmp_path),
        ],
        env=_replay_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    replayed = tmp_path / metadata["domain"] / f"{metadata['label']}-seed{metadata['seed']}"
    assert (replayed / "components.py").read_text() == (saved / "components.py").read_text()
    assert json.loads((replayed / "feedback.json").read_text()) == json.loads(
        (saved / "feedback.json").read_text()
    )


@pytest.mark.parametrize("saved", AUTOTOS, ids=[f"{p.parent.name}/{p.name}" for p in AUTOTOS])
def test_saved_autotos_metadata_matches_its_recording(saved: Path) -> None:
    metadata = json.loads((saved / "metadata.json").read_text())
    exchanges = read_recording(saved / "conversation.jsonl")
    assert {e.model for e in exchanges} == {metadata["model"]}
    assert len(exchanges) == metadata["llm_calls"] == sum(metadata["details"]["calls_per_component"].values())
    feedback = json.loads((saved / "feedback.json").read_text())
    assert sum(metadata["feedback"].values()) == len(feedback)
    results = json.loads((saved / "results.json").read_text())
    assert sum(r["status"] == "solved" for r in results) == metadata["solved"]


@pytest.mark.parametrize("saved", AUTOTOS, ids=[f"{p.parent.name}/{p.name}" for p in AUTOTOS])
def test_readme_lists_each_saved_autotos_run(saved: Path) -> None:
    metadata = json.loads((saved / "metadata.json").read_text())
    phases = metadata["feedback"]
    row = (
        f"| {metadata['domain']} | {metadata['label']} | {metadata['llm_calls']} | "
        f"{phases['goal']} / {phases['successor-soundness']} / {phases['successor-completeness']} | "
        f"{metadata['solved']}/{metadata['evaluation_problems']} |"
    )
    readme = (ROOT / "README.md").read_text()
    assert any(line.startswith(row) for line in readme.splitlines()), f"README has no row starting {row!r}"


def test_the_replay_flags_reproduce_an_autotos_runs_settings() -> None:
    from genplan.approaches.autotos.settings import AutoToSSettings
    from genplan.approaches.base import settings_to_json
    from genplan.cli import build_parser
    from genplan.cli.settings_options import settings_from_arguments

    settings = AutoToSSettings(checks="partial", completeness_test=False, search_seconds=60.0, max_calls=12)
    arguments = [
        "run",
        "--approach",
        "autotos",
        "--domain",
        "gripper",
        *_settings_flags(settings_to_json(settings)),
    ]
    assert settings_from_arguments(build_parser(arguments).parse_args(arguments), AutoToSSettings) == settings
