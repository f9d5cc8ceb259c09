"""A run folder records its identity; a rerun with other values is refused, not replayed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from blocks import TOWER, TWO_MOVES, problem_set

from genplan.errors import ConfigurationError
from genplan.llm import FakeLanguageModel
from genplan.runs.session import RunContext, RunSession


@dataclass(frozen=True)
class Settings:
    rounds: int = 4


def _open(folder: Path, settings: Settings = Settings(), *texts: str, **context: object) -> RunSession:
    values = {"model_name": "m", "backend_name": "openai", "eval_timeout": 30.0, **context}
    return RunSession(
        "echo",
        "echo",
        settings,
        problem_set(*(texts or (TOWER,))),
        FakeLanguageModel([]),
        RunContext(folder, **values),  # type: ignore[arg-type]
        isolation=None,
    )


def test_the_identity_is_recorded_and_a_rerun_with_the_same_values_resumes(tmp_path: Path) -> None:
    _open(tmp_path, eval_timeout=5.0).close([])
    identity = json.loads((tmp_path / "identity.json").read_text())
    assert identity["eval_timeout"] == 5.0 and identity["model"] == "m" and identity["backend"] == "openai"
    assert identity["evaluation_problems"] == 1 and identity["problem_set"] == "folder"
    _open(tmp_path, eval_timeout=5.0)  # the same values: no complaint


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"eval_timeout": 10.0}, "eval_timeout: 5.0 there, 10.0 now"),
        ({"model_name": "other"}, "model: 'm' there, 'other' now"),
        ({"backend_name": "files"}, "backend: 'openai' there, 'files' now"),
        ({"seed": 1}, "seed: 0 there, 1 now"),
    ],
)
def test_a_rerun_with_other_values_is_refused_with_the_difference_named(
    tmp_path: Path, change: dict[str, object], named: str
) -> None:
    _open(tmp_path, eval_timeout=5.0).close([])
    before = (tmp_path / "metadata.json").read_text()
    with pytest.raises(ConfigurationError, match="holds a run made with other values") as refused:
        _open(tmp_path, **{"eval_timeout": 5.0, **change})
    assert named in str(refused.value) and "--runs-dir" in str(refused.value)
    assert (tmp_path / "metadata.json").read_text() == before


def test_other_evaluation_problems_or_settings_are_refused(tmp_path: Path) -> None:
    _open(tmp_path).close([])
    with pytest.raises(ConfigurationError, match="evaluation_problems: 1 there, 2 now"):
        _open(tmp_path, Settings(), TOWER, TWO_MOVES)
    with pytest.raises(ConfigurationError, match=r"settings\.rounds: 4 there, 2 now"):
        _open(tmp_path, Settings(rounds=2))


def test_a_folder_made_before_identity_files_is_compared_on_its_metadata(tmp_path: Path) -> None:
    _open(tmp_path).close([])
    (tmp_path / "identity.json").unlink()
    with pytest.raises(ConfigurationError, match="model: 'm' there, 'gpt-4o' now"):
        _open(tmp_path, model_name="gpt-4o")
