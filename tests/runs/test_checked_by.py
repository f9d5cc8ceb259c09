"""Every verdict names its checker (issue 33, items 2 and 7): per problem in results.json, per run
in metadata.json, in the console; and records keep the machine their seconds were measured on."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from fake_programs import CORRECT, fenced, heavy_problem, training_problems
from synthesis_runs import run_synthesis

from genplan.approaches.base import ProblemResult, RunContext
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings
from genplan.approaches.generalized_plan.variants import Variant
from genplan.llm import FakeLanguageModel
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem_sets import DomainProblems
from genplan.plans.validate import check_plan
from genplan.runs.record import describe_checkers

OPENING = ["A packing domain.", "Pack the heaviest first."]


def _run(tmp_path: Path) -> Path:
    problems = DomainProblems(
        "heavy",
        load_domain(builtin_domain_file("heavy")),
        tuple(training_problems()),
        (heavy_problem("eval-0", 8), heavy_problem("eval-1", 12)),
    )
    report = run_synthesis(
        problems,
        FakeLanguageModel([*OPENING, fenced(CORRECT)]),
        SynthesisSettings(**dataclasses.asdict(Variant()), timeout=2.0),
        RunContext(
            folder=tmp_path / "run", model_name="fake", backend_name="fake", eval_timeout=5.0, workers=1
        ),
    )
    return report.folder


def test_a_run_records_val_as_the_checker_of_each_plan(tmp_path: Path) -> None:
    folder = _run(tmp_path)
    results = json.loads((folder / "results.json").read_text())
    assert [(r["checked_by"], r["check_note"]) for r in results] == [("val", None), ("val", None)]
    metadata = json.loads((folder / "metadata.json").read_text())
    assert metadata["checked_by"] == {"val": 2}


def test_when_val_cannot_run_the_record_says_the_simulator_judged_and_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import genplan.plans.validate as validate

    monkeypatch.setattr(validate, "val_path", lambda: None)
    folder = _run(tmp_path)
    results = json.loads((folder / "results.json").read_text())
    assert {(r["status"], r["checked_by"], r["check_note"]) for r in results} == {
        ("solved", "simulator", "VAL is not available on this platform")
    }
    assert json.loads((folder / "metadata.json").read_text())["checked_by"] == {"simulator": 2}


def test_records_keep_the_machines_cores_and_load_beside_their_seconds(tmp_path: Path) -> None:
    machine = json.loads((_run(tmp_path) / "metadata.json").read_text())["machine"]
    assert isinstance(machine["cpus"], int) and machine["cpus"] >= 1
    for moment in ("start", "end"):
        load = machine["load_average"][moment]
        assert len(load) == 3 and all(isinstance(value, float) and value >= 0 for value in load)


def test_a_result_of_a_returned_plan_names_its_checker() -> None:
    problem = heavy_problem("h", 2)
    valid = ["(pack-first o0)", "(stack o0 o1)"]
    result = ProblemResult.of_plan("h.pddl", problem, valid, check_plan(problem, valid), 0.1)
    assert (result.status, result.checked_by, result.check_note, result.plan_cost) == (
        "solved",
        "val",
        None,
        2,
    )
    assert result.plan is not None and result.plan.actions == tuple(valid)
    wrong = ["(stack o0 o1)"]
    result = ProblemResult.of_plan(
        "h.pddl", problem, wrong, check_plan(problem, wrong, checker="simulator"), 0.1
    )
    assert (result.status, result.checked_by) == ("plan-semantics", "simulator")
    assert result.check_note == "asked for (--checker simulator)" and result.plan is None
    unknown = ["(fly o0)"]
    result = ProblemResult.of_plan("h.pddl", problem, unknown, check_plan(problem, unknown), 0.1)
    assert (result.status, result.checked_by) == ("plan-syntax", "syntax")


def test_who_checked_reads_for_a_person() -> None:
    def result(checker: str | None, note: str | None = None) -> ProblemResult:
        return ProblemResult("p.pddl", "solved", 1, 0.1, checked_by=checker, check_note=note)

    long = "VAL refuses plans of 9,995+ steps"
    shown = describe_checkers([result("simulator", long), result("val"), result("val"), result(None)])
    assert shown == f"checked by VAL 2, simulator 1 ({long})"
    assert describe_checkers([result(None)]) == "no plan checked"
