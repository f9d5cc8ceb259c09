"""Programs compiled once (issue 36): the worker compiles a source once and forks every call
from that state; each call's child still runs the program's top level in its own process, and
nothing a call leaves behind reaches the next. Hostile sources do not get past the policy by
being compiled ahead, and do not stop the worker."""

from __future__ import annotations

import uuid

import pytest

from genplan.sandbox import Limits, PolicyViolation, RunStatus, load_trusted, run_program, run_untrusted
from genplan.sandbox.compiled import MAX_PRECOMPILED_CHARS, CompiledPrograms
from genplan.sandbox.harness import call_get_plan
from genplan.sandbox.limits import Isolation
from genplan.sandbox.worker import serve

TRIVIAL = "def get_plan(objects, init, goal):\n    return []\n"

TOP_LEVEL_CLOCK = """
import time
LOADED = time.monotonic()

def get_plan(objects, init, goal):
    return ["(loaded %r)" % LOADED, "(called %r)" % time.monotonic()]
"""
"""Its plan says when its top level ran and when ``get_plan`` was called (a clock shared by processes)."""

LEAVES_STATE = """
import collections

SEEN = getattr(collections, "genplan_seen", 0)
collections.genplan_seen = SEEN + 1

def get_plan(objects, init, goal):
    collections.genplan_seen += 10
    return ["(seen %d)" % SEEN]
"""
"""Leaves marks on a module every program shares, at its top level and in ``get_plan``: a call
that saw a mark an earlier call left would say so in its plan."""

LIMITS = Limits(isolation=Isolation.NONE)


def _plan(source: str, limits: Limits = LIMITS) -> list[str]:
    outcome = run_program(source, {"a"}, set(), set(), timeout=10, limits=limits)
    assert outcome.status is RunStatus.SUCCESS, outcome.reason or outcome.traceback
    assert outcome.plan is not None
    return outcome.plan


def test_a_source_is_compiled_once() -> None:
    programs = CompiledPrograms()
    first = programs.code(TRIVIAL)
    assert first is not None and programs.code(TRIVIAL) is first and programs.compiled == 1
    assert programs.code(TRIVIAL + "\n") is not first and programs.compiled == 2


def test_the_least_recently_used_program_goes_first() -> None:
    programs = CompiledPrograms(capacity=2)
    sources = [f"X = {n}\n" for n in range(3)]
    programs.code(sources[0])
    programs.code(sources[1])
    programs.code(sources[0])  # used again: the newest
    programs.code(sources[2])  # evicts sources[1]
    compiled = programs.compiled
    programs.code(sources[0])
    assert programs.compiled == compiled
    programs.code(sources[1])
    assert programs.compiled == compiled + 1


@pytest.mark.parametrize(
    "source",
    [
        "def get_plan(o, i, g):\n    return open('/etc/passwd').read()\n",  # a policy violation
        "def get_plan(o, i, g)\n    return []\n",  # a syntax error
        "x = " + "-" * 30_000 + "1\n",  # the parser runs out of memory
        "x = " + "+".join(["1"] * 20_000) + "\n",  # too deep for the compiler
        "x = " + "(" * 300 + "1" + ")" * 300 + "\n",  # too deep for the parser
        "x = 1\0\n",  # a null byte
    ],
)
def test_a_source_that_does_not_compile_is_not_kept(source: str) -> None:
    programs = CompiledPrograms()
    assert programs.code(source) is None and programs.code(source) is None
    assert programs.compiled == 2  # nothing kept: each call's child compiles it and reports why


def test_a_long_source_is_compiled_in_the_child() -> None:
    programs = CompiledPrograms()
    assert programs.code("#" * MAX_PRECOMPILED_CHARS + "\n") is None and programs.compiled == 0


def test_the_worker_compiles_once_and_forks_each_call_from_it() -> None:
    programs = CompiledPrograms()
    config = {"require_seccomp": False, "drop_to": None}
    request = {"source": TRIVIAL, "harness": "genplan.sandbox.harness:call_get_plan", "timeout": 10.0}
    request |= {"args": [[], [], []], "limits": LIMITS.to_json()}
    answers = [serve(dict(request), call_get_plan, config, programs) for _ in range(3)]
    assert [answer["status"] for answer in answers] == ["success"] * 3
    assert programs.compiled == 1


def test_each_call_runs_the_top_level_in_its_own_child() -> None:
    first = _plan(TOP_LEVEL_CLOCK)
    second = _plan(TOP_LEVEL_CLOCK)
    loaded_first, called_first = (float(action[1:-1].split()[1]) for action in first)
    loaded_second, _ = (float(action[1:-1].split()[1]) for action in second)
    assert loaded_first <= called_first < loaded_second  # the top level ran again, after the first call


@pytest.mark.parametrize("isolation", [Isolation.NONE, Isolation.BWRAP])
def test_state_a_call_leaves_behind_never_reaches_the_next(isolation: Isolation) -> None:
    plans = [_plan(LEAVES_STATE, Limits(isolation=isolation)) for _ in range(3)]
    assert plans == [["(seen 0)"]] * 3  # every call starts from the worker's state, unmarked


def test_a_policy_violation_is_reported_as_before() -> None:
    source = "def get_plan(o, i, g):\n    return eval('1')\n"
    for _ in range(2):
        outcome = run_program(source, set(), set(), set(), timeout=10, limits=LIMITS)
        assert outcome.status is RunStatus.RAISED
        assert outcome.traceback is not None and "eval" in outcome.traceback


def test_a_source_the_compiler_cannot_take_leaves_the_worker_serving() -> None:
    for source in ("x = " + "-" * 30_000 + "1\n", "x = " + "+".join(["1"] * 20_000) + "\n"):
        outcome = run_program(source, set(), set(), set(), timeout=10, limits=LIMITS)
        assert outcome.status in (RunStatus.RAISED, RunStatus.CRASHED)
    assert _plan(TRIVIAL) == []


def test_trusted_mode_compiles_once_and_runs_the_top_level_at_each_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import genplan.sandbox.trusted as trusted

    programs = CompiledPrograms()
    monkeypatch.setattr(trusted, "_PROGRAMS", programs)
    plans = [load_trusted(TOP_LEVEL_CLOCK)(set(), set(), set()) for _ in range(2)]
    assert programs.compiled == 1
    assert float(plans[0][1][1:-1].split()[1]) < float(plans[1][0][1:-1].split()[1])
    with pytest.raises(PolicyViolation):
        load_trusted("x = eval('1')\n")


@pytest.mark.parametrize("isolation", [Isolation.NONE, Isolation.BWRAP])
@pytest.mark.parametrize("next_source", ["", "#" * MAX_PRECOMPILED_CHARS + "\n"], ids=["short", "long"])
def test_an_earlier_programs_code_is_not_alive_in_the_next_programs_child(
    isolation: Isolation, next_source: str
) -> None:
    """The next program may be one the worker compiles (it replaces the earlier code) or one
    too long to compile ahead (the earlier code must go all the same)."""
    secret = f"constant-of-another-program-{uuid.uuid4().hex}"
    limits = Limits(grace_seconds=1.0, isolation=isolation)
    earlier = f"def unused():\n    return {secret!r}\n\ndef get_plan(objects, init, goal):\n    return []\n"
    assert _plan(earlier, limits) == []
    # The same worker (the pool hands back the one just released) compiles and runs the probe.
    probe = run_untrusted(
        next_source, "genplan.sandbox.probes:probe", ["find-in-memory", secret], timeout=5, limits=limits
    )
    assert probe.status is RunStatus.SUCCESS and probe.value is not None
    assert not probe.value["done"], probe.value
