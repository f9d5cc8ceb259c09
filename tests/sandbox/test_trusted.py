"""Trusted mode: what a program raises is the caller's error, never the caller's exit (issue 34)."""

from __future__ import annotations

import sys

import pytest

from genplan.errors import GenplanError
from genplan.sandbox import ProgramStopped, load_trusted

RAISED = {
    "SystemExit": "SystemExit(0)",
    "KeyboardInterrupt": "KeyboardInterrupt()",
    "GeneratorExit": "GeneratorExit('\\x1b[2J')",
}


@pytest.mark.parametrize("kind", list(RAISED))
def test_a_base_exception_at_the_top_level_is_program_stopped(kind: str) -> None:
    limit = sys.getrecursionlimit()
    source = f"import sys\nsys.setrecursionlimit({limit + 77})\nraise {RAISED[kind]}\n"
    with pytest.raises(ProgramStopped, match=f"the program raised {kind} at its top level") as caught:
        load_trusted(source)
    assert isinstance(caught.value, GenplanError) and type(caught.value.raised).__name__ == kind
    assert "\x1b" not in str(caught.value)
    assert sys.getrecursionlimit() == limit


@pytest.mark.parametrize("kind", list(RAISED))
def test_a_base_exception_in_get_plan_is_program_stopped(kind: str) -> None:
    solve = load_trusted(f"def get_plan(objects, init, goal):\n    raise {RAISED[kind]}\n")
    with pytest.raises(ProgramStopped, match=f"the program raised {kind} in get_plan"):
        solve(set(), set(), set())


def test_an_exception_stays_what_it_is() -> None:
    solve = load_trusted("def get_plan(objects, init, goal):\n    raise ValueError('x')\n")
    with pytest.raises(ValueError, match="x"):
        solve(set(), set(), set())


def test_a_message_that_cannot_be_read_is_still_an_error() -> None:
    source = (
        "class Stop(BaseException):\n"
        "    def __str__(self):\n"
        "        raise SystemExit(1)\n"
        "def get_plan(objects, init, goal):\n"
        "    raise Stop()\n"
    )
    with pytest.raises(ProgramStopped, match=r"Stop in get_plan: \(its message could not be read\)"):
        load_trusted(source)(set(), set(), set())
