"""Grids over any registered approach, run in this process with the scripted fake model:
records, resumption, failures, run folders, reports."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from grid_doubles import TOY, TOY_ENTRY, answers, folder_domain_name, small_domains, stable

from genplan.approaches import REGISTRY
from genplan.errors import ConfigurationError
from genplan.experiments.engines import PoolEngine
from genplan.experiments.grid import run_folder_of, run_grid
from genplan.experiments.journal import read_jsonl
from genplan.experiments.reports import comparison_table, make_reports
from genplan.experiments.spec import ApproachSpec, GridSpec, ModelSpec, grid_cells
from genplan.llm import BackendKind, BackendSpec, FakeLanguageModel

HEAVY, GRIPPER = folder_domain_name("heavy"), folder_domain_name("gripper")


@pytest.fixture(autouse=True)
def toy_approach(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(REGISTRY, TOY, TOY_ENTRY)


def small_grid(root: Path, **changes: object) -> GridSpec:
    spec = GridSpec(
        domains=small_domains(root / "domains"),
        seeds=(0, 1),
        approaches=(
            ApproachSpec("generalized-plan"),
            ApproachSpec("generalized-plan", (("chain-of-thought", "false"),)),
            ApproachSpec(TOY),
        ),
        model=ModelSpec(BackendSpec(BackendKind.FAKE, model="fake"), cache_dir=root / "runs" / "cache"),
        runs_dir=root / "runs",
        results_dir=root / "results",
        n_eval=2,
        eval_timeout=10,
        per_step=True,
    )
    return replace(spec, **changes)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> GridSpec:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(REGISTRY, TOY, TOY_ENTRY)
        spec = small_grid(tmp_path_factory.mktemp("grid"))
        summary = run_grid(spec, model_factory=answers)
    assert (summary.total, summary.finished, summary.failed) == (12, 12, 0)
    return spec


def test_every_cell_is_recorded_once_with_its_problems(finished: GridSpec) -> None:
    runs = read_jsonl(finished.results_dir / "runs.jsonl")
    assert sorted(r["cell"] for r in runs) == sorted(c.id for c in grid_cells(finished))
    assert {(r["approach"], r["label"]) for r in runs} == {
        ("generalized-plan", "main"),
        ("generalized-plan", "no-cot"),
        (TOY, "main"),
    }
    problems = read_jsonl(finished.results_dir / "problems.jsonl")
    assert len(problems) == 12 * 2
    assert {p["problem"] for p in problems if p["domain"] == HEAVY} == {"train-00.pddl", "train-01.pddl"}


def test_a_cell_is_composed_as_genplan_run_composes_a_run(finished: GridSpec) -> None:
    """A cell is a run request put together by the one composer, so its record is scored as
    ``genplan run``'s is (before, cells composed runs apart and recorded no scores)."""
    for row in read_jsonl(finished.results_dir / "runs.jsonl"):
        scores = row["scores"]
        assert scores is not None and scores["time_limit_seconds"] == finished.eval_timeout
        assert scores["problems"]["all"] == 2 and scores["references"] is None
        folder_record = json.loads((Path(row["folder"]) / "metadata.json").read_text())
        assert folder_record["scores"] == scores


def test_records_carry_each_approach_s_figures(finished: GridSpec) -> None:
    runs = {r["cell"]: r for r in read_jsonl(finished.results_dir / "runs.jsonl")}
    heavy = runs[f"{HEAVY}/generalized-plan/main-seed0"]
    assert heavy["fraction_solved"] == 1.0 and heavy["feedback"] == {"python-exception": 1}
    assert heavy["llm_calls"] == 4 and heavy["details"]["training_outcome"] == "solved all training problems"
    assert [s["fraction_solved"] for s in heavy["steps"]] == [
        0.0,
        1.0,
    ]  # Figure 4: before and after the repair
    assert runs[f"{HEAVY}/generalized-plan/no-cot-seed1"]["llm_calls"] == 2
    assert runs[f"{GRIPPER}/generalized-plan/main-seed0"]["fraction_solved"] == 0.0
    toy = runs[f"{HEAVY}/{TOY}/main-seed0"]
    assert toy["llm_calls"] == 2 and toy["fraction_solved"] == 0.0 and "steps" not in toy


def test_the_client_writes_each_run_folder(finished: GridSpec) -> None:
    cell = next(c for c in grid_cells(finished) if c.id == f"{HEAVY}/generalized-plan/main-seed0")
    folder = run_folder_of(finished, cell)
    assert folder == finished.runs_dir / "fake" / HEAVY / "generalized-plan" / "main-seed0"
    assert {"conversation.jsonl", "program.py", "metadata.json", "results.json", "steps.json"} <= {
        p.name for p in folder.iterdir()
    }
    assert len((folder / "conversation.jsonl").read_text().splitlines()) == 4


