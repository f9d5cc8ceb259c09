"""Every saved generalized-plan run under synthesized/ replays to the same final program
(the ASP approach's saved runs: ``tests/approaches/asp/test_asp_saved_runs.py``).

Each recorded conversation is replayed through the real pipeline (``genplan synthesize --llm
replay:...``, hash seed fixed as the command line fixes it): the training checks must send the
same feedback, so the same answers are found in the recording, and the final program must be
byte-identical to the saved one. The saved metadata must match the recording.
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

SAVED = sorted(
    p.parent
    for p in data_folder("synthesized").glob("*/*/conversation.jsonl")
    if json.loads((p.parent / "metadata.json").read_text()).get("approach") == "generalized-plan"
)


@pytest.mark.slow
@pytest.mark.parametrize("saved", SAVED, ids=[f"{p.parent.name}/{p.name}" for p in SAVED])
def test_saved_conversation_replays_to_the_saved_program(saved: Path, tmp_path: Path) -> None:
    metadata = json.loads((saved / "metadata.json").read_text())
    flags = {"no-cot": "--no-cot", "no-debug": "--no-debug", "no-names": "--no-names"}
    variant_flags = [flags[part] for part in metadata["label"].split("+") if part in flags]
    if not metadata["details"]["size_check"]:
        variant_flags.append("--no-size-check")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "GENPLAN"))}
    env["PYTHONHASHSEED"] = "0"
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
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    solved = metadata["statuses"].get("solved", 0)
    row_start = (
        f"| {metadata['domain']} | {metadata['label']} | {metadata['details']['feedback_rounds_used']} |"
    )
    rows = [line for line in readme.splitlines() if line.startswith(row_start)]
    assert rows, f"README's saved-runs table has no row starting {row_start!r}"
    assert f"| {solved}/{metadata['evaluation_problems']} |" in rows[0]
