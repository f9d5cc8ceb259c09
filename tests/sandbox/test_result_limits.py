"""Limits on what comes back (issue 23, class 4): values, nesting, actions, characters, and plan
checking's own deadline; and results that once killed the worker (a non-finite float, a lone
surrogate)."""

from __future__ import annotations

import pytest

from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import parse_problem_text
from genplan.plans.failures import FailureKind
from genplan.plans.validate import check_plan
from genplan.sandbox import Limits, RunStatus, run_program, run_untrusted
from genplan.sandbox.channel import HEADER, ChannelError, ChannelFault, check_shape, decode

LIMITS = Limits(grace_seconds=1.0)
PROBE = "genplan.sandbox.probes:probe"


def _run(source: str, limits: Limits = LIMITS):
    return run_program(source, {"a"}, set(), set(), timeout=20, limits=limits)


def test_millions_of_tiny_strings_are_refused_before_they_are_built() -> None:
    outcome = _run("def get_plan(objects, init, goal):\n    return ['ab'] * 2_500_000\n")
    assert outcome.status is RunStatus.CRASHED, outcome
    assert "values, over the limit of 2,000,000" in (outcome.reason or "")


def test_the_value_count_is_checked_on_the_text() -> None:
    with pytest.raises(ChannelError) as raised:
        decode(b"[" + b",".join([b"1"] * 101) + b"]", max_values=100)
    assert raised.value.fault is ChannelFault.OVERSIZED
    # Commas and brackets inside strings are not values.
    check_shape('["' + "[,{" * 1000 + '", "a\\"[,"]', max_values=10)


def test_nesting_is_checked_before_decoding() -> None:
    with pytest.raises(ChannelError, match="nests more than 64"):
        decode(b"[" * 65 + b"]" * 65)
    assert decode(b"[" * 64 + b"]" * 64) is not None


def test_a_plan_over_the_action_limit_is_bad_output() -> None:
    outcome = _run(
        "def get_plan(objects, init, goal):\n    return ['(a)'] * 1001\n",
        Limits(grace_seconds=1.0, max_plan_actions=1000),
    )
    assert outcome.status is RunStatus.BAD_OUTPUT and outcome.plan is None, outcome
    assert "1,001 actions, over the limit of 1,000" in (outcome.reason or "")


def test_a_huge_action_is_bad_output() -> None:
    outcome = _run("def get_plan(objects, init, goal):\n    return ['(a)', '(' + 'b' * 5000 + ')']\n")
    assert outcome.status is RunStatus.BAD_OUTPUT and outcome.plan is None, outcome
    assert "step 2 has 5,002 characters, over the limit of 1,000" in (outcome.reason or "")


def _two_way_forest():
    domain = load_domain(builtin_domain_file("forest"))
    text = (
        "(define (problem f) (:domain hiking) (:objects r0_c0 r0_c1 - loc)"
        " (:init (at r0_c0) (adjacent r0_c0 r0_c1) (adjacent r0_c1 r0_c0))"
        " (:goal (and (at r0_c0))))"
    )
    return parse_problem_text(text, domain)


def test_plan_checking_has_its_own_deadline() -> None:
    plan = ["(walk r0_c0 r0_c1)", "(walk r0_c1 r0_c0)"] * 100_000
    problem = _two_way_forest()
    assert check_plan(problem, plan[:20], checker="simulator").valid
    verdict = check_plan(problem, plan, checker="simulator", seconds=0.001)
    assert not verdict.valid and verdict.kind is FailureKind.TIMEOUT, verdict
    assert "could not be checked within 0.001 s" in verdict.message


def test_plan_checking_has_a_step_bound() -> None:
    plan = ["(walk r0_c0 r0_c1)", "(walk r0_c1 r0_c0)"] * 6
    verdict = check_plan(_two_way_forest(), plan, max_actions=10)
    assert verdict.kind is FailureKind.PLAN_SYNTAX and "12 actions, over the limit of 10" in verdict.message


@pytest.mark.parametrize(
    "value", [b'{"x":1e999}', b'{"x":"\\ud800"}', b'{"\\udfff":1}'], ids=["infinity", "surrogate", "key"]
)
def test_results_that_killed_the_worker_are_crashes_it_survives(value: bytes) -> None:
    body = b'{"status":"success","value":' + value + b',"seconds":0.1,"stdout":""}'
    frame = HEADER.pack(len(body)) + body
    outcome = run_untrusted("", PROBE, ["raw-frame", frame.hex(), 0.0], timeout=5, limits=LIMITS)
    assert outcome.status is RunStatus.CRASHED, outcome
    assert "malformed result" in (outcome.reason or "") and "worker failed" not in (outcome.reason or "")