def test_a_finished_grid_runs_nothing_again(finished: GridSpec) -> None:
    before = (finished.results_dir / "runs.jsonl").read_text()
    summary = run_grid(finished, model_factory=lambda cell: FakeLanguageModel())  # would fail if asked
    assert (summary.recorded_before, summary.finished, summary.failed) == (12, 0, 0)
    assert (finished.results_dir / "runs.jsonl").read_text() == before


def test_a_cell_whose_folder_was_written_but_not_recorded_is_recorded_without_running(
    finished: GridSpec, tmp_path: Path
) -> None:
    results = tmp_path / "results"
    shutil.copytree(finished.results_dir, results)
    runs = read_jsonl(results / "runs.jsonl")
    kept = [r for r in runs if r["cell"] != f"{HEAVY}/generalized-plan/main-seed1"]
    (results / "runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in kept))  # the client died there
    spec = replace(finished, results_dir=results)
    summary = run_grid(spec, model_factory=lambda cell: FakeLanguageModel())
    assert (summary.finished, summary.failed) == (0, 0)
    assert stable(read_jsonl(results / "runs.jsonl")) == stable(runs)
    assert stable(read_jsonl(results / "problems.jsonl")) == stable(
        read_jsonl(finished.results_dir / "problems.jsonl")
    )


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"n_eval": 3}, "--n 2 (now 3)"),
        ({"eval_timeout": 5.0}, "--eval-timeout 10 (now 5.0)"),
        ({"per_step": False}, "--per-step true (now false)"),
        ({"size_check": False}, "--size-check true (now false)"),
        ({"model": ModelSpec(BackendSpec(BackendKind.FAKE, model="other"))}, 'model "fake" (now "other")'),
        ({"model": ModelSpec(BackendSpec(BackendKind.FAKE, model="fake", temperature=0.7))}, "--temperature"),
    ],
)
def test_a_results_folder_made_with_other_values_is_refused_naming_them(
    finished: GridSpec, tmp_path: Path, changes: dict[str, object], named: str
) -> None:
    before = (finished.results_dir / "runs.jsonl").read_text()
    spec = replace(finished, **changes)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError) as caught:
        run_grid(spec, model_factory=lambda cell: FakeLanguageModel())  # would fail if asked
    message = str(caught.value)
    assert "12 cell(s) made with other values" in message and named in message
    assert str(finished.results_dir) in message and "--results" in message
    assert (finished.results_dir / "runs.jsonl").read_text() == before  # nothing reused, nothing written


