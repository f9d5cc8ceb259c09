"""Plan checking: the syntax check's messages, the simulator's advice, VAL's advice and guards."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fake_programs import heavy_problem

from genplan.errors import PddlError, ValidatorError
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import parse_problem_text
from genplan.plans.failures import FailureKind
from genplan.plans.simulator import simulate
from genplan.plans.syntax import check_syntax
from genplan.plans.val import VAL_MAX_STEPS, parse_val_output, val_path
from genplan.plans.validate import check_plan, plan_to_text, read_plan_file, read_plan_lines

needs_val = pytest.mark.skipif(
    val_path() is None, reason="VAL's Validate binary does not run on this platform"
)


def _forest():
    domain = load_domain(builtin_domain_file("forest"))
    text = (
        "(define (problem f) (:domain hiking) (:objects r0_c0 r0_c1 r0_c2 - loc)"
        " (:init (at r0_c0) (adjacent r0_c0 r0_c1) (adjacent r0_c1 r0_c2) (ishill r0_c2))"
        " (:goal (and (at r0_c2))))"
    )
    return parse_problem_text(text, domain)


SYNTAX_CASES = [
    ("not a list", {"walk": 1}, None, "the plan must be a list of strings, got dict"),
    ("not strings", [("walk", "r0_c0", "r0_c1")], 0, "the item at step 1 is ('walk', 'r0_c0', 'r0_c1')"),
    (
        "no parentheses",
        ["walk r0_c0 r0_c1"],
        0,
        "the action walk r0_c0 r0_c1 is invalid at step 1 because it is not enclosed in parentheses",
    ),
    ("unknown operator", ["(jump r0_c0 r0_c1)"], 0, "the operator jump does not exist"),
    ("too many arguments", ["(walk r0_c0 r0_c1 r0_c2)"], 0, "walk takes 2 arguments but 3 were given"),
    ("unknown object", ["(walk r0_c0 r9_c9)"], 0, "the object r9_c9 does not exist"),
    (
        "second step",
        ["(walk r0_c0 r0_c1)", "(climb r0_c1)"],
        1,
        "is invalid at step 2 because climb takes 2 arguments",
    ),
    (
        "nested parentheses",
        ["(walk (r0_c0) r0_c1)"],
        0,
        "not an operator name followed by space-separated object names",
    ),
]


@pytest.mark.parametrize(
    ("label", "plan", "step", "expected"), SYNTAX_CASES, ids=[c[0] for c in SYNTAX_CASES]
)
def test_syntax_messages(label: str, plan: object, step: int | None, expected: str) -> None:
    result = check_syntax(plan, _forest())
    assert not result.valid and result.step == step
    assert expected in result.message


def test_syntax_accepts_case_and_spacing_and_checks_types() -> None:
    result = check_syntax(["( WALK  r0_c0 r0_c1 )", "(climb r0_c1 r0_c2)"], _forest())
    assert result.valid and result.actions == (("walk", "r0_c0", "r0_c1"), ("climb", "r0_c1", "r0_c2"))
    spanner = load_domain(builtin_domain_file("spanner"))
    problem = parse_problem_text(
        "(define (problem s) (:domain spanner) (:objects bob - man shed gate - location s1 - spanner n1 - nut)"
        " (:init (at bob shed) (link shed gate) (at s1 shed) (useable s1) (at n1 gate) (loose n1))"
        " (:goal (and (tightened n1))))",
        spanner,
    )
    wrong_type = check_syntax(["(walk shed gate s1)"], problem)
    assert "argument 3 (?m) must be of type man, but s1 is of type spanner" in wrong_type.message


def test_simulator_gives_vals_advice_shapes() -> None:
    problem = heavy_problem("h", 3)
    ok = simulate(problem, [("pack-first", "o0"), ("stack", "o0", "o1"), ("stack", "o1", "o2")])
    assert ok.valid and ok.advice == ""
    wrong = simulate(problem, [("pack-first", "o0"), ("stack", "o0", "o2"), ("stack", "o2", "o1")])
    assert wrong.failing_step == 2
    assert (
        wrong.advice
        == "(stack o2 o1) has an unsatisfied precondition at time 3\n(Set (heavier o2 o1) to true)"
    )
    two = simulate(problem, [("pack-first", "o0"), ("stack", "o1", "o2")])
    assert two.advice.endswith(
        "(Follow each of:\n    (Set (packed o1) to true)\n    and (Set (nothing-above o1) to true)\n)"
    )
    short = simulate(problem, [("pack-first", "o0")])
    assert short.failing_step is None and short.unmet_goals == (("packed", "o1"), ("packed", "o2"))
    assert short.advice.startswith("The goal is not satisfied\n(Follow each of:")


def test_negative_preconditions_ask_for_false() -> None:
    problem = _forest()
    result = simulate(problem, [("walk", "r0_c0", "r0_c1"), ("walk", "r0_c1", "r0_c2")])
    assert result.failing_step == 1 and "(Set (ishill r0_c2) to false)" in result.advice


@needs_val
def test_val_and_simulator_word_the_advice_alike() -> None:
    problem = heavy_problem("h", 4)
    for plan in (
        ["(pack-first o0)", "(stack o0 o2)", "(stack o2 o1)"],
        ["(pack-first o0)", "(stack o1 o2)"],
        ["(pack-first o0)", "(pack-first o1)"],
    ):
        val = check_plan(problem, plan, checker="val")
        simulator = check_plan(problem, plan, checker="simulator")
        assert val.checker_used == "val" and simulator.checker_used == "simulator"
        assert val.message == simulator.message and val.failing_step == simulator.failing_step


def test_check_plan_runs_syntax_first() -> None:
    verdict = check_plan(heavy_problem("h", 3), ["(pack-first o0 o1)"])
    assert verdict.kind is FailureKind.PLAN_SYNTAX and verdict.checker_used == "syntax"


def test_plans_too_long_for_val_go_to_the_simulator_and_the_verdict_says_so() -> None:
    problem = heavy_problem("h", 2)
    plan = ["(pack-first o0)"] + ["(stack o0 o1)"] * VAL_MAX_STEPS
    verdict = check_plan(problem, plan, checker="auto")
    assert verdict.checker_used == "simulator" and verdict.failing_step == 2
    assert verdict.notice == "checked by simulator: VAL refuses plans of 9,995+ steps"
    with pytest.raises(ValidatorError, match="VAL refuses plans of 9,995"):
        check_plan(problem, plan, checker="val")


def test_when_val_fails_the_simulator_checks_and_the_verdict_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import genplan.plans.validate as validate
    from genplan.plans.val import ValResult

    monkeypatch.setattr(validate, "val_path", lambda: "Validate")
    monkeypatch.setattr(
        validate, "run_val", lambda *a, **k: ValResult(False, None, "VAL timed out after 60 s", False, "")
    )
    plan = ["(pack-first o0)", "(stack o0 o1)"]
    verdict = validate.check_plan(heavy_problem("h", 2), plan, checker="auto")
    assert verdict.valid and verdict.checker_used == "simulator"
    assert verdict.notice == "checked by simulator: VAL failed (VAL timed out after 60 s)"
    with pytest.raises(ValidatorError, match=r"VAL failed \(VAL timed out after 60 s\)"):
        validate.check_plan(heavy_problem("h", 2), plan, checker="val")


def test_missing_val_uses_the_simulator_with_a_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    import genplan.plans.validate as validate

    monkeypatch.setattr(validate, "val_path", lambda: None)
    verdict = validate.check_plan(heavy_problem("h", 2), ["(pack-first o0)", "(stack o0 o1)"])
    assert verdict.valid and verdict.checker_used == "simulator" and "simulator" in (verdict.notice or "")
    with pytest.raises(ValidatorError, match="VAL is not available"):
        validate.check_plan(heavy_problem("h", 2), ["(pack-first o0)"], checker="val")


@needs_val
def test_an_explicit_val_checker_never_falls_back_when_val_refuses_the_task() -> None:
    """Issue 27 item 1: VAL refusing an ill-typed task is no verdict, never "Plan valid"."""
    domain = load_domain(builtin_domain_file("logistics"))
    text = (
        "(define (problem p) (:domain logistics) (:objects c0 - city l0 - location p0 - package)"
        " (:init (in-city l0 c0) (at p0 l0)) (:goal (and (at p0 l0))))"
    )
    problem = parse_problem_text(text, domain)
    ill_typed = replace(problem, init=problem.init | {("at", "c0", "l0")})  # a city where a package goes
    with pytest.raises(ValidatorError, match="VAL failed"):
        check_plan(ill_typed, [], checker="val")


def test_val_output_parsing() -> None:
    output = (
        "Plan failed to execute\n\nPlan Repair Advice:\n\n(stack o3 o2) has an unsatisfied precondition at time 3\n"
        "(Set (heavier o3 o2) to true)\n\n\nFailed plans:\n /tmp/plan1 \n"
    )
    result = parse_val_output(output, 1)
    assert not result.valid and result.ok and result.failing_step == 2
    assert (
        result.advice
        == "(stack o3 o2) has an unsatisfied precondition at time 3\n(Set (heavier o3 o2) to true)"
    )
    crashed = parse_val_output("", -11)
    assert not crashed.ok


def test_plan_files_round_trip(tmp_path) -> None:
    path = tmp_path / "plan"
    path.write_text("; a comment\n" + plan_to_text(["(a b)", " (c d) "]) + "\n; cost = 2 (unit cost)\n")
    assert read_plan_file(path) == ["(a b)", "(c d)"]
    assert read_plan_lines(path) == [(2, "(a b)"), (3, "(c d)")]


def test_a_plan_file_that_is_not_utf8_is_an_error_naming_file_and_line(tmp_path) -> None:
    path = tmp_path / "plan"
    path.write_bytes("(a b)\n(caf\xe9 d)\n".encode("latin-1"))
    with pytest.raises(PddlError) as caught:
        read_plan_file(path)
    assert (caught.value.path, caught.value.line) == (path, 2) and "not UTF-8" in caught.value.reason


@needs_val
def test_val_defects_are_caught_before_or_after_val() -> None:
    from genplan.plans.val import run_val

    problem = heavy_problem("h", 3)
    domain_text, problem_text = problem.domain.to_pddl(), problem.to_pddl()
    crashed = run_val(domain_text, problem_text, ["(pack-first o0)", "(stack o0)"])  # VAL segfaults here
    assert not crashed.ok and not crashed.valid
    unknown = run_val(domain_text, problem_text, ["(jump o0)"])  # "Bad operator in plan!"
    assert not unknown.valid
    for plan in (["(pack-first o0)", "(stack o0)"], ["(jump o0)"], ["pack-first o0"], ["(pack-first o0 o1)"]):
        assert check_plan(problem, plan).kind is FailureKind.PLAN_SYNTAX
