"""Grids by flags and TOML files: approaches with settings by name, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.errors import ConfigurationError
from genplan.experiments.grid_file import build_grid, read_grid_file
from genplan.experiments.spec import ApproachSpec, GridSpec, grid_cells, parse_seeds
from genplan.paths import builtin_domain_file, data_folder
from genplan.pddl.problem_sets import domain_short_name

ROOT = Path(__file__).resolve().parents[2]


def test_approach_flags_give_settings_by_name() -> None:
    assert ApproachSpec.parse("generalized-plan") == ApproachSpec("generalized-plan")
    spec = ApproachSpec.parse("generalized-plan:chain-of-thought=false, feedback-rounds=2,label=cot2")
    assert spec == ApproachSpec(
        "generalized-plan", (("chain-of-thought", "false"), ("feedback-rounds", "2")), "cot2"
    )
    with pytest.raises(ConfigurationError, match="is not key=value"):
        ApproachSpec.parse("generalized-plan:no-cot")


def test_cells_take_the_approach_s_label_and_typed_settings() -> None:
    spec = GridSpec(
        ("heavy",),
        (0, 1),
        (
            ApproachSpec("generalized-plan"),
            ApproachSpec("generalized-plan", (("names", "no"), ("feedback_rounds", 2))),
        ),
    )
    cells = grid_cells(spec)
    assert [c.id for c in cells] == [
        "heavy/generalized-plan/main-seed0",
        "heavy/generalized-plan/no-names+feedback-rounds-2-seed0",
        "heavy/generalized-plan/main-seed1",
        "heavy/generalized-plan/no-names+feedback-rounds-2-seed1",
    ]
    assert cells[1].settings.names is False and cells[1].settings.feedback_rounds == 2


@pytest.mark.parametrize(
    ("approach", "message"),
    [
        (
            ApproachSpec("no-such-approach"),
            "unknown approach 'no-such-approach'; known approaches: generalized-plan",
        ),
        (ApproachSpec("generalized-plan", (("colour", "red"),)), "unknown setting 'colour'"),
        (ApproachSpec("generalized-plan", (("feedback-rounds", "many"),)), "setting 'feedback-rounds'"),
    ],
)
def test_bad_approaches_are_named(approach: ApproachSpec, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        grid_cells(GridSpec(("heavy",), (0,), (approach,)))


def test_two_settings_get_two_labels_and_a_label_given_by_hand_is_kept() -> None:
    two = (ApproachSpec("generalized-plan"), ApproachSpec("generalized-plan", (("feedback-rounds", 2),)))
    assert [c.label for c in grid_cells(GridSpec(("heavy",), (0,), two))] == ["main", "feedback-rounds-2"]
    labelled = (two[0], ApproachSpec("generalized-plan", (("feedback-rounds", 2),), "two-rounds"))
    assert [c.label for c in grid_cells(GridSpec(("heavy",), (0,), labelled))] == ["main", "two-rounds"]


def test_seeds() -> None:
    assert parse_seeds("0-2,5") == (0, 1, 2, 5)
    assert parse_seeds([3, 4]) == (3, 4) and parse_seeds(7) == (7,)
    with pytest.raises(ConfigurationError, match="seeds"):
        parse_seeds("zero")


def test_the_paper_grid_file() -> None:
    spec = build_grid(read_grid_file(ROOT / "scripts" / "grids" / "paper.toml"))
    cells = grid_cells(spec)
    assert len(cells) == 7 * 10 * 4
    assert {c.label for c in cells} == {"main", "no-cot", "no-debug", "no-names"}
    assert spec.per_step and spec.model.replays_saved_runs and spec.runs_dir == Path("runs")
    assert spec.model.cache_dir == Path("runs") / "cache"


def test_a_grid_file_with_a_folder_domain_and_a_model(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "domain.pddl").write_text(builtin_domain_file("gripper").read_text())
    (tmp_path / "grid.toml").write_text(
        'domains = ["gripper", "mine"]\nseeds = [1]\n[model]\nllm = "openai"\nbase-url = "http://localhost:1/v1"\n'
        'model = "qwen"\n[[approach]]\nname = "generalized-plan"\nsettings = { debugging = false }\n'
    )
    spec = build_grid(read_grid_file(tmp_path / "grid.toml"))
    assert spec.domains == ("gripper", str(tmp_path / "mine"))
    assert spec.model.name == "qwen" and spec.model.backend.base_url == "http://localhost:1/v1"
    assert [c.id for c in grid_cells(spec)] == [
        "gripper/generalized-plan/no-debug-seed1",
        f"{domain_short_name(str(tmp_path / 'mine'))}/generalized-plan/no-debug-seed1",
    ]
    assert domain_short_name(str(tmp_path / "mine")).startswith("mine-")  # known by its content


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("seeds = [0\n", "not a valid TOML grid file"),
        ("colour = 1\n", r"unknown key\(s\) \['colour'\]"),
        ("[model]\nllm_backend = 'x'\n", r"\[model\]: unknown key"),
        ("[[approach]]\nsettings = {}\n", "approach 1 needs a name"),
        ("domains = ['atlantis']\n", "'atlantis' is neither a built-in domain"),
    ],
)
def test_grid_file_errors_name_the_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "grid.toml"
    path.write_text(text)
    with pytest.raises(ConfigurationError, match=message):
        build_grid(read_grid_file(path), str(path))


def test_saved_runs_are_the_default_model() -> None:
    spec = build_grid({"domains": "heavy"})
    assert spec.model.replays_saved_runs and spec.model.name == "saved"
    saved = data_folder("synthesized") / "heavy" / "main-seed0" / "conversation.jsonl"
    (cell,) = [c for c in grid_cells(spec) if c.label == "main"]
    assert spec.model.saved_recording(cell) == saved
    assert spec.model.recorded_name(cell) == "claude"