def test_records_made_before_identities_were_kept_are_compared_on_their_own_fields(
    finished: GridSpec, tmp_path: Path
) -> None:
    results = tmp_path / "results"
    shutil.copytree(finished.results_dir, results)
    runs = [{k: v for k, v in row.items() if k != "identity"} for row in read_jsonl(results / "runs.jsonl")]
    (results / "runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs))
    summary = run_grid(replace(finished, results_dir=results), model_factory=lambda cell: FakeLanguageModel())
    assert (summary.recorded_before, summary.finished) == (12, 0)  # the same values: resumed as before
    other = ModelSpec(BackendSpec(BackendKind.FAKE, model="other"))
    with pytest.raises(ConfigurationError, match=r'model "fake" \(now "other"\)'):
        run_grid(replace(finished, results_dir=results, model=other), model_factory=answers)


def test_a_folder_written_with_other_values_but_not_recorded_runs_again(
    finished: GridSpec, tmp_path: Path
) -> None:
    cell = f"{HEAVY}/generalized-plan/main-seed1"
    results = tmp_path / "results"
    shutil.copytree(finished.results_dir, results)
    kept = [r for r in read_jsonl(results / "runs.jsonl") if r["cell"] != cell]
    (results / "runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in kept))
    runs = tmp_path / "runs"
    shutil.copytree(finished.runs_dir, runs)
    folder = runs / "fake" / cell
    identity = json.loads((folder / "cell.json").read_text())
    (folder / "cell.json").write_text(json.dumps({**identity, "n": 7}))  # written by a grid with --n 7
    spec = replace(finished, results_dir=results, runs_dir=runs)
    summary = run_grid(spec, model_factory=answers)
    assert (summary.recorded_before, summary.finished, summary.failed) == (11, 1, 0)
    assert json.loads((folder / "cell.json").read_text()) == identity


def test_a_failed_cell_is_listed_and_tried_again_next_time(tmp_path: Path) -> None:
    spec = small_grid(
        tmp_path,
        domains=small_domains(tmp_path)[:1],
        seeds=(0,),
        approaches=(ApproachSpec(TOY),),
        per_step=False,
    )
    summary = run_grid(spec, model_factory=lambda cell: FakeLanguageModel())  # runs out of answers
    assert (summary.finished, summary.failed) == (0, 1)
    failure = read_jsonl(tmp_path / "results" / "failures.jsonl")[0]
    assert failure["cell"] == f"{HEAVY}/{TOY}/main-seed0" and "ran out of answers" in failure["error"]
    assert read_jsonl(tmp_path / "results" / "runs.jsonl") == []
    summary = run_grid(spec, model_factory=answers)
    assert (summary.finished, summary.failed) == (1, 0)


def test_the_comparison_table_puts_approaches_side_by_side(finished: GridSpec, tmp_path: Path) -> None:
    written = {p.name for p in make_reports(finished.results_dir, tmp_path)}
    assert {"comparison.md", "table1.md", "table2.md", "table3.md", "figure4.png", "figure5.png"} <= written
    comparison = (tmp_path / "comparison.md").read_text()
    # generalized plan: 4 calls per run, over 2 problems; the toy planner: one call per problem
    assert f"| {HEAVY} | generalized-plan | main | 2 | 1.00 | 4.0 | 2.00 |" in comparison
    heavy = next(
        row for row in comparison.splitlines() if row.startswith(f"| {HEAVY} | generalized-plan | main |")
    )
    assert heavy.endswith("| VAL 4 |")  # who checked the plans, in the report too (issue 33 item 2)
    assert f"| {HEAVY} | {TOY} | main | 2 | 0.00 | 2.0 | 1.00 |" in comparison
    table1 = (tmp_path / "table1.md").read_text()
    assert "| domain | main | no-cot |" in table1 and TOY not in table1
    assert f"| {HEAVY} | 1.00 | 1.00 |" in table1 and f"| {GRIPPER} | 0.00 | 0.00 |" in table1


def test_comparison_table_tokens_and_runtime() -> None:
    def run(approach: str, calls: int, tokens: tuple[int | None, int | None], median: float | None) -> dict:
        return {
            "domain": "d",
            "approach": approach,
            "label": "main",
            "fraction_solved": 0.5,
            "llm_calls": calls,
            "evaluation_problems": 10,
            "prompt_tokens": tokens[0],
            "completion_tokens": tokens[1],
            "median_seconds": median,
        }

    table = comparison_table(
        [run("a", 3, (100, 20), 0.5), run("a", 5, (200, 40), 1.5), run("b", 10, (None, None), None)]
    )
    assert "| d | a | main | 2 | 0.50 | 4.0 | 0.40 | 180 | 1 s |" in table
    assert "| d | b | main | 1 | 0.50 | 10.0 | 1.00 | n/a | - |" in table


def test_replaying_saved_runs_needs_a_recording_for_some_cell(tmp_path: Path) -> None:
    # (cells with none are skipped: tests/experiments/test_cli_experiments.py)
    spec = small_grid(tmp_path, model=ModelSpec(), approaches=(ApproachSpec(TOY),), seeds=(1,))
    with pytest.raises(ConfigurationError, match="no saved run to replay"):
        run_grid(spec)


def test_the_process_pool_gives_the_sequential_results(finished: GridSpec, tmp_path: Path) -> None:
    spec = small_grid(tmp_path, domains=small_domains(tmp_path / "domains")[:1], seeds=(0,))
    pool = PoolEngine(2)
    try:
        summary = run_grid(spec, pool, model_factory=answers)
    finally:
        pool.close()
    assert (summary.finished, summary.failed) == (3, 0)
    ids = {c.id for c in grid_cells(spec)}
    expected = [r for r in read_jsonl(finished.results_dir / "runs.jsonl") if r["cell"] in ids]
    assert stable(read_jsonl(spec.results_dir / "runs.jsonl")) == stable(expected)


def test_any_approach_measures_its_steps_through_the_per_step_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Figure 4's measurement is an approach's hook, not a special case of the generalized plan:
    the toy approach that defines ``per_step`` gets its steps into the grid's row and run folder."""
    from grid_doubles import PlanPerProblem

    asked: list[tuple[str, int]] = []

    def per_step(self: object, folder: Path, problems: object, context: object) -> list[dict[str, object]]:
        asked.append((folder.name, len(problems.evaluation)))  # type: ignore[attr-defined]
        return [{"step": 0, "fraction_solved": 0.5}, {"step": 1, "fraction_solved": 0.0}]

    monkeypatch.setattr(PlanPerProblem, "per_step", per_step, raising=False)
    spec = small_grid(
        tmp_path, domains=small_domains(tmp_path)[:1], seeds=(0,), approaches=(ApproachSpec(TOY),)
    )
    assert run_grid(spec, model_factory=answers).finished == 1
    (row,) = read_jsonl(tmp_path / "results" / "runs.jsonl")
    assert row["steps"] == [{"step": 0, "fraction_solved": 0.5}, {"step": 1, "fraction_solved": 0.0}]
    assert asked == [("run", 2)]
    assert (run_folder_of(spec, grid_cells(spec)[0]) / "steps.json").is_file()
