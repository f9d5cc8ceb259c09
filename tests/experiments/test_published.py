"""The papers' published figures beside genplan's measured rows, in both report scripts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from genplan.experiments.published import PUBLISHED, beside_the_papers, matches
from genplan.paths import data_folder

ROOT = Path(__file__).resolve().parents[2]
SAVED_ASP = [
    data_folder("synthesized") / name / "asp-seed0" for name in ("mcp", "mcp-four-each", "mcp-two-rowers")
]


def _figure(approach: str, problem_set: str) -> list[str]:
    return [f.model for f in PUBLISHED if f.approach == approach and problem_set in f.problem_sets]


def test_runs_match_a_benchmark_by_approach_domain_and_problem_set() -> None:
    boomerang = next(f for f in PUBLISHED if f.approach == "boomerang")
    symplanner = next(f for f in PUBLISHED if f.approach == "symplanner")
    run = {"approach": "boomerang", "domain": "blocksworld", "problem_set": "planbench:by-length:2,4 x10"}
    assert matches(boomerang, run) and matches(symplanner, {**run, "approach": "symplanner"})
    assert matches(boomerang, {**run, "domain": "blocksworld-planbench-by-length-2-4-x10"})  # a grid cell
    assert not matches(boomerang, {**run, "problem_set": "planbench-hard"})
    assert not matches(symplanner, {**run, "approach": "symplanner", "problem_set": "planbench x20"})
    assert not matches(boomerang, {**run, "problem_set": "by-length:2,4 x10"})  # generated, not PlanBench's
    assert not matches(boomerang, {**run, "domain": "logistics"})
    assert _figure("symplanner", "planbench:by-length") == ["GPT-4.1", "GPT-4o", "GPT-4o-mini"]


def test_the_planner_report_prints_saved_runs_beside_the_papers_figure(tmp_path: Path) -> None:
    script = ROOT / "scripts" / "make_planner_reports.py"
    folders = [str(folder) for folder in SAVED_ASP]
    done = subprocess.run(
        [sys.executable, str(script), *folders, "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "planners.md").read_text()
    table = report.split("## Beside the papers' published figures")[1]
    assert "| genplan (english; 3 runs) | claude | 3 | 3/3 100.0% (44-100) | 5.00 / problem | - |" in table
    assert "| o1-preview | 17 | 7/17 41.2% (22-64) | - | - |" in table


def test_the_grid_report_prints_the_same_beside_its_comparison(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    rows = [json.loads((folder / "metadata.json").read_text()) for folder in SAVED_ASP]
    boomerang = {
        "approach": "boomerang",
        "label": "boomerang",
        "domain": "blocksworld-planbench-by-length-2-4-x10",
        "problem_set": "planbench:by-length:2,4 x10",
        "model": "claude",
        "seed": 0,
        "evaluation_problems": 20,
        "solved": 15,
        "fraction_solved": 0.75,
        "llm_calls": 30,
        "world_model_queries": 160,
    }
    (results / "runs.jsonl").write_text("".join(json.dumps(row) + "\n" for row in [*rows, boomerang]))
    script = ROOT / "scripts" / "make_reports.py"
    done = subprocess.run(
        [sys.executable, str(script), str(results), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    table = (
        (tmp_path / "out" / "comparison.md").read_text().split("## Beside the papers' published figures")[1]
    )
    assert "| claude | 20 | 15/20 75.0% (53-89) | 1.50 / problem | 8.00 / problem |" in table
    assert "| gpt-4-turbo | 600 | 468/600 78.0% (75-81) | 5.69 / problem | budget 20 |" in table
    assert "| claude | 3 | 3/3 100.0% (44-100) |" in table


def test_nothing_on_a_published_benchmark_adds_no_table() -> None:
    assert beside_the_papers([{"approach": "io", "domain": "gripper", "problem_set": "generated"}]) == ""


def test_the_generalized_plans_saved_runs_sit_beside_silver_et_als_table_1_by_label() -> None:
    rows = [
        json.loads((data_folder("synthesized") / "gripper" / f"{label}-seed0" / "metadata.json").read_text())
        for label in ("main", "no-names")
    ]
    table = beside_the_papers(rows)
    assert "| gripper, main | genplan (generated; 1 run) | claude | 30 | 30/30 100.0% (89-100) |" in table
    assert "| GPT-4 | 300 | 270/300 90.0% (86-93) |" in table  # Table 1, GPT-4, gripper
    assert "| GPT-4 | 300 | 30/300 10.0% (7-14) |" in table  # No Names: the label picks the column
    assert "0.80" not in table and "240/300" not in table  # no-cot was not run: its column is not shown


def test_table1_baselines_are_published_for_the_seven_domains() -> None:
    figures = {(f.approach, f.domain): f.success for f in PUBLISHED if f.approach in ("pg3", "pe", "pc")}
    domains = ("delivery", "forest", "gripper", "miconic", "ferry", "spanner", "heavy")
    assert set(figures) == {(a, d) for a in ("pg3", "pe", "pc") for d in domains}
    assert [figures[("pg3", d)] for d in domains] == [1.0] * 6 + [0.0]  # Silver et al., Table 1
    assert figures[("pc", "ferry")] == 0.90 and figures[("pe", "forest")] == 1.0
