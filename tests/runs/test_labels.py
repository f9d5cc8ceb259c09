"""Labels come from settings only: every changed setting is in the label, saved runs keep theirs."""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path
from typing import Any

import pytest

from genplan.approaches import approach_names, get_approach
from genplan.approaches.generalized_plan.settings import SynthesisSettings
from genplan.paths import data_folder
from genplan.runs.settings import settings_from_mapping

SAVED = sorted(data_folder("synthesized").glob("*/*/metadata.json"))


@pytest.mark.parametrize("metadata", SAVED, ids=[f"{p.parent.parent.name}/{p.parent.name}" for p in SAVED])
def test_a_saved_run_s_settings_give_its_label(metadata: Path) -> None:
    data = json.loads(metadata.read_text())
    approach = get_approach(data["approach"])
    assert approach.label(settings_from_mapping(approach.settings_type, data["settings"])) == data["label"]


def _other(hint: Any, value: Any) -> Any:
    """A valid value other than ``value`` for a field of type ``hint``."""
    if value == "maybe":  # ToI-DFS's rating threshold, one of impossible, maybe, sure
        return "sure"
    args = typing.get_args(hint)
    if typing.get_origin(hint) is typing.Literal:
        return next(a for a in args if a != value)
    if value is None:
        return 1
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    return f"{value} and more"


FIELDS = [
    (name, f.name) for name in approach_names() for f in dataclasses.fields(get_approach(name).settings_type)
]


@pytest.mark.parametrize(("name", "setting"), FIELDS, ids=[f"{n}.{s}" for n, s in FIELDS])
def test_each_changed_setting_changes_the_label(name: str, setting: str) -> None:
    approach = get_approach(name)
    defaults = approach.settings_type()
    hint = typing.get_type_hints(approach.settings_type)[setting]
    changed = dataclasses.replace(defaults, **{setting: _other(hint, getattr(defaults, setting))})
    assert approach.label(changed) != approach.label(defaults)


def test_feedback_rounds_no_longer_share_the_main_folder() -> None:
    settings = SynthesisSettings(feedback_rounds=2, timeout=5, prompt_problems=3)
    assert settings.label == "feedback-rounds-2+timeout-5+prompt-problems-3"
    assert get_approach("generalized-plan").label(settings) == settings.label
    autotos = get_approach("autotos")
    assert autotos.label(autotos.settings_type(max_calls=5)) == "autotos+max-calls-5"
