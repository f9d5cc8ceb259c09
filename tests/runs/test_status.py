"""One status vocabulary for plan verdicts: an invalid plan is ``plan-semantics`` in every approach."""

from __future__ import annotations

from blocks import OPTIMAL, problem

from genplan.approaches.autotos.evaluate import _result
from genplan.plans.validate import check_plan
from genplan.runs.record import ProblemResult, RunRecord
from genplan.runs.status import SOLVED, PlanStatus, plan_status


def test_plan_status_names_the_checker_s_two_failures() -> None:
    tower = problem()
    assert plan_status(check_plan(tower, OPTIMAL)) == (SOLVED, None)
    status, message = plan_status(check_plan(tower, OPTIMAL[1:]))
    assert status == PlanStatus.PLAN_SEMANTICS.value == "plan-semantics" and message
    assert plan_status(check_plan(tower, ["(fly a)"]))[0] == "plan-syntax"


def test_autotos_names_an_invalid_recovered_plan_plan_semantics() -> None:
    result = _result("p01", problem(), {"status": "plan-found", "plan": OPTIMAL[:2]}, 1.0)
    assert result.status == "plan-semantics"
    assert _result("p01", problem(), {"status": "plan-found", "plan": OPTIMAL}, 1.0).status == SOLVED


def test_a_record_made_before_the_vocabulary_reads_with_one_name_per_failure() -> None:
    old = {"problem": "p01", "status": "invalid-plan", "plan_length": 2, "seconds": 1.0}
    new = ProblemResult("p02", "plan-semantics", 3, 1.0).to_json()
    record = RunRecord.from_json(
        {
            "approach": "autotos",
            "label": "autotos",
            "settings": {},
            "domain": "d",
            "seed": 0,
            "model": "m",
            "backend": "b",
            "date": "2026-01-01",
        },
        [old, new],
    )
    assert record.statuses == {"plan-semantics": 2}
