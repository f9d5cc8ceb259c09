"""Reports for the LLM-as-planner runs: Wilson intervals, success within a query budget, success
by optimal length, cost per problem, written from run folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.approaches.base import ProblemResult, RunRecord, write_record
from genplan.experiments.intervals import wilson_interval
from genplan.experiments.planner_reports import (
    cost_of,
    cost_table,
    length_table,
    make_planner_reports,
    read_records,
    success_at_budget,
)


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    # Newcombe (Statistics in Medicine, 1998), Table I, method 3 (Wilson score, no continuity correction)
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)],
)
def test_wilson_intervals_match_published_values(
    successes: int, trials: int, low: float, high: float
) -> None:
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=1e-4)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(5, 5)[1] == 1.0
    with pytest.raises(ValueError, match=r"within 0\.\.3"):
        wilson_interval(4, 3)


def _result(
    key: str, solved: bool, queries: int | None, calls: int, length: int | None = None, **details: object
) -> ProblemResult:
    extra = dict(details)
    if length is not None:
        extra["optimal_length"] = length
        extra["optimal"] = solved and extra.pop("plan_length_equal", True)
    return ProblemResult(
        key,
        "solved" if solved else "budget-exhausted",
        4 if solved else None,
        1.0,
        None,
        calls,
        queries,
        extra,
    )


def _record(
    label: str, results: list[ProblemResult], budget: int | None = 20, queries: bool = True
) -> RunRecord:
    return RunRecord(
        approach=label.split("+")[0],
        label=label,
        settings={},
        domain="blocksworld",
        seed=0,
        model="claude",
        backend="files",
        date="2026-11-25",
        problems=results,
        llm_calls=sum(r.llm_calls or 0 for r in results),
        world_model_queries=sum(r.world_model_queries or 0 for r in results) if queries else None,
        details={"problem_set": "by-length:4,8 x2", "budget": budget},
    )


BOOMERANG = _record(
    "boomerang",
    [
        _result("len04-a", True, 4, 1, 4, prompt_tokens=None, prompt_characters=1000),
        _result(
            "len04-b", True, 9, 3, 4, plan_length_equal=False, prompt_tokens=None, prompt_characters=3000
        ),
        _result("len08-a", True, 15, 4, 8, prompt_tokens=None, prompt_characters=5000),
        _result("len08-b", False, 20, 6, 8, prompt_tokens=None, prompt_characters=7000),
    ],
)
IO = _record(
    "io",
    [
        _result(f"len0{n}-{c}", n == 4, None, 1, n, prompt_tokens=300, prompt_characters=1500)
        for n in (4, 8)
        for c in "ab"
    ],
    budget=None,
    queries=False,
)


def test_success_within_a_budget_counts_the_queries_each_solution_took() -> None:
    assert [success_at_budget(BOOMERANG, b) for b in (3, 4, 9, 15, 20)] == [0.0, 0.25, 0.5, 0.75, 0.75]
    assert success_at_budget(BOOMERANG, 21) is None  # beyond the run's own budget
    assert success_at_budget(IO, 0) == success_at_budget(IO, 100) == 0.5


def test_cost_per_problem_and_optimality() -> None:
    cost = cost_of(BOOMERANG)
    assert (cost.solved, cost.problems, cost.optimal) == (3, 4, (2, 4))
    assert cost.llm_calls == 3.5 and cost.queries == 12 and cost.prompt_tokens is None
    assert cost.prompt_characters == 4000
    table = cost_table([BOOMERANG, IO])
    assert "| boomerang | 3/4 75% (30-95) | 2/4 | 12.0 | 3.5 | n/a | n/a | 4,000 |" in table
    assert "| io | 2/4 50% (15-85) | 2/4 | n/a | 1.0 | 300 |" in table


def test_a_run_that_pays_per_domain_is_shown_per_problem() -> None:
    generalized = _record("main", [ProblemResult(f"p{i}", "solved", 3, 0.1) for i in range(4)], queries=False)
    generalized.llm_calls, generalized.prompt_tokens = 8, 4000
    cost = cost_of(generalized)
    assert cost.llm_calls == 2.0 and cost.prompt_tokens == 1000.0 and cost.queries is None


def test_success_by_optimal_length_with_intervals() -> None:
    table = length_table([BOOMERANG, IO])
    assert table.splitlines()[0] == "| run | length 4 | length 8 | total |"
    assert "| boomerang | 2/2 100% (34-100) | 1/2 50% (9-91) | 3/4 75% (30-95) |" in table
    assert length_table([_record("x", [_result("p", True, 1, 1)])]) == ""


def test_reports_are_written_from_run_folders(tmp_path: Path) -> None:
    write_record(tmp_path / "runs" / "boomerang-seed0", BOOMERANG)
    write_record(tmp_path / "runs" / "io-seed0", IO)
    records = read_records([tmp_path / "runs"])
    assert [r.label for r in records] == ["boomerang", "io"]
    written = make_planner_reports(records, tmp_path / "out")
    assert [p.name for p in written] == ["planners.md", "planners_success_by_budget.png"]
    text = written[0].read_text()
    assert "## blocksworld (by-length:4,8 x2), seed 0" in text and "Model: claude via files." in text
    assert "| run | B=5 | B=10 | B=15 | B=20 |" in text
    assert (
        "| boomerang | 0.25 | 0.50 | 0.75 | 0.75 |" in text and "| io | 0.50 | 0.50 | 0.50 | 0.50 |" in text
    )
    assert written[1].stat().st_size > 10_000
    assert make_planner_reports([], tmp_path / "none") == []
