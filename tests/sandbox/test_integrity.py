"""Result integrity (issue 23, class 1): what is counted is what the program returned and did.

A plan item is checked as written (no Unicode case folding, no line breaks), VAL sees exactly
the returned text, the runtime is the worker's own clock, and genplan's data is not visible
inside the sandbox.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import parse_problem_text
from genplan.plans import validate
from genplan.plans.failures import FailureKind
from genplan.plans.val import ValResult
from genplan.plans.world_model import parse_action_text
from genplan.sandbox import Limits, RunStatus, run_program
from genplan.sandbox import isolation as isolation_module

ROOT = Path(__file__).resolve().parents[2]


def _forest():
    domain = load_domain(builtin_domain_file("forest"))
    text = (
        "(define (problem f) (:domain hiking) (:objects r0_c0 r0_c1 r0_c2 - loc)"
        " (:init (at r0_c0) (adjacent r0_c0 r0_c1) (adjacent r0_c1 r0_c2) (ishill r0_c2))"
        " (:goal (and (at r0_c2))))"
    )
    return parse_problem_text(text, domain)


FOLDING = {
    "kelvin sign": (["(wal\u212a r0_c0 r0_c1)", "(climb r0_c1 r0_c2)"], "U+212A KELVIN SIGN"),
    "dotted capital I": (["(walk r0_c0 r0_c1)", "(cl\u0130mb r0_c1 r0_c2)"], "U+0130"),
    "fullwidth letter": (["(\uff57alk r0_c0 r0_c1)", "(climb r0_c1 r0_c2)"], "U+FF57"),
    "escape sequence": (["(walk r0_c0 r0_c1)\x1b[2K", "(climb r0_c1 r0_c2)"], "U+001B"),
}
"""Plans that reach the goal once their text is folded to ASCII, with the character named."""


@pytest.mark.parametrize("label", list(FOLDING))
@pytest.mark.parametrize("checker", ["auto", "simulator"])
def test_non_ascii_that_folds_to_ascii_is_a_syntax_error(label: str, checker: str) -> None:
    plan, named = FOLDING[label]
    verdict = validate.check_plan(_forest(), plan, checker=checker)
    assert not verdict.valid and verdict.kind is FailureKind.PLAN_SYNTAX, verdict
    assert named in verdict.message and "not printable ASCII" in verdict.message
    assert "\x1b" not in verdict.message  # the message shows the item escaped


def test_a_line_break_in_an_item_is_a_syntax_error_on_one_line() -> None:
    verdict = validate.check_plan(_forest(), ["(walk r0_c0 r0_c1)\n(climb r0_c1 r0_c2)"])
    assert verdict.kind is FailureKind.PLAN_SYNTAX and verdict.failing_step == 0
    assert "line break" in verdict.message
    assert "\n" not in verdict.message and "\\n" in verdict.message


def test_a_huge_item_is_shown_capped() -> None:
    verdict = validate.check_plan(_forest(), ["(walk r0_c0 " + "x" * 1_000_000 + ")"])
    assert verdict.kind is FailureKind.PLAN_SYNTAX
    assert len(verdict.message) < 1000 and "more characters cut" in verdict.message


def test_val_sees_exactly_the_returned_text(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []

    def fake_val(domain: str, problem: str, lines: list[str], **kw: object) -> ValResult:
        seen.append(list(lines))
        return ValResult(True, None, "", True, "Plan valid")

    monkeypatch.setattr(validate, "run_val", fake_val)
    monkeypatch.setattr(validate, "val_path", lambda: Path("/bin/true"))
    plan = ["( WALK  r0_c0 R0_C1 )", "(climb r0_c1 r0_c2)"]
    verdict = validate.check_plan(_forest(), plan, checker="val")
    assert verdict.valid and verdict.checker_used == "val"
    assert seen == [plan]


def test_the_world_model_does_not_fold_non_ascii_names() -> None:
    assert parse_action_text("(wal\u212a a b)") is None
    assert parse_action_text("(WALK a b)") == ("walk", "a", "b")


def test_runtime_counts_work_done_at_the_top_level() -> None:
    source = """
total = 0
for i in range(3_000_000):
    total += i
def get_plan(objects, init, goal):
    return []
"""
    started = time.monotonic()
    outcome = run_program(source, {"a"}, set(), set(), timeout=30, limits=Limits(grace_seconds=1.0))
    wall = time.monotonic() - started
    assert outcome.status is RunStatus.SUCCESS, outcome
    assert wall > 0.1
    assert outcome.seconds >= 0.5 * wall, (outcome.seconds, wall)


@pytest.mark.skipif(isolation_module.bwrap_binary() is None, reason="no bwrap here")
def test_genplans_data_is_hidden_inside_the_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    # An installation where genplan's data lies inside a bound folder (a site-packages holding
    # genplan/_data; here the checkout itself is bound): the data folders must show empty.
    monkeypatch.setattr(isolation_module, "_python_paths", lambda: [ROOT])
    arguments = isolation_module.bwrap_arguments(as_root=False)
    binary = isolation_module.bwrap_binary()
    assert binary is not None
    listing = subprocess.run(
        [binary, *arguments, "--", "/bin/ls", "-A", str(ROOT / "domains"), str(ROOT / "genplan" / "sandbox")],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert listing.returncode == 0, listing.stderr
    domains, code = listing.stdout.split("\n\n")
    assert "forest" not in domains and "policy.py" in code, listing.stdout
