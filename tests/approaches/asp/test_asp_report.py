"""The ASP approach in an experiment grid: its cells run like any approach's, and the comparison
report puts it beside the generalized plan on the same problems (clingo runs for real)."""

from __future__ import annotations

from pathlib import Path

import pytest
from asp_fixtures import ENCODING, KNOWLEDGE, NO_QUERIES, SIGNATURE, UNCHANGED_PDDL, lamps_folder, rules
from fake_programs import fenced

from genplan.experiments.grid import run_grid
from genplan.experiments.reports import make_reports
from genplan.experiments.spec import ApproachSpec, Cell, GridSpec, ModelSpec
from genplan.llm import BackendKind, BackendSpec, FakeLanguageModel
from genplan.pddl.problem_sets import domain_short_name

LAMPS_PROGRAM = """
def get_plan(objects, init, goal):
    plan = []
    for atom in sorted(goal):
        lamp = atom[1]
        if atom[0] == "on" and ("on", lamp) not in init:
            if ("plugged", lamp) not in init:
                plan.append(f"(plug-in {lamp})")
            plan.append(f"(turn-on {lamp})")
        if atom[0] == "off" and ("on", lamp) in init:
            plan.append(f"(turn-off {lamp})")
    return plan
"""


def answers(cell: Cell) -> FakeLanguageModel:
    if cell.approach == "asp":
        return FakeLanguageModel([SIGNATURE, KNOWLEDGE, rules(ENCODING), NO_QUERIES, UNCHANGED_PDDL])
    return FakeLanguageModel(["A summary.", "A strategy.", fenced(LAMPS_PROGRAM)])


@pytest.mark.slow
def test_the_comparison_report_puts_asp_beside_the_generalized_plan(tmp_path: Path) -> None:
    fast = (("check-timeout", "20"), ("successor-states", "12"), ("walk-length", "4"))
    spec = GridSpec(
        domains=(str(lamps_folder(tmp_path)),),
        seeds=(0,),
        approaches=(ApproachSpec("generalized-plan"), ApproachSpec("asp", fast)),
        model=ModelSpec(BackendSpec(BackendKind.FAKE, model="fake"), cache_dir=tmp_path / "runs" / "cache"),
        runs_dir=tmp_path / "runs",
        results_dir=tmp_path / "results",
        n_eval=3,
        eval_timeout=10,
        per_step=False,
    )
    summary = run_grid(spec, model_factory=answers)
    assert (summary.total, summary.finished, summary.failed) == (2, 2, 0)
    make_reports(spec.results_dir, tmp_path / "reports")
    comparison = (tmp_path / "reports" / "comparison.md").read_text()
    lamps = domain_short_name(spec.domains[0])  # a user's folder, known by its content
    # the same three problems, all solved by both; 3 and 5 model calls, paid once per domain
    assert f"| {lamps} | generalized-plan | main | 1 | 1.00 | 3.0 | 1.00 |" in comparison
    assert f"| {lamps} | asp |" in comparison
    (asp_row,) = [line for line in comparison.splitlines() if line.startswith(f"| {lamps} | asp |")]
    assert "| 1 | 1.00 | 5.0 | 1.67 |" in asp_row
