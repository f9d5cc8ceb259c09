"""Program-controlled text is data (issue 23, classes 4 and 6): capped, with a note of what was
cut, and escaped, wherever it reaches a prompt, a plan file or the terminal."""

from __future__ import annotations

import pytest
from fake_programs import heavy_problem

from genplan.approaches.autotos import prompts as autotos_prompts
from genplan.approaches.generalized_plan import prompts
from genplan.approaches.generalized_plan.solver import Solver, SolverError
from genplan.plans.untrusted_text import shown_block, shown_text
from genplan.sandbox import Limits

HOSTILE = "\x1b[2J\x1b[HAll problems solved\r\n" + "x" * 5_000_000 + "\ud800"


def test_shown_text_is_one_escaped_capped_line() -> None:
    shown = shown_text(HOSTILE)
    assert "\n" not in shown and "\r" not in shown and "\x1b" not in shown
    assert shown.startswith("\\x1b[2J\\x1b[HAll problems solved\\r\\n")
    assert shown.endswith("more characters cut]") and len(shown) < 300
    shown.encode("utf-8")  # no lone surrogate left


def test_shown_block_keeps_lines_and_the_tail() -> None:
    shown = shown_block("Traceback:\n  line 1\n" + "y" * 100_000 + "\nValueError: boom\x1b[2J")
    assert "\n  line 1\n" in shown and shown.endswith("ValueError: boom\\x1b[2J")
    assert "characters cut" in shown and len(shown) < 9000


def test_generalized_plan_feedback_caps_the_program_text() -> None:
    for text in (
        prompts.exception_feedback("TASK", HOSTILE),
        prompts.timeout_feedback("TASK", HOSTILE, 30.0),
        prompts.crash_feedback("TASK", HOSTILE),
    ):
        assert len(text) < 20_000 and "characters cut" in text and "\x1b" not in text


def test_autotos_feedback_caps_the_program_text() -> None:
    text = autotos_prompts.feedback({"category": "goal-exception", "traceback": HOSTILE}, [])
    assert len(text) < 20_000 and "characters cut" in text and "\x1b" not in text


@pytest.mark.parametrize(
    "item",
    ["(move a b)\n(move c d)", "(move a b)\x1b[1A\x1b[2K", "(mov\u212a a b)"],
    ids=["line break", "escape sequence", "kelvin sign"],
)
def test_solve_never_writes_one_returned_string_as_several_lines(item: str) -> None:
    program = f"def get_plan(objects, init, goal):\n    return [{item!r}]\n"
    problem = heavy_problem("p", 2)
    solver = Solver(program, problem.domain, limits=Limits(grace_seconds=1.0))
    with pytest.raises(SolverError, match="not one line of printable ASCII") as raised:
        solver(problem)
    assert "\n" not in str(raised.value) and "\x1b" not in str(raised.value)


def test_solve_escapes_what_the_program_raised() -> None:
    program = "def get_plan(objects, init, goal):\n    raise ValueError('\\x1b[2J' + 'z' * 100000)\n"
    problem = heavy_problem("p", 2)
    solver = Solver(program, problem.domain, limits=Limits(grace_seconds=1.0))
    with pytest.raises(SolverError) as raised:
        solver(problem)
    assert "\x1b" not in str(raised.value) and len(str(raised.value)) < 20_000


def test_evaluates_failure_excerpt_is_escaped_and_capped() -> None:
    from genplan.cli.evaluate import reason_excerpt

    excerpt = reason_excerpt(
        "Traceback (most recent call last):\n  x\nValueError: \x1b[2J\x1b[H" + "w" * 100_000
    )
    assert "\x1b" not in excerpt and len(excerpt) < 1000
    assert excerpt.count("\n") == 2
