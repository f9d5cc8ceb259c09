"""Figure 3's measurements, the paper's tables, and the baselines (random walk, LAMA-first)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from fake_programs import CORRECT, heavy_problem

from genplan.baselines import lama, lama_available, random_walk, run_lama
from genplan.cli import main
from genplan.experiments.figure3 import measure_runtime_vs_size
from genplan.experiments.reports import (
    difficulty_table,
    feedback_table,
    figure3_points,
    figure3_table,
    figure4,
    figure4_series,
    figure5_counts,
    fraction_table,
    make_reports,
)
from genplan.plans.validate import check_plan


def test_tables_compute_mean_max_and_kind_shares() -> None:
    runs = [
        {"domain": "d", "approach": "main", "fraction_solved": 1.0, "feedback_kinds": ["timeout"]},
        {
            "domain": "d",
            "approach": "main",
            "fraction_solved": 0.5,
            "feedback_kinds": ["python-exception", "plan-syntax"],
        },
    ]
    assert "| d | 0.75 |" in fraction_table(runs, lambda v: sum(v) / len(v))
    assert "| d | 1.00 |" in fraction_table(runs, max)
    table2 = feedback_table(runs)
    assert "| timeout | 33% | 100% | 0% |" in table2
    assert "| python-exception | 33% | 0% | 50% |" in table2


def test_table_2_has_a_row_for_every_failure_kind_named_once() -> None:
    from genplan.experiments.reports import FEEDBACK_KINDS
    from genplan.plans.failures import FailureKind

    assert sorted(FEEDBACK_KINDS) == sorted(kind.value for kind in FailureKind)
    rows = [
        line.split("|")[1].strip() for line in feedback_table([]).splitlines()[2:] if line.startswith("|")
    ]
    assert rows == [*FEEDBACK_KINDS, "feedback messages"]


def test_scaling_feedback_is_its_own_kind_in_table_2() -> None:
    runs = [
        {
            "domain": "d",
            "approach": "scaling",
            "fraction_solved": 1.0,
            "feedback_kinds": ["scaling", "scaling"],
        },
        {"domain": "d", "approach": "main", "fraction_solved": 0.5, "feedback_kinds": ["timeout", "scaling"]},
    ]
    table2 = feedback_table(runs)
    assert "| scaling | 75% | 100% | 50% |" in table2 and "| timeout | 25% | 0% | 50% |" in table2


def test_problems_are_counted_by_ipc_difficulty_level() -> None:
    rows = [
        {
            "domain": "rovers",
            "approach": "generalized-plan",
            "label": "main",
            "problem": key,
            "status": status,
        }
        for key, status in [
            ("testing/easy/p01.pddl", "solved"),
            ("testing/easy/p02.pddl", "solved"),
            ("testing/medium/p01.pddl", "timeout"),
            ("testing/hard/p01.pddl", "solved"),
            ("testing/hard/p02.pddl", "timeout"),
        ]
    ]
    table = difficulty_table(rows)
    assert table is not None
    assert "| domain | approach | label | easy | medium | hard | all |" in table
    assert "| rovers | generalized-plan | main | 2/2 | 0/1 | 1/2 | 3/5 |" in table
    assert difficulty_table([{**rows[0], "problem": "eval/eval-00.pddl"}]) is None


def test_the_difficulty_report_names_the_problem_set_behind_it(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    run = {"domain": "rovers", "approach": "generalized-plan", "label": "main", "fraction_solved": 0.5}
    (results / "runs.jsonl").write_text(
        json.dumps({**run, "problem_set": "folder", "generators": None}) + "\n"
    )
    problems = [
        {**run, "problem": key, "status": status}
        for key, status in [("testing/easy/p01.pddl", "solved"), ("testing/hard/p01.pddl", "timeout")]
    ]
    (results / "problems.jsonl").write_text("".join(json.dumps(row) + "\n" for row in problems))
    make_reports(results, tmp_path / "out")
    report = (tmp_path / "out" / "difficulty.md").read_text()
    assert "Evaluation problems: folder.\n" in report
    assert "| rovers | generalized-plan | main | 1/1 | 0/1 | 1/2 |" in report


@pytest.mark.slow
def test_figure3_measurements(tmp_path: Path) -> None:
    records = measure_runtime_vs_size(
        "heavy", CORRECT, scales=(1, 2), per_size=1, timeout=20, work_dir=tmp_path, lama=lama_available()
    )
    program = [r for r in records if r["approach"] == "program"]
    assert [r["scale"] for r in program] == [1, 2] and all(r["solved"] for r in program)
    assert program[1]["objects"] > program[0]["objects"]
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "figure3.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    written = make_reports(tmp_path / "results", tmp_path / "out")
    assert {tmp_path / "out" / "figure3.png", tmp_path / "out" / "figure3.md"} <= set(written)


def test_figure3_table_gives_speed_ups_and_marks_time_outs_as_lower_bounds() -> None:
    def record(scale: int, approach: str, seconds: float, solved: bool) -> dict:
        return {
            "domain": "d",
            "scale": scale,
            "problem": "p",
            "objects": 10 * scale,
            "approach": approach,
            "seconds": seconds,
            "solved": solved,
        }

    table = figure3_table(
        [
            record(1, "program", 0.01, True),
            record(1, "lama-first", 2.0, True),
            record(8, "program", 0.5, True),
            record(8, "lama-first", 30.0, False),
        ]
    )
    assert "| d | 1x | 10 | 0.01 | 1/1 | 2 | 1/1 | 200x |" in table
    assert "| d | 8x | 80 | 0.5 | 1/1 | 30 | 0/1 | >=60x |" in table


def test_random_walk_baseline() -> None:
    problem = heavy_problem("h", 2)
    results = [random_walk(problem, random.Random(seed)) for seed in range(20)]
    assert {r.stopped_because for r in results} <= {"goal", "dead end"}
    for result in results:
        assert check_plan(problem, result.plan).valid == result.reached_goal
    assert any(r.reached_goal for r in results) and not all(r.reached_goal for r in results)


@pytest.mark.skipif(not lama_available(), reason="the planner extra (up-fast-downward) is not installed")
def test_lama_first_baseline_plans_are_validated() -> None:
    problem = heavy_problem("h", 12)
    result = run_lama(problem, timeout=60)
    assert result.plan is not None and not result.timed_out
    assert check_plan(problem, result.plan).valid
    assert run_lama(problem, timeout=0.01).timed_out


# A stand-in for Fast Downward's driver: like the real one, it starts a process of its own (the
# translator) that shares its output, then waits.
_PLANNER_WITH_A_CHILD = """
import pathlib, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
pathlib.Path({pid_file!r}).write_text(str(child.pid))
time.sleep(120)
"""


def _running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "State:\tZ" not in status


def test_a_planner_time_out_kills_the_processes_the_planner_started(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pid_file = tmp_path / "child.pid"
    driver = tmp_path / "fake-downward.py"
    driver.write_text(_PLANNER_WITH_A_CHILD.format(pid_file=str(pid_file)))
    monkeypatch.setattr(lama, "_driver", lambda: driver)
    result = run_lama(heavy_problem("h", 4), timeout=2)
    assert result.timed_out and result.plan is None and result.seconds == 2
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while _running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(child), "the planner's own child process outlived the time-out"


@pytest.mark.slow  # an end-to-end job of several seconds
def test_figure3_resumes_appending_and_never_wipes_what_was_measured(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    earlier = {
        "domain": "gripper",
        "scale": 1,
        "problem": "gripper-eval-x1-00",
        "objects": 9,
        "approach": "program",
        "seconds": 0.01,
        "budget_seconds": 30.0,
        "solved": True,
    }
    out = results / "figure3.jsonl"
    out.write_text(json.dumps(earlier) + '\n{"domain": "heavy", "sca')  # Ctrl-C mid-line
    argv = ["experiments", "--figure3", "--domains", "heavy", "--scales", "1", "--per-size", "2"]
    argv += ["--results", str(results), "--runs-dir", str(tmp_path / "runs"), "--eval-timeout", "20"]
    assert main(argv) == 0
    first = [json.loads(line) for line in out.read_text().splitlines()]
    assert first[0] == earlier  # another domain's measurement is kept; the torn line is cut
    heavy = [(r["problem"], r["approach"]) for r in first[1:]]
    assert ("heavy-eval-00", "program") in heavy and ("heavy-eval-01", "program") in heavy
    assert len(heavy) == len(set(heavy)) and all(r["domain"] == "heavy" for r in first[1:])
    assert main(argv) == 0  # a rerun measures nothing again
    assert [json.loads(line) for line in out.read_text().splitlines()] == first


def _paper_run(domain: str, label: str, steps: list[float], used: int, seed: int = 0) -> dict:
    return {
        "domain": domain,
        "seed": seed,
        "approach": label,  # as paper_runs shapes them: the label
        "fraction_solved": steps[-1],
        "steps": [{"fraction_solved": value} for value in steps],
        "training_problems_used": list(range(used)),
    }


def test_figure4_has_a_curve_per_label_never_an_average_across_labels(tmp_path: Path) -> None:
    runs = [
        _paper_run("miconic", "main", [0.0, 1.0], 3),
        _paper_run("miconic", "no-debug", [0.17], 2),
        _paper_run("miconic", "main", [0.5, 0.5, 1.0], 3, seed=1),
    ]
    series = figure4_series(runs)
    assert list(series) == ["main", "no-debug"]
    assert series["main"]["miconic"] == pytest.approx([0.25, 0.75, 1.0, 1.0, 1.0])  # mean over seeds
    assert series["no-debug"]["miconic"] == pytest.approx([0.17] * 5)
    assert figure4(runs, tmp_path / "figure4.png") == tmp_path / "figure4.png"
    no_steps = [{**run, "steps": []} for run in runs]
    assert (
        figure4_series(no_steps) == {} and figure4(no_steps, tmp_path / "none.png") is None
    )  # no empty axes
    assert not (tmp_path / "none.png").exists()


def test_figure5_counts_per_label() -> None:
    runs = [
        _paper_run("heavy", "main", [1.0], 3),
        _paper_run("gripper", "main", [1.0], 3),
        _paper_run("heavy", "no-cot", [1.0], 5),
        _paper_run("ferry", "no-cot", [0.5], 2),  # not every problem solved: not counted
    ]
    assert figure5_counts(runs) == {"main": {3: 2}, "no-cot": {5: 1}}


def test_figure3_marks_time_outs_instead_of_drawing_them_as_measured() -> None:
    def record(scale: int, approach: str, seconds: float, solved: bool, problem: str = "p") -> dict:
        return {
            "domain": "d",
            "scale": scale,
            "problem": problem,
            "objects": 10 * scale,
            "approach": approach,
            "seconds": seconds,
            "budget_seconds": 30.0,
            "solved": solved,
        }

    points = figure3_points(
        [
            record(1, "lama-first", 2.0, True),
            record(8, "lama-first", 30.0, False, "a"),
            record(8, "lama-first", 30.0, False, "b"),
            record(8, "lama-first", 3.0, True, "c"),
            record(8, "program", 0.5, True),
        ]
    )
    assert points[("d", "lama-first")] == [(10, 2.0, False), (80, 30.0, True)]
    assert points[("d", "program")] == [(80, 0.5, False)]


def test_the_planners_budget_figure_draws_every_line_differently() -> None:
    from genplan.experiments.planner_reports import line_styles

    styles = line_styles(6)
    assert len({(style, marker) for style, marker, _ in styles}) == 6
    assert [width for _, _, width in styles] == sorted((width for _, _, width in styles), reverse=True)
    assert styles[0][2] > styles[1][2]  # a line drawn over an identical one leaves it visible
