"""Every saved ASP run under synthesized/ replays to the same final encoding, taking every check's
clingo outcome from its observations.json (so the replay asks the recorded prompts on any machine,
quickly), and its record matches its recording and the manual (docs/approaches/asp.md)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from manual import manual_text
from shipped import shipped

from genplan.approaches.asp.settings import AspSettings
from genplan.llm import read_recording

SAVED = sorted(
    p.parent
    for p in shipped("*/*/conversation.jsonl")  # not a run a user saved here
    if json.loads((p.parent / "metadata.json").read_text()).get("approach") == "asp"
)
IDS = [f"{p.parent.name}/{p.name}" for p in SAVED]


def setting_flags(settings: dict[str, object]) -> list[str]:
    """The ``genplan run`` flags that reproduce ``settings`` (those that differ from the defaults)."""
    default = AspSettings()
    flags: list[str] = []
    for field in dataclasses.fields(AspSettings):
        value = settings.get(field.name, getattr(default, field.name))
        if value == getattr(default, field.name):
            continue
        flag = "--" + field.name.replace("_", "-")
        if isinstance(value, bool):
            flags.append(flag if value else "--no-" + flag[2:])
        else:
            flags += [flag, str(value)]
    return flags


def test_setting_flags_reproduce_changed_settings() -> None:
    assert setting_flags({"revisions": 2, "successor_check": False, "max_horizon": 130}) == [
        "--revisions",
        "2",
        "--no-successor-check",
    ]


@pytest.mark.slow
@pytest.mark.parametrize("saved", SAVED, ids=IDS)
def test_saved_conversation_replays_to_the_saved_encoding(saved: Path, tmp_path: Path) -> None:
    metadata = json.loads((saved / "metadata.json").read_text())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "GENPLAN"))}
    command = [
        sys.executable,
        "-m",
        "genplan",
        "run",
        "--approach",
        "asp",
        "--domain",
        metadata["domain"],
        "--seed",
        str(metadata["seed"]),
        *setting_flags(metadata["settings"]),
        *([] if metadata["details"].get("size_check", True) else ["--no-size-check"]),
        "--llm",
        f"replay:{saved / 'conversation.jsonl'}",
        "--n",
        "0",  # the encoding and its revisions replay; evaluating it again would only take time
        "--runs-dir",
        str(tmp_path),
    ]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, result.stderr[-3000:]
    replayed = tmp_path / metadata["domain"] / f"{metadata['label']}-seed{metadata['seed']}"
    assert (replayed / "encoding.lp").read_text() == (saved / "encoding.lp").read_text()
    rounds = [
        {k: r[k] for k in ("stage", "feedback", "changed")}
        for r in json.loads((replayed / "revisions.json").read_text())
    ]
    saved_rounds = [
        {k: r[k] for k in ("stage", "feedback", "changed")}
        for r in json.loads((saved / "revisions.json").read_text())
    ]
    assert rounds == saved_rounds
    # Nothing was solved again: every check's outcome came from the saved run's observations, and
    # the saved file holds exactly the outcomes the replay needed.
    details = json.loads((replayed / "metadata.json").read_text())["details"]
    assert details["check_clingo_runs"]["made"] == 0, details["check_clingo_runs"]
    assert details["check_clingo_runs"]["reused"] > 0
    observed = json.loads((replayed / "observations.json").read_text())
    assert observed == json.loads((saved / "observations.json").read_text())


@pytest.mark.parametrize("saved", SAVED, ids=IDS)
def test_saved_metadata_matches_its_recording(saved: Path) -> None:
    metadata = json.loads((saved / "metadata.json").read_text())
    exchanges = read_recording(saved / "conversation.jsonl")
    assert {e.model for e in exchanges} == {metadata["model"]}
    assert len(exchanges) == metadata["llm_calls"]
    results = json.loads((saved / "results.json").read_text())
    assert len(results) == metadata["evaluation_problems"]
    assert sum(r["status"] == "solved" for r in results) == metadata["solved"]
    for name in metadata["artifacts"]:
        assert (saved / name).is_file(), name


@pytest.mark.parametrize("saved", SAVED, ids=IDS)
def test_the_manual_lists_each_saved_run_with_its_result(saved: Path) -> None:
    metadata = json.loads((saved / "metadata.json").read_text())
    written = manual_text()
    row_start = f"| {metadata['domain']} | {metadata['label']} | {metadata['details']['revisions_used']} |"
    rows = [line for line in written.splitlines() if line.startswith(row_start)]
    assert rows, f"the manual's table of saved ASP runs has no row starting {row_start!r}"
    assert f"| {metadata['solved']}/{metadata['evaluation_problems']} |" in rows[0]
