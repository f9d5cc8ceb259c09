"""The problem flags (genplan.cli.problem_options) and which generator version a run uses
(genplan.requests.compose.chosen_generators)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from genplan.cli import main
from genplan.cli.problem_options import add_problem_arguments
from genplan.llm import BackendKind, BackendSpec
from genplan.paths import data_folder
from genplan.requests.compose import chosen_generators
from genplan.requests.request import RunRequest

SAVED = data_folder("synthesized") / "heavy" / "main-seed0" / "conversation.jsonl"


def _args(*flags: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_problem_arguments(parser)
    return parser.parse_args(list(flags))


def choose_generators(args: argparse.Namespace, backend: BackendSpec | None = None) -> tuple[str, str | None]:
    return chosen_generators(RunRequest("generalized-plan", "heavy", generators=args.generators), backend)


def test_the_current_generators_unless_a_recording_or_the_flag_says_otherwise(tmp_path: Path) -> None:
    assert choose_generators(_args()) == ("v2", None)
    assert choose_generators(_args(), BackendSpec(BackendKind.OPENAI)) == ("v2", None)
    version, note = choose_generators(_args(), BackendSpec.parse(f"replay:{SAVED}"))
    assert version == "v1" and note is not None and "--generators v2" in note  # the saved runs' problems
    assert choose_generators(_args("--generators", "v2"), BackendSpec.parse(f"replay:{SAVED}")) == (
        "v2",
        None,
    )
    elsewhere = tmp_path / "conversation.jsonl"  # a recording with no metadata beside it
    elsewhere.write_text("")
    assert choose_generators(_args(), BackendSpec.parse(f"replay:{elsewhere}")) == ("v2", None)
    (tmp_path / "metadata.json").write_text(json.dumps({"generators": "v2"}))
    assert choose_generators(_args(), BackendSpec.parse(f"replay:{elsewhere}")) == ("v2", None)


def test_an_unknown_version_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _args("--generators", "v9")
    assert "invalid choice: 'v9'" in capsys.readouterr().err


def test_generate_writes_either_version(tmp_path: Path) -> None:
    for version in ("v1", "v2"):
        arguments = [
            "generate",
            "--domain",
            "gripper",
            "--split",
            "eval",
            "--n",
            "1",
            "--generators",
            version,
        ]
        assert main([*arguments, "--out", str(tmp_path / version)]) == 0
    assert "(gripper left)" in (tmp_path / "v1" / "eval-00.pddl").read_text()
    assert "(gripper gripper0)" in (tmp_path / "v2" / "eval-00.pddl").read_text()
