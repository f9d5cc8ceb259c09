"""Plan costs: action-cost domains load, every valid plan gets its cost, VAL agrees, plans are saved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oracles import ORACLES

from genplan.approaches.base import ProblemResult, RunRecord, found_plan, read_record, write_record
from genplan.errors import PddlError
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.generate import generate_problems
from genplan.pddl.problem import load_problem, parse_problem_text
from genplan.plans.costs import cost_kind, plan_cost
from genplan.plans.plan_file import plan_file_name, plan_file_text, recorded_cost
from genplan.plans.syntax import check_syntax
from genplan.plans.val import run_val, val_path
from genplan.plans.validate import check_plan

COSTS = Path(__file__).resolve().parents[1] / "data" / "costs"
THROUGH_B = [
    "(load t1 a c1 s0 s1)",
    "(drive t1 a b)",
    "(drive t1 b c)",
    "(unload t1 c c1 s0 s1)",
]
DIRECT = ["(load t1 a c1 s0 s1)", "(drive t1 a c)", "(unload t1 c c1 s0 s1)"]
needs_val = pytest.mark.skipif(val_path() is None, reason="VAL does not run on this platform")


@pytest.fixture
def problem():
    return load_problem(COSTS / "p01.pddl", COSTS / "domain.pddl")


def test_action_cost_domain_loads_with_its_costs() -> None:
    domain = load_domain(COSTS / "domain.pddl")
    assert domain.operators["drive"].cost == ("road-length", "?from", "?to")
    assert domain.operators["load"].cost == domain.operators["unload"].cost == 1.0
    assert domain.operators["drive"].add_effects == (("at", "?t", "?to"),)
    assert domain.functions == {"road-length": ("depot", "depot"), "total-cost": ()}
    assert domain.has_action_costs


def test_problem_keeps_fluents_and_metric(problem) -> None:
    assert problem.minimize_total_cost
    assert problem.fluents[("road-length", "a", "c")] == 10.0
    assert problem.fluents[("total-cost",)] == 0.0
    assert ("road", "a", "c") in problem.init
    again = parse_problem_text(problem.to_pddl(), problem.domain)
    assert (again.fluents, again.minimize_total_cost, again.init) == (problem.fluents, True, problem.init)


def test_costs_with_action_costs_are_total_costs_not_lengths(problem) -> None:
    through_b = check_plan(problem, THROUGH_B, checker="simulator")
    direct = check_plan(problem, DIRECT, checker="simulator")
    assert (through_b.cost, direct.cost) == (7.0, 12.0)  # longer but cheaper
    assert cost_kind(problem) == "general"


def test_costs_without_action_costs_are_lengths() -> None:
    domain = load_domain(builtin_domain_file("gripper"))
    generated = generate_problems("gripper", "train", 0, n=1)[0]
    problem = parse_problem_text(generated.text, domain)
    plan = ORACLES["gripper"](problem)
    assert check_plan(problem, plan, checker="simulator").cost == float(len(plan))
    assert cost_kind(problem) == "unit"


def test_without_a_metric_an_action_cost_problem_costs_its_length(problem) -> None:
    text = problem.to_pddl().replace("(:metric minimize (total-cost))", "")
    unmetric = parse_problem_text(text, problem.domain)
    assert check_plan(unmetric, THROUGH_B, checker="simulator").cost == 4.0


def test_invalid_plans_have_no_cost(problem) -> None:
    assert check_plan(problem, THROUGH_B[1:], checker="simulator").cost is None


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        ("(:metric minimize (total-cost))", "(:metric maximize (total-cost))"),
        ("(= (road-length a b) 2)", "(= (road-length a b) two)"),
    ],
)
def test_unsupported_metric_and_non_numbers_are_errors_naming_the_file(problem, replace, message) -> None:
    text = problem.to_pddl().replace(replace, message)
    with pytest.raises(PddlError, match=r"p\.pddl:\d+"):
        parse_problem_text(text, problem.domain, Path("p.pddl"))


def test_a_cost_term_without_a_value_is_an_error(problem) -> None:
    text = problem.to_pddl().replace("(= (road-length a b) 2)", "")
    missing = parse_problem_text(text, problem.domain, Path("p.pddl"))
    with pytest.raises(PddlError, match=r"\(road-length a b\) has no value"):
        plan_cost(missing, check_syntax(THROUGH_B, missing).actions)


@needs_val
@pytest.mark.parametrize("plan", [THROUGH_B, DIRECT, [*DIRECT, "(drive t1 c b)", "(drive t1 b c)"]])
def test_val_and_simulator_agree_on_action_costs(problem, plan) -> None:
    val = run_val(problem.domain.to_pddl(), problem.to_pddl(), plan)
    assert val.valid and val.value == check_plan(problem, plan, checker="simulator").cost
    assert check_plan(problem, plan, checker="val").cost == val.value


@needs_val
@pytest.mark.parametrize("domain_name", ["gripper", "miconic", "ferry"])
def test_val_and_simulator_agree_on_unit_costs(domain_name: str) -> None:
    domain = load_domain(builtin_domain_file(domain_name))
    for generated in generate_problems(domain_name, "train", 1, n=3):
        problem = parse_problem_text(generated.text, domain)
        plan = ORACLES[domain_name](problem)
        val = run_val(domain.to_pddl(), problem.to_pddl(), plan)
        assert val.value == check_plan(problem, plan, checker="simulator").cost == len(plan)


def test_plan_file_is_fast_downwards_format() -> None:
    text = plan_file_text(["(drive  truck a b)", "(drop truck b p s0 s1)"], 7.0, "general")
    assert text == "(drive truck a b)\n(drop truck b p s0 s1)\n; cost = 7 (general cost)\n"
    assert recorded_cost(text) == 7.0
    assert plan_file_text([], 0.0, "unit") == "; cost = 0 (unit cost)\n"
    assert plan_file_name("testing/easy/p01.pddl") == "testing/easy/p01.plan"
    for bad in ("../p.pddl", "/p.pddl", ""):
        with pytest.raises(ValueError):
            plan_file_name(bad)


def test_a_record_saves_its_plans_and_lists_them(problem, tmp_path: Path) -> None:
    verdict = check_plan(problem, THROUGH_B, checker="simulator")
    found = found_plan(problem, verdict, THROUGH_B)
    assert found is not None
    solved = ProblemResult("easy/p01.pddl", "solved", 4, 0.5, plan_cost=found.cost, plan=found)
    failed = ProblemResult("easy/p02.pddl", "timeout", None, 30.0)
    record = RunRecord("generalized-plan", "main", {}, "haulage-costs", 0, "m", "fake", "2026-01-01")
    record.problems = [solved, failed]
    write_record(tmp_path, record)
    saved = (tmp_path / "plans" / "easy" / "p01.plan").read_text()
    assert saved.splitlines() == [*THROUGH_B, "; cost = 7 (general cost)"]
    assert check_plan(problem, [line for line in saved.splitlines() if not line.startswith(";")]).valid
    assert not (tmp_path / "plans" / "easy" / "p02.plan").exists()
    results = json.loads((tmp_path / "results.json").read_text())
    assert list(results[0])[:4] == ["problem", "status", "plan_length", "plan_cost"]
    assert results[0]["plan_cost"] == 7 and results[1]["plan_cost"] is None
    again = read_record(tmp_path)
    assert again.artifacts == ["plans/easy/p01.plan"] and again.problems[0].plan_cost == 7


def test_records_without_costs_still_read() -> None:
    result = ProblemResult.from_json({"problem": "p.pddl", "status": "solved", "plan_length": 3})
    assert result.plan_cost is None


def test_validate_prints_the_total_cost_of_a_valid_plan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 33 item 7: VAL's "Final value" gives the cost; ``genplan validate`` gave none."""
    from genplan.cli import main

    plan = tmp_path / "plan.txt"
    plan.write_text("".join(f"{action}\n" for action in THROUGH_B))
    assert main(["validate", str(COSTS / "domain.pddl"), str(COSTS / "p01.pddl"), str(plan)]) == 0
    assert "Plan valid (4 actions, cost 7;" in capsys.readouterr().out


def test_validate_says_no_verdict_when_the_check_runs_out_of_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plan that could not be checked in time is no verdict (exit 2), never "Plan invalid"."""
    import genplan.plans.validate as validate
    from genplan.cli import main
    from genplan.plans.simulator import CheckDeadlinePassed

    def late(*_args: object, **_kwargs: object) -> None:
        raise CheckDeadlinePassed(2)

    monkeypatch.setattr(validate, "val_path", lambda: None)
    monkeypatch.setattr(validate, "simulate", late)
    plan = tmp_path / "plan.txt"
    plan.write_text("".join(f"{action}\n" for action in THROUGH_B))
    assert main(["validate", str(COSTS / "domain.pddl"), str(COSTS / "p01.pddl"), str(plan)]) == 2
    error = capsys.readouterr().err
    assert "could not be checked within" in error and "no verdict on the plan" in error
