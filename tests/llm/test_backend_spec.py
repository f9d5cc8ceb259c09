"""The model backend parsed once (genplan.llm.spec): forms, options, the model a run records."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.approaches.generalized_plan.settings import SynthesisSettings
from genplan.errors import ConfigurationError
from genplan.experiments.spec import Cell, ModelSpec
from genplan.llm import BackendKind, BackendSpec
from genplan.paths import data_folder

SAVED = data_folder("synthesized") / "heavy" / "main-seed0" / "conversation.jsonl"


@pytest.mark.parametrize(
    ("text", "kind", "path"),
    [
        ("openai", BackendKind.OPENAI, None),
        ("manual", BackendKind.MANUAL, None),
        ("files:answers", BackendKind.FILES, Path("answers")),
        ("replay:runs/a:b/conversation.jsonl", BackendKind.REPLAY, Path("runs/a:b/conversation.jsonl")),
        (None, BackendKind.REPLAY, None),
    ],
)
def test_each_form_parses_once_into_kind_and_path(
    text: str | None, kind: BackendKind, path: Path | None
) -> None:
    spec = BackendSpec.parse(text)
    assert (spec.kind, spec.path) == (kind, path)
    if text is not None:
        assert str(spec) == text  # the --llm form round-trips


@pytest.mark.parametrize("text", ["claude", "files:", "replay", "replay:", "openai:gpt-4o", "manual:x"])
def test_malformed_forms_name_the_known_ones(text: str) -> None:
    with pytest.raises(ConfigurationError, match=r"files:DIR .*replay:PATH"):
        BackendSpec.parse(text)


@pytest.mark.parametrize(
    ("options", "flag"),
    [
        ({"max_tokens": -5}, "--max-tokens"),
        ({"max_tokens": 0}, "--max-tokens"),
        ({"temperature": -3.0}, "--temperature"),
        ({"temperature": float("nan")}, "--temperature"),
        ({"request_timeout": 0.0}, "--request-timeout"),
        ({"files_timeout": -1.0}, "--files-timeout"),
    ],
)
def test_options_out_of_range_are_refused_naming_the_flag(options: dict[str, float], flag: str) -> None:
    with pytest.raises(ConfigurationError, match=flag):
        BackendSpec.parse("openai", **options)


def test_the_recording_and_its_folder_come_from_the_object() -> None:
    spec = BackendSpec.parse(f"replay:{SAVED}")
    assert spec.recording == SAVED and spec.recorded_folder == SAVED.parent
    assert (
        BackendSpec.parse("files:x").recording is None and BackendSpec.parse("openai").recorded_folder is None
    )
    assert BackendSpec().replaying(SAVED).recording == SAVED


def test_a_replay_records_the_recording_s_model_and_refuses_another() -> None:
    assert BackendSpec.parse(f"replay:{SAVED}").recorded_model() == ("claude", None)
    assert BackendSpec.parse(f"replay:{SAVED}", model="claude").recorded_model() == ("claude", None)
    with pytest.raises(ConfigurationError) as caught:
        BackendSpec.parse(f"replay:{SAVED}", model="gpt-4o").recorded_model()
    message = str(caught.value)
    assert "--model gpt-4o" in message and "claude" in message
    assert "OPENAI_API_KEY" in message and "--base-url" in message  # how to set that model up


HEAVY_MAIN = Cell("heavy", "heavy", 0, "generalized-plan", "main", SynthesisSettings())
"""The grid cell of heavy's saved main run."""


@pytest.mark.parametrize(
    ("text", "model", "expected"),
    [
        ("files:x", None, "unknown"),
        ("manual", None, "unknown"),
        ("files:x", "claude", "claude"),
        ("openai", None, "gpt-4o"),
        ("openai", "llama3", "llama3"),
    ],
)
def test_the_grid_records_the_model_genplan_run_records(text: str, model: str | None, expected: str) -> None:
    backend = BackendSpec.parse(text, model=model)
    assert backend.recorded_model()[0] == expected
    grid_model = ModelSpec(backend)
    assert grid_model.recorded_name(HEAVY_MAIN) == expected  # was gpt-4o for files and manual
    assert grid_model.name == expected  # the run folders' model


def test_a_grid_replaying_saved_runs_refuses_another_model() -> None:
    grid_model = ModelSpec(BackendSpec(model="gpt-4o"))
    assert grid_model.name == "saved"
    with pytest.raises(ConfigurationError, match="--model gpt-4o"):
        grid_model.recorded_name(HEAVY_MAIN)
    assert ModelSpec().recorded_name(HEAVY_MAIN) == "claude"
