"""An approach written from the manual's "Adding an approach" page (docs/adding-an-approach.md), registered with one line,
runs in genplan run, genplan experiments and the reports with nothing else changed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from grid_doubles import folder_domain_name, small_domains
from manual import section

from genplan.approaches import REGISTRY, get_approach
from genplan.cli import main
from genplan.experiments.grid import run_grid
from genplan.experiments.reports import make_reports
from genplan.experiments.spec import ApproachSpec, Cell, GridSpec, ModelSpec
from genplan.llm import FakeLanguageModel
from genplan.llm.spec import BackendKind, BackendSpec
from genplan.runs.session import RunContext


def _manual_approach() -> str:
    return re.search(r"```python\n(.*?)```", section("Adding an approach"), re.DOTALL).group(1)  # type: ignore[union-attr]


def plans(cell: Cell) -> FakeLanguageModel:
    """One (invalid) plan per problem."""
    return FakeLanguageModel(["(pack-first o0)"] * 20)


@pytest.fixture
def ask(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "readme_ask.py").write_text(_manual_approach())
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(REGISTRY, "ask", "readme_ask:Ask")
    return "ask"


def test_the_manual_s_approach_runs_in_genplan_run(ask: str, tmp_path: Path) -> None:
    heavy, _ = small_domains(tmp_path / "domains", problems=3)
    approach = get_approach(ask)
    recorded = approach.run(
        approach_problems(heavy, tmp_path),
        plans(None),
        approach.settings_type(),
        RunContext(tmp_path / "made", eval_timeout=30.0),  # type: ignore[arg-type]
    )
    assert recorded.llm_calls == len(recorded.problems) > 0
    replay = f"replay:{tmp_path / 'made' / 'conversation.jsonl'}"
    code = main(
        ["run", "--approach", ask, "--domain", heavy, "--llm", replay, "--runs-dir", str(tmp_path / "runs")]
    )
    assert code == 0
    folder = tmp_path / "runs" / folder_domain_name("heavy") / "ask-seed0"
    assert (folder / "metadata.json").is_file()
    assert '"checked_by": "syntax"' in (folder / "results.json").read_text()  # every plan's checker named


def approach_problems(folder: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    from genplan.pddl.problem_sets import load_domain_problems

    return load_domain_problems(folder, 0, None, tmp_path / "work")


def test_the_manual_s_approach_runs_in_a_grid_and_the_reports(ask: str, tmp_path: Path) -> None:
    spec = GridSpec(
        domains=small_domains(tmp_path / "domains", problems=3),
        seeds=(0,),
        approaches=(ApproachSpec(ask),),
        model=ModelSpec(BackendSpec(BackendKind.FAKE, model="fake"), cache_dir=tmp_path / "runs" / "cache"),
        runs_dir=tmp_path / "runs",
        results_dir=tmp_path / "results",
        n_eval=2,
    )
    summary = run_grid(spec, model_factory=plans)
    assert (summary.finished, summary.failed) == (2, 0)
    make_reports(spec.results_dir, tmp_path / "reports")
    assert (
        f"| {folder_domain_name('heavy')} | ask | ask |"
        in (tmp_path / "reports" / "comparison.md").read_text()
    )
