"""IPC quality and agile scores on worked examples, and reference costs from files."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from genplan.errors import ConfigurationError
from genplan.experiments.reports import make_reports, quality_table
from genplan.pddl.problem import load_problem
from genplan.plans.fast_downward import find_driver
from genplan.plans.references import load_references, planner_references, read_references
from genplan.plans.scores import Attempt, agile_score, quality_score, score

KEYS = ["testing/easy/p01.pddl", "testing/hard/p02.pddl"]


def test_quality_is_best_over_cost_capped_at_one() -> None:
    assert quality_score(12.0, 10.0) == pytest.approx(10 / 12)
    assert quality_score(8.0, 10.0) == 1.0  # better than the reference
    assert quality_score(None, 10.0) == 0.0  # unsolved
    assert quality_score(5.0, None) == 1.0  # nothing better known
    assert quality_score(0.0, 0.0) == 1.0


def test_agile_is_one_within_a_second_then_logarithmic_then_zero() -> None:
    assert agile_score(0.4, 300) == 1.0
    assert agile_score(10.0, 100.0) == pytest.approx(0.5)  # 1 - log 10 / log 100
    assert agile_score(100.0, 100.0) == pytest.approx(0.0)
    assert agile_score(101.0, 100.0) == 0.0  # past the limit
    assert agile_score(None, 100.0) == 0.0  # unsolved
    assert (agile_score(0.5, 0.5), agile_score(0.6, 0.5)) == (1.0, 0.0)


def test_the_best_plan_of_any_approach_sets_c_star() -> None:
    attempts = {
        "program": [Attempt(KEYS[0], 12.0, 0.5), Attempt(KEYS[1], None, None)],
        "lama-first": [Attempt(KEYS[0], 8.0, 2.0), Attempt(KEYS[1], 30.0, 150.0)],
    }
    sums = score(attempts, {KEYS[0]: 10.0, KEYS[1]: 20.0}, time_limit=100.0)
    program, lama = sums["program"], sums["lama-first"]
    assert program.per_problem[KEYS[0]]["best"] == 8.0  # LAMA's plan beat the reference
    assert program.quality == {"all": pytest.approx(8 / 12), "easy": pytest.approx(8 / 12), "hard": 0.0}
    assert lama.quality["all"] == pytest.approx(1 + 20 / 30)
    assert program.agile == {"all": 1.0, "easy": 1.0, "hard": 0.0}
    assert lama.agile["easy"] == pytest.approx(1 - math.log(2) / math.log(100))
    assert lama.agile["hard"] == 0.0  # solved, but past the limit
    assert program.problems == {"all": 2, "easy": 1, "hard": 1}


def test_costs_with_and_without_action_costs_score_alike() -> None:
    # unit costs: lengths; action costs: total costs; the score only sees costs
    unit = score({"a": [Attempt("p.pddl", 4.0, 0.1)]}, {"p.pddl": 3.0}, 30.0)["a"]
    general = score({"a": [Attempt("p.pddl", 12.0, 0.1)]}, {"p.pddl": 7.0}, 30.0)["a"]
    assert unit.quality["all"] == pytest.approx(0.75) and general.quality["all"] == pytest.approx(7 / 12)


def _write(tmp_path: Path, data: object, name: str = "refs.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_reference_file_with_and_without_the_ipc_prefix(tmp_path: Path) -> None:
    plain = _write(tmp_path, {KEYS[0]: 10, KEYS[1]: 20.5})
    prefixed = _write(
        tmp_path, {f"blocksworld/{KEYS[0]}": 10, f"blocksworld/{KEYS[1][:-5]}": 20.5}, "ub.json"
    )
    for path in (plain, prefixed):
        references = read_references(path, KEYS, "blocksworld")
        assert references.costs == {KEYS[0]: 10.0, KEYS[1]: 20.5}
        assert references.source == f"file {path}"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({KEYS[0]: 10}, r"refs\.json: no reference cost for testing/hard/p02\.pddl"),
        (
            {KEYS[0]: 10, KEYS[1]: "ten"},
            r"refs\.json: the reference cost of testing/hard/p02\.pddl is not a number",
        ),
        ({KEYS[0]: 10, KEYS[1]: True}, r"is not a number"),
        ({KEYS[0]: -1, KEYS[1]: 2}, r"refs\.json: the reference cost of testing/easy/p01\.pddl is negative"),
        ([1, 2], r"refs\.json: reference costs must be a JSON object"),
    ],
)
def test_bad_reference_files_are_errors_naming_the_file(tmp_path: Path, data: object, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        read_references(_write(tmp_path, data), KEYS, "blocksworld")


def test_null_means_no_reference_known(tmp_path: Path) -> None:
    references = read_references(_write(tmp_path, {KEYS[0]: None, KEYS[1]: 3}), KEYS)
    assert references.costs == {KEYS[0]: None, KEYS[1]: 3.0}


def test_references_json_beside_the_problems_is_found(tmp_path: Path) -> None:
    folder = tmp_path / "blocksworld"
    folder.mkdir()
    _write(folder, {KEYS[0]: 4, KEYS[1]: 5}, "references.json")
    problems = [(key, None) for key in KEYS]
    found = load_references(None, problems, folder=folder, cache_dir=None)  # type: ignore[arg-type]
    assert found is not None and found.costs[KEYS[1]] == 5.0
    assert load_references(None, problems, folder=tmp_path, cache_dir=None) is None  # type: ignore[arg-type]


@pytest.mark.skipif(find_driver() is None, reason="Fast Downward is not installed")
def test_planner_references_are_costs_of_checked_plans_and_cached(tmp_path: Path, monkeypatch) -> None:
    costs = Path(__file__).resolve().parents[1] / "data" / "costs"
    problem = load_problem(costs / "p01.pddl", costs / "domain.pddl")
    found = planner_references("optimal", [("p01.pddl", problem)], cache_dir=tmp_path, timeout=60)
    assert found.costs == {"p01.pddl": 7.0}  # the cheaper, longer plan through b
    assert found.source == "optimal (A* LM-cut, 60 s per problem)"
    assert len(list((tmp_path / "optimal").glob("*.json"))) == 1

    def no_planner(*args: object, **kwargs: object) -> None:
        raise AssertionError("the cache should have answered")

    monkeypatch.setattr("genplan.plans.references.run_planner", no_planner)
    again = planner_references("optimal", [("p01.pddl", problem)], cache_dir=tmp_path, timeout=60)
    assert again.costs == found.costs


def test_the_comparison_report_puts_quality_and_agile_side_by_side() -> None:
    def row(approach: str, key: str, status: str, cost: int | None, seconds: float) -> dict[str, object]:
        return {"domain": "rovers", "seed": 0, "approach": approach, "label": "main", "problem": key} | {
            "status": status,
            "plan_length": cost,
            "plan_cost": cost,
            "seconds": seconds,
        }

    rows = [
        row("generalized-plan", KEYS[0], "solved", 20, 0.1),
        row("generalized-plan", KEYS[1], "timeout", None, 30.0),
        row("lama-first", KEYS[0], "solved", 10, 3.0),
        row("lama-first", KEYS[1], "solved", 40, 0.5),
    ]
    table = quality_table(rows, time_limit=30.0)
    assert table is not None
    assert (
        "| domain | approach | label | runs | quality | quality easy | quality hard | agile | problems |"
        in table
    )
    agile = 1 - math.log(3) / math.log(30) + 1
    assert "| rovers | generalized-plan | main | 1 | 0.50 | 0.50 | 0.00 | 1.00 | 2 |" in table
    assert f"| rovers | lama-first | main | 1 | 2.00 | 1.00 | 1.00 | {agile:.2f} | 2 |" in table
    assert quality_table([]) is None


def test_the_reports_write_the_quality_table_beside_the_comparison(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    run = {"domain": "rovers", "seed": 0, "approach": "react", "label": "main", "fraction_solved": 1.0}
    problem = {
        **run,
        "problem": KEYS[0],
        "status": "solved",
        "plan_length": 4,
        "plan_cost": 4,
        "seconds": 0.2,
    }
    (results / "runs.jsonl").write_text(json.dumps(run) + "\n")
    (results / "problems.jsonl").write_text(json.dumps(problem) + "\n")
    written = make_reports(results, tmp_path / "reports")
    assert tmp_path / "reports" / "quality.md" in written
    # A run alone on its domain and seed has no C* but its own plan: no quality number (issue 33).
    assert (
        "| rovers | react | main | 1 | - | - | 1.00 | 1 |"
        in (tmp_path / "reports" / "quality.md").read_text()
    )


THREE = [*KEYS, "testing/hard/p03.pddl"]


def test_a_run_scored_alone_without_references_gets_no_quality_number() -> None:
    """Issue 33 item 5: with no reference (A* found none, or none given), one run's quality was
    its count of solved problems ("quality 3.00/3 ... references optimal")."""
    from genplan.plans.references import References
    from genplan.runs.quality import scores_json, scores_text

    attempts = {"run": [Attempt(key, 10.0, 0.5) for key in THREE]}
    references = References({key: None for key in THREE}, "optimal (A* LM-cut, 60 s per problem)")
    scores = scores_json(score(attempts, references.costs, 30.0)["run"], references, 30.0)
    assert scores["quality"] is None and scores["references_found"]["all"] == 0
    text = scores_text(scores)
    assert "quality not scored (references found 0/3)" in text and "3.00/3" not in text.split(";")[0]
    assert "agile 3.00/3" in text


def test_problems_without_a_reference_are_counted_apart() -> None:
    from genplan.plans.references import References
    from genplan.runs.quality import scores_json, scores_text

    attempts = {
        "run": [Attempt(THREE[0], 10.0, 0.5), Attempt(THREE[1], 10.0, 0.5), Attempt(THREE[2], 4.0, 0.5)]
    }
    references = References({THREE[0]: 5.0, THREE[1]: None, THREE[2]: None}, "file upper_bounds.json")
    scores = scores_json(score(attempts, references.costs, 30.0)["run"], references, 30.0)
    assert scores["quality"]["all"] == pytest.approx(0.5)  # only the problem with a reference
    assert scores["references_found"]["all"] == 1 and scores["problems"]["all"] == 3
    assert "quality 0.50/1" in scores_text(scores)
    assert "references found 1/3 (2 without one not scored for quality)" in scores_text(scores)
