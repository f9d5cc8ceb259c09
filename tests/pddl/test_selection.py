"""``--problems`` read once into a typed selection, carried as the object, composing with shipped sets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from genplan.cli import main
from genplan.errors import ConfigurationError
from genplan.experiments.grid import cell_request
from genplan.experiments.grid_file import build_grid
from genplan.experiments.spec import grid_cells
from genplan.llm import FakeLanguageModel
from genplan.pddl import selection as selection_module
from genplan.pddl.problem import Problem
from genplan.pddl.selection import (
    LengthSelection,
    PaperSelection,
    SetSelection,
    SmallSelection,
    load_selected_problems,
    parse_selection,
)
from genplan.plans.optimal import OptimalLengths, optimal_plan, optimal_planner_available
from genplan.requests import compose as composer
from genplan.requests.models import ChosenModel

# PlanBench Blocksworld instance-1: b on c, goal c on b.
INSTANCE_1_PLAN = "Action Sequence: (unstack b c), (put-down b), (pick-up c), (stack c b)"


@pytest.mark.parametrize(
    ("text", "per_length", "count", "expected"),
    [
        ("planbench", 20, None, SetSelection("planbench")),
        ("planbench-hard", 20, 7, SetSelection("planbench-hard", 7)),
        ("planbench:by-length:2,4", 3, None, LengthSelection((2, 4), 3, "planbench")),
        ("by-length:2,4", 3, None, LengthSelection((2, 4), 3)),
        ("paper", 20, None, PaperSelection(30)),
        ("small", 20, None, SmallSelection(30)),
    ],
)
def test_every_form_parses_to_its_typed_selection(
    text: str, per_length: int, count: int | None, expected: object
) -> None:
    assert parse_selection(text, per_length=per_length, count=count) == expected


def test_selections_of_a_shipped_set_name_their_folders_apart() -> None:
    by_length = LengthSelection((2, 4), 20, "planbench")
    assert (by_length.describe(), by_length.slug()) == (
        "planbench:by-length:2,4 x20",
        "planbench-by-length-2-4-x20",
    )
    assert (SetSelection("planbench").slug(), SetSelection("planbench", 5).describe()) == (
        "planbench",
        "planbench x5",
    )
    with pytest.raises(
        ConfigurationError, match=re.escape("after planbench: (e.g. planbench:by-length:2,4,6")
    ):
        parse_selection("planbench:lengths:2")
    with pytest.raises(ConfigurationError, match="planbench:by-length:2,4,6,8,10,12"):
        parse_selection("planbnech")


def test_genplan_run_reads_problems_once_and_carries_the_object(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, ``genplan run`` parsed ``--problems`` twice (its folder name, then its problems)."""
    parsed: list[str] = []
    real = selection_module.parse_selection

    def counting(text: str, **options: object) -> object:
        parsed.append(text)
        return real(text, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(selection_module, "parse_selection", counting)
    monkeypatch.setattr(
        composer, "build_model", lambda *_: ChosenModel(FakeLanguageModel([INSTANCE_1_PLAN]), "fake", "fake")
    )
    arguments = ["run", "--approach", "io", "--domain", "blocksworld", "--problems", "planbench", "--n", "1"]
    assert main([*arguments, "--runs-dir", str(tmp_path), "--llm", "manual", "--no-demonstration"]) == 0
    assert parsed == ["planbench"]
    shown = capsys.readouterr().out
    assert "Evaluation: 1/1 solved" in shown and "planbench x1 (PlanBench's problems" in shown
    assert (tmp_path / "blocksworld-planbench-x1").is_dir()


def test_the_grid_parses_its_selection_once_and_every_cell_gets_the_object() -> None:
    """Before, the grid kept ``--problems`` as text and every cell parsed it again."""
    spec = build_grid({"domains": "blocksworld", "problems": "planbench:by-length:2,4", "per_length": 3})
    assert spec.problems == LengthSelection((2, 4), 3, "planbench")
    assert all(cell_request(spec, cell).selection is spec.problems for cell in grid_cells(spec))
    counted = build_grid({"domains": "blocksworld", "problems": "planbench", "n": 4})
    assert counted.problems == SetSelection("planbench", 4)
    assert build_grid({"domains": "blocksworld"}).problems is None


def test_by_length_on_a_shipped_set_takes_the_first_of_each_length_in_file_order(tmp_path: Path) -> None:
    labelled: list[str] = []

    def by_objects(problem: Problem) -> int:  # a stand-in labeller: twice the number of blocks
        assert problem.source is not None
        labelled.append(problem.source.name)
        return 2 * len(problem.object_types)

    chosen = LengthSelection((10, 8), 2, "planbench")
    problems = load_selected_problems("blocksworld", 0, chosen, tmp_path, labeller=by_objects)
    keys = list(problems.optimal_lengths)
    assert [problems.optimal_lengths[key] for key in keys] == [10, 10, 8, 8]
    assert [p.source for p in problems.evaluation] == [  # type: ignore[union-attr]
        problems.root / key
        for key in keys  # type: ignore[operator]
    ]
    four = [name for name in labelled if name in {Path(k).name for k in keys[:2]}]
    assert four == [Path(k).name for k in keys[:2]]  # the first ones met, in file order
    assert labelled[0] == "instance-1.pddl" and len(labelled) < 501  # stops once every length is full
    assert problems.problem_set == "planbench:by-length:10,8 x2"
    with pytest.raises(ConfigurationError, match="too few blocksworld problems of these optimal lengths"):
        load_selected_problems(
            "blocksworld", 0, LengthSelection((3,), 1, "planbench"), tmp_path, labeller=by_objects
        )
    with pytest.raises(ConfigurationError, match="needs optimal plan lengths"):
        load_selected_problems("blocksworld", 0, chosen, tmp_path)


@pytest.mark.slow  # an end-to-end job of several seconds
@pytest.mark.skipif(not optimal_planner_available(), reason="the planner extra is not installed")
def test_symplanners_protocol_on_planbench_labels_with_fast_downward_and_caches(tmp_path: Path) -> None:
    labeller = OptimalLengths(tmp_path / "cache" / "optimal")
    chosen = parse_selection("planbench:by-length:2,4", per_length=2)
    problems = load_selected_problems("blocksworld", 0, chosen, tmp_path, labeller=labeller)
    assert list(problems.optimal_lengths.values()) == [2, 2, 4, 4]
    for evaluated, length in zip(problems.evaluation, problems.optimal_lengths.values()):
        assert optimal_plan(evaluated).length == length
    cached = sorted((tmp_path / "cache" / "optimal").rglob("*.json"))
    assert cached  # a second selection reads the labels from the cache, without the planner
    assert load_selected_problems("blocksworld", 0, chosen, tmp_path, labeller=labeller).optimal_lengths == (
        problems.optimal_lengths
    )
    assert sorted((tmp_path / "cache" / "optimal").rglob("*.json")) == cached
