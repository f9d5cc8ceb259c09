"""The approach seam: run records, settings by name, problem keys, the registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.approaches import approach_names, get_approach
from genplan.approaches.base import (
    ProblemResult,
    RunRecord,
    changed_settings,
    problem_key,
    read_record,
    settings_from_mapping,
    write_record,
)
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings
from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import Problem


def _record() -> RunRecord:
    return RunRecord(
        approach="generalized-plan",
        label="main",
        settings={"timeout": 30.0},
        domain="gripper",
        seed=0,
        model="m",
        backend="fake",
        date="2026-11-25",
        problems=[
            ProblemResult("testing/easy/p01.pddl", "solved", 11, 0.5),
            ProblemResult("testing/hard/p01.pddl", "timeout", None, 30.0, "ran out of time"),
            ProblemResult("testing/hard/p02.pddl", "solved", 40, 1.5, details={"optimal": 38}),
        ],
        llm_calls=4,
        feedback={"plan-semantics": 1},
    )


def test_a_record_round_trips_through_its_files(tmp_path: Path) -> None:
    record = _record()
    write_record(tmp_path, record)
    again = read_record(tmp_path)
    assert again == record
    assert again.fraction_solved == pytest.approx(2 / 3)
    assert again.median_seconds == 1.0
    assert again.statuses == {"solved": 2, "timeout": 1}


def test_the_summary_figures_are_in_the_metadata() -> None:
    data = _record().to_json()
    assert data["evaluation_problems"] == 3 and data["solved"] == 2
    assert data["statuses"] == {"solved": 2, "timeout": 1}
    assert "problems" not in data


def test_settings_by_name_convert_to_the_field_types() -> None:
    settings = settings_from_mapping(
        SynthesisSettings, {"feedback-rounds": "2", "names": "false", "timeout": 5}
    )
    assert settings == SynthesisSettings(feedback_rounds=2, names=False, timeout=5.0)
    assert changed_settings(settings) == {"names": False, "feedback_rounds": 2, "timeout": 5.0}


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"rounds": 2}, "unknown setting 'rounds'"),
        ({"names": "maybe"}, "expected true or false"),
        ({"feedback_rounds": "two"}, "setting 'feedback_rounds'"),
    ],
)
def test_bad_settings_name_the_field(values: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        settings_from_mapping(SynthesisSettings, values, where="grid.toml")


def test_problems_are_keyed_by_their_path_within_the_set(tmp_path: Path) -> None:
    domain = load_domain(builtin_domain_file("gripper"))
    level = tmp_path / "testing" / "hard"
    problem = Problem("p01", domain, {}, frozenset(), frozenset(), level / "p01.pddl")
    assert problem_key(problem, tmp_path) == "testing/hard/p01.pddl"
    assert problem_key(problem, None) == "p01"
    assert problem_key(problem, tmp_path / "elsewhere") == "p01"


def test_the_registry_names_every_approach_and_rejects_unknown_ones() -> None:
    assert "generalized-plan" in approach_names()
    approach = get_approach("generalized-plan")
    assert approach.name == "generalized-plan"
    assert approach.label(SynthesisSettings(chain_of_thought=False, names=False)) == "no-cot+no-names"
    with pytest.raises(ConfigurationError, match="known approaches: generalized-plan"):
        get_approach("nope")
