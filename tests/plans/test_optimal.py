"""Optimal plan lengths (Fast Downward A* with LM-cut, cached) and problem sets grouped by them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from blocks import OPTIMAL, TOWER, problem

from genplan.errors import ConfigurationError
from genplan.pddl.problem import Problem
from genplan.pddl.selection import (
    LengthSelection,
    PaperSelection,
    SmallSelection,
    load_selected_problems,
    parse_selection,
    select_by_length,
)
from genplan.plans import optimal
from genplan.plans.fast_downward import PlannerRun
from genplan.plans.optimal import OptimalLengths, optimal_plan, optimal_planner_available
from genplan.plans.validate import check_plan

needs_planner = pytest.mark.skipif(
    not optimal_planner_available(), reason="the planner extra is not installed"
)


@needs_planner
def test_the_optimal_length_comes_from_fast_downward_and_is_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = optimal_plan(problem(TOWER), cache_dir=tmp_path)
    assert answer.length == len(OPTIMAL) == 4 and not answer.timed_out
    assert check_plan(problem(TOWER), answer.plan).valid
    monkeypatch.setattr(optimal, "find_driver", lambda: None)  # no planner: only the cache can answer
    assert optimal_plan(problem(TOWER), cache_dir=tmp_path) == answer
    with pytest.raises(ConfigurationError, match="planner"):
        optimal_plan(problem(TOWER), cache_dir=tmp_path / "empty")


def test_a_timed_out_search_is_tried_again_only_with_a_larger_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[float] = []

    def fake_run(problem: object, driver: Path, **options: object) -> PlannerRun:
        runs.append(float(options["timeout"]))  # type: ignore[arg-type]
        return PlannerRun(None, float(options["timeout"]), True, "no plan in time")  # type: ignore[arg-type]

    monkeypatch.setattr(optimal, "find_driver", lambda: tmp_path / "fast-downward.py")
    monkeypatch.setattr(optimal, "run_planner", fake_run)
    assert optimal_plan(problem(), cache_dir=tmp_path, timeout=1.0).length is None
    optimal_plan(problem(), cache_dir=tmp_path, timeout=1.0)
    optimal_plan(problem(), cache_dir=tmp_path, timeout=5.0)
    assert runs == [1.0, 5.0]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("by-length:", "distinct lengths"),
        ("by-length:4,x", "integers"),
        ("lengths:4", "by-length:L1"),
        ("by-length:4,4", "distinct"),
    ],
)
def test_bad_selections_say_what_is_expected(spec: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        LengthSelection.parse(spec)


def test_a_selection_describes_itself() -> None:
    selection = LengthSelection.parse("by-length:4,8,12", 2)
    assert selection == LengthSelection((4, 8, 12), 2)
    assert selection.describe() == "by-length:4,8,12 x2" and selection.slug() == "by-length-4-8-12-x2"


@needs_planner
@pytest.mark.slow
def test_problems_by_length_have_the_optimal_lengths_asked_for(tmp_path: Path) -> None:
    selection = LengthSelection((2, 6), 2)
    problems = load_selected_problems(
        "blocksworld", 0, selection, tmp_path, labeller=OptimalLengths(tmp_path / "cache")
    )
    assert problems.selection == "by-length:2,6 x2" and len(problems.evaluation) == 4
    keys = list(problems.optimal_lengths)
    assert all(key.startswith("by-length/len") for key in keys)
    assert [problems.optimal_lengths[k] for k in keys] == [2, 2, 6, 6]
    for key, evaluated in zip(keys, problems.evaluation):
        assert optimal_plan(evaluated).length == problems.optimal_lengths[key]
    labels = json.loads(
        (tmp_path / "problems" / "blocksworld" / "seed0" / "by-length" / "labels.json").read_text()
    )
    assert sorted(labels.values()) == [2, 2, 6, 6]
    assert len(problems.training) == 10  # the domain's usual training problems


@needs_planner
@pytest.mark.slow
def test_the_same_seed_gives_the_same_problems_and_more_per_length_keeps_the_first(tmp_path: Path) -> None:
    labeller = OptimalLengths(tmp_path / "cache")
    two = select_by_length("blocksworld", 3, LengthSelection((4,), 2), tmp_path / "a", labeller)
    again = select_by_length("blocksworld", 3, LengthSelection((4,), 3), tmp_path / "b", labeller)
    other = select_by_length("blocksworld", 4, LengthSelection((4,), 2), tmp_path / "c", labeller)
    assert [p.name for p, _ in again][:2] == [p.name for p, _ in two]
    assert [p.read_text() for p, _ in again][:2] == [p.read_text() for p, _ in two]
    assert [p.read_text() for p, _ in other] != [p.read_text() for p, _ in two]


@needs_planner
def test_too_few_candidates_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="only 0 of 1 blocksworld problems of optimal length 3"):
        select_by_length(
            "blocksworld", 0, LengthSelection((3,), 1), tmp_path, OptimalLengths(), max_candidates=5
        )


def test_only_built_in_domains_can_be_selected_by_length(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="built-in domain"):
        load_selected_problems(str(tmp_path), 0, LengthSelection((4,), 1), tmp_path)


@needs_planner
def test_small_problems_come_from_the_training_distribution_with_their_optimal_lengths(
    tmp_path: Path,
) -> None:
    selection = parse_selection("small", count=2)
    assert selection == SmallSelection(2) and selection.slug() == "small-x2"
    problems = load_selected_problems(
        "logistics", 0, selection, tmp_path, labeller=OptimalLengths(tmp_path / "cache")
    )
    assert problems.selection == "small x2" and list(problems.optimal_lengths) == [
        "small/small-00.pddl",
        "small/small-01.pddl",
    ]
    for evaluated, length in zip(problems.evaluation, problems.optimal_lengths.values()):
        assert 2 <= len([o for o, t in evaluated.object_types.items() if t == "city"]) <= 3
        assert optimal_plan(evaluated).length == length


def test_a_selection_is_by_length_paper_or_small() -> None:
    assert parse_selection("by-length:2,4", per_length=3) == LengthSelection((2, 4), 3)
    assert parse_selection("paper", count=7) == PaperSelection(7)
    with pytest.raises(ConfigurationError, match="paper, small, planbench"):
        parse_selection("tiny")
    with pytest.raises(ConfigurationError, match="--n must be at least 1"):
        parse_selection("small", count=0)
    with pytest.raises(ConfigurationError, match="--n must be at least 1"):
        parse_selection("paper", count=0)


def test_a_candidate_dropped_by_another_run_at_the_same_time_is_no_error(tmp_path: Path) -> None:
    # Two runs choosing the same problems at once reject the same candidates; one may delete
    # a candidate file before the other does.
    def wrong_length_and_gone(problem: Problem) -> int:
        assert problem.source is not None
        problem.source.unlink()  # the other run dropped it already
        return 1

    with pytest.raises(ConfigurationError, match="only 0 of 1"):
        select_by_length(
            "blocksworld", 0, LengthSelection((4,), 1), tmp_path, wrong_length_and_gone, max_candidates=3
        )
