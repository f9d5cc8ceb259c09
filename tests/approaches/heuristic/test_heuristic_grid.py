"""The heuristic approach as a grid cell beside the generalized plan, AutoToS and LAMA-first, and in
the grid's reports: coverage, IPC quality and agile scores, search effort, and the paper's figures
beside its runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from heuristic_programs import BLIND, GOAL_COUNT, fenced
from oracles.components import GOAL, SUCCESSORS

from genplan.experiments.grid import run_grid
from genplan.experiments.journal import read_jsonl
from genplan.experiments.published import beside_the_papers
from genplan.experiments.reports import make_reports, search_table
from genplan.experiments.spec import ApproachSpec, Cell, GridSpec, ModelSpec
from genplan.llm import BackendKind, BackendSpec, FakeLanguageModel

EMPTY = "def get_plan(objects, init, goal):\n    return []\n"


def answers(cell: Cell) -> FakeLanguageModel:
    if cell.approach == "heuristic":
        return FakeLanguageModel([fenced(GOAL_COUNT), fenced(BLIND)])
    if cell.approach == "autotos":
        return FakeLanguageModel([fenced(SUCCESSORS["delivery"]), fenced(GOAL)])
    return FakeLanguageModel(["Summary.", "Strategy.", *[fenced(EMPTY)] * 10])


@pytest.mark.slow
def test_a_grid_runs_the_heuristic_approach_beside_the_others_and_reports_them_side_by_side(
    tmp_path: Path,
) -> None:
    spec = GridSpec(
        domains=("delivery",),
        seeds=(0,),
        approaches=(
            ApproachSpec("generalized-plan"),
            ApproachSpec("autotos", (("search-seconds", "5"),)),
            ApproachSpec("heuristic", (("candidates", "2"), ("training-problems", "2"))),
            ApproachSpec("lama-first"),
        ),
        model=ModelSpec(BackendSpec(BackendKind.FAKE, model="fake"), cache_dir=tmp_path / "runs" / "cache"),
        runs_dir=tmp_path / "runs",
        results_dir=tmp_path / "results",
        n_eval=2,
        eval_timeout=30,
    )
    summary = run_grid(spec, model_factory=answers)
    assert (summary.total, summary.finished, summary.failed) == (4, 4, 0)
    runs = {row["approach"]: row for row in read_jsonl(tmp_path / "results" / "runs.jsonl")}
    heuristic = runs["heuristic"]
    assert heuristic["label"] == "heuristic+candidates-2+training-problems-2"
    assert heuristic["fraction_solved"] == 1.0 and heuristic["llm_calls"] == 2
    assert heuristic["isolation"] == "bwrap" and heuristic["details"]["selected"] == 1
    written = {path.name for path in make_reports(tmp_path / "results", tmp_path / "reports")}
    assert {"comparison.md", "quality.md", "search.md"} <= written
    comparison = (tmp_path / "reports" / "comparison.md").read_text()
    assert "| delivery | heuristic | heuristic+candidates-2+training-problems-2 | 1 | 1.00 |" in comparison
    assert "| delivery | generalized-plan | main | 1 | 0.00 |" in comparison
    assert "| delivery | lama-first | lama-first | 1 | 1.00 | 0.0 |" in comparison
    assert "| delivery | autotos | autotos+search-seconds-5 | 1 |" in comparison
    quality = (tmp_path / "reports" / "quality.md").read_text()
    assert "| delivery | heuristic | heuristic+candidates-2+training-problems-2 | 1 | 2.00 |" in quality
    assert "| delivery | lama-first | lama-first | 1 |" in quality
    search = (tmp_path / "reports" / "search.md").read_text()
    assert "| delivery | heuristic | heuristic+candidates-2+training-problems-2 | 2 | 2 |" in search
    assert "| delivery | autotos | autotos+search-seconds-5 | 2 |" in search
    assert "generalized-plan" not in search and "lama-first" not in search  # they do not search


def test_the_search_table_gives_medians_of_the_recorded_figures() -> None:
    def row(approach: str, status: str, **figures: int) -> dict[str, object]:
        return {"domain": "d", "approach": approach, "label": approach, "status": status, "details": figures}

    rows = [
        row("heuristic", "solved", expanded=10, evaluated=30, generated=40),
        row("heuristic", "solved", expanded=20, evaluated=50, generated=60),
        row("heuristic", "search-timeout", expanded=900, evaluated=1000, generated=2000),
        row("autotos", "solved", expanded=7, generated=9),
        row("generalized-plan", "solved"),
    ]
    table = search_table(rows)
    assert table is not None
    assert "| d | heuristic | heuristic | 3 | 2 | 15 | 40 | 50 | 20 |" in table
    assert "| d | autotos | autotos | 1 | 1 | 7 | - | 9 | 7 |" in table
    assert "generalized-plan" not in table
    assert search_table([row("generalized-plan", "solved")]) is None


def test_runs_on_the_ipc_folders_sit_beside_the_papers_figures() -> None:
    runs = [
        {
            "approach": "heuristic",
            "domain": d,
            "problem_set": "folder",
            "evaluation_problems": 90,
            "solved": 45,
        }
        | {"llm_calls": 4, "model": "claude"}
        for d in ("childsnack", "spanner")
    ]
    table = beside_the_papers(runs)
    assert "| DeepSeek R1 | 90 | 22/90 24.4%" in table and "| DeepSeek R1 | 90 | 70/90 77.8%" in table
    assert "| none (WL-GOOSE, h^WLF_GPR) | 90 | 31/90" in table and "73/90" in table
    assert table.count("| claude | 90 | 45/90 50.0%") == 2
    generated = [{**runs[1], "problem_set": "generated"}]
    assert beside_the_papers(generated) == ""  # the built-in spanner is not the IPC benchmark
