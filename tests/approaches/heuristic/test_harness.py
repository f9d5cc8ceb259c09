"""The harnesses around the model's heuristic: checks, searches, hostile values, time limits.

Most tests run the harness in this process (``run_in_process``: the same compiled program and
harness, no isolation); those marked as sandbox tests go through the real sandbox, where a
program that swallows every interrupt can only be stopped by the sandbox's own budget.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from heuristic_programs import (
    BLIND,
    FACTORY_RAISES,
    GOAL_COUNT,
    GOAL_COUNT_PLUS_ONE,
    INFINITE,
    LOOPS,
    NOT_CALLABLE,
    RAISES,
    RETURNS_STRING,
    SWALLOWS,
    fenced,
    run_in_process,
)

from genplan.approaches.base import RunContext
from genplan.approaches.heuristic.approach import HeuristicApproach
from genplan.approaches.heuristic.candidates import CHECK_FAILED, USABLE, check_program, reason_line
from genplan.approaches.heuristic.probes import make_probes
from genplan.approaches.heuristic.searching import (
    Runner,
    problem_result,
    read_search,
    run_search,
    sandbox_runner,
)
from genplan.approaches.heuristic.settings import HeuristicSettings
from genplan.llm import FakeLanguageModel
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems, load_domain_problems
from genplan.sandbox import CallOutcome, Isolation, Limits, RunStatus


@pytest.fixture(scope="module")
def delivery(tmp_path_factory: pytest.TempPathFactory) -> DomainProblems:
    return load_domain_problems("delivery", 0, 2, tmp_path_factory.mktemp("delivery"))


def test_a_good_heuristic_finds_a_valid_plan_with_its_figures(delivery: DomainProblems) -> None:
    problem = delivery.evaluation[0]
    search = run_search(run_in_process, GOAL_COUNT, problem, 30.0, 1_000_000)
    assert search.status == "plan-found" and search.plan
    assert 0 < search.expanded <= search.evaluated <= search.generated + 1
    result = problem_result("eval/eval-00.pddl", problem, search)
    assert result.solved and result.checked_by in ("val", "simulator")
    assert result.plan_length == len(search.plan) and result.plan_cost == len(search.plan)
    assert result.details == {
        "expanded": search.expanded,
        "evaluated": search.evaluated,
        "generated": search.generated,
    }


@pytest.mark.parametrize(
    ("program", "status", "words"),
    [
        (RAISES, "heuristic-error", "ZeroDivisionError"),
        (RETURNS_STRING, "heuristic-error", "returned a str ('far')"),
        (FACTORY_RAISES, "factory-error", "KeyError"),
        (NOT_CALLABLE, "not-callable", "returned a int (3)"),
        (LOOPS, "search-timeout", "time limit of 1 s"),
        ("def make_heuristic(:\n", "program-error", "SyntaxError"),
        ("import os\ndef make_heuristic(o, i, g):\n    return len\n", "program-error", "os"),
    ],
)
def test_a_broken_heuristic_stops_the_search_and_says_why(
    delivery: DomainProblems, program: str, status: str, words: str
) -> None:
    search = run_search(run_in_process, program, delivery.training[0], 1.0, 1_000_000)
    assert search.status == status, search
    assert words in (search.message or ""), search.message
    result = problem_result("p", delivery.training[0], search)
    assert not result.solved and result.status == status and result.plan_length is None


def test_a_dead_end_everywhere_exhausts_the_search(delivery: DomainProblems) -> None:
    search = run_search(run_in_process, INFINITE, delivery.training[0], 5.0, 1_000_000)
    # the initial state is expanded, every successor evaluated and dropped
    assert (search.status, search.expanded) == ("search-exhausted", 1)
    assert 1 < search.evaluated <= search.generated + 1


def test_the_state_cap_stops_a_search(delivery: DomainProblems) -> None:
    search = run_search(run_in_process, BLIND, delivery.evaluation[0], 30.0, 50)
    assert search.status == "search-limit" and search.evaluated == 50


@pytest.mark.parametrize(
    "answer",
    [
        "not a dict",
        {"status": "plan-found", "plan": None, "expanded": 1, "evaluated": 1, "generated": 0},
        {"status": "plan-found", "plan": [3], "expanded": 1, "evaluated": 1, "generated": 0},
        {"status": "solved!", "plan": None, "expanded": 1, "evaluated": 1, "generated": 0},
        {"status": "search-timeout", "plan": None, "expanded": -1, "evaluated": 1, "generated": 0},
        {"status": "search-timeout", "plan": None, "expanded": True, "evaluated": 1, "generated": 0},
    ],
)
def test_an_answer_genplans_harness_never_writes_is_a_crash(answer: object) -> None:
    assert read_search(answer, 1.0).status == "crashed"


def test_a_check_gives_the_values_on_known_plans_and_their_counterexamples(delivery: DomainProblems) -> None:
    probes = make_probes(delivery.training, 2)
    assert all(p.plan_length for p in probes) and all(p.goals[-1] and not any(p.goals[:-1]) for p in probes)
    good = check_program(run_in_process, GOAL_COUNT, probes, 10.0)
    assert good.status == USABLE and good.found == []
    assert [len(v) for v in good.values] == [len(p.states) for p in probes]
    plus_one = check_program(run_in_process, GOAL_COUNT_PLUS_ONE, probes, 10.0)
    assert plus_one.usable and {c.kind for c in plus_one.found} == {"goal-not-zero"}
    assert len(plus_one.found) == len(probes)
    blind = check_program(run_in_process, BLIND, probes, 10.0)
    assert blind.usable and {c.kind for c in blind.found} == {"zero-off-goal"}
    assert len(blind.found) == sum(len(p.states) - 1 for p in probes)


@pytest.mark.parametrize(
    ("program", "words"),
    [
        (RAISES, "heuristic-error (on delivery-train-00): h raised an exception"),
        (RETURNS_STRING, "returned a str"),
        (NOT_CALLABLE, "not-callable"),
        (LOOPS, "timeout (on delivery-train-00): the heuristic did not answer within 1 s"),
        (INFINITE, "h is infinite on the initial state of delivery-train-00"),
        ("x = 1 / 0\n", "the program does not compile or its top level raised"),
    ],
)
def test_a_candidate_that_fails_its_check_says_why(
    delivery: DomainProblems, program: str, words: str
) -> None:
    check = check_program(run_in_process, program, make_probes(delivery.training, 1), 1.0)
    assert check.status == CHECK_FAILED and words in (check.reason or ""), check.reason


@pytest.mark.slow
def test_in_the_sandbox_a_search_is_fast_and_a_heuristic_that_swallows_interrupts_is_stopped(
    delivery: DomainProblems,
) -> None:
    runner = sandbox_runner(Limits(isolation=Isolation.BWRAP))
    problem: Problem = delivery.evaluation[0]
    found = run_search(runner, GOAL_COUNT, problem, 30.0, 1_000_000)
    assert found.status == "plan-found" and problem_result("p", problem, found).solved
    looping = run_search(runner, LOOPS, problem, 1.0, 1_000_000)
    assert looping.status == "search-timeout" and looping.seconds < 10
    swallowing = run_search(runner, SWALLOWS, problem, 1.0, 1_000_000)
    assert swallowing.status == "search-timeout", swallowing
    assert 1.0 <= swallowing.seconds < 20  # the sandbox's budget: the limit plus its slack
    hostile = check_program(runner, "import os\n" + GOAL_COUNT, make_probes(delivery.training, 1), 5.0)
    assert hostile.status == CHECK_FAILED and "os" in (hostile.reason or "")


def test_probe_problems_are_the_smallest_training_problems(tmp_path: Path) -> None:
    problems = load_domain_problems("gripper", 0, 1, tmp_path)
    probes = make_probes(problems.training, 3)
    assert [p.problem for p in probes] == list(problems.training[:3])
    assert all(p.remaining[0] == p.plan_length and p.remaining[-1] == 0 for p in probes)


HOARDS = """
def make_heuristic(objects, init, goal):
    hoard = []

    def h(state):
        hoard.append([0] * 1_000_000)
        return len(hoard)

    return h
"""
"""Keeps 8 MB per call: the search runs out of memory."""


@pytest.mark.slow
def test_the_memory_setting_is_each_sandboxed_searchs_limit(delivery: DomainProblems, tmp_path: Path) -> None:
    settings = HeuristicSettings(candidates=1, training_problems=1, probe_problems=1, memory_gib=0.5)
    context = RunContext(folder=tmp_path / "run", workers=1, eval_timeout=60)
    record = HeuristicApproach().run(delivery, FakeLanguageModel([fenced(HOARDS)]), settings, context)
    assert record.details["memory_gib"] == 0.5
    assert {p.status for p in record.problems} == {"search-memory"}
    assert all(p.seconds < 30 and p.details["evaluated"] < 64 for p in record.problems)  # 0.5 GiB / 8 MB


def _answering(outcome: CallOutcome, after: float = 0.0) -> Runner:
    """A runner that answers every call with ``outcome`` after ``after`` seconds."""

    def run(source: str, harness: str, args: list[Any], timeout: float) -> CallOutcome:
        time.sleep(after)
        return outcome

    return run


@pytest.mark.parametrize(
    ("reason", "status"),
    [
        ("the program ran out of memory (limit 2 GiB)", "search-memory"),
        # a recursion crash quotes the program's own lines, which may say "memory"
        ("maximum recursion depth (1000) exceeded:\n    memory = memory + [state]", "crashed"),
        ("the process was killed by signal 9 (SIGKILL)", "crashed"),
    ],
)
def test_only_the_sandboxs_out_of_memory_is_search_memory(
    delivery: DomainProblems, reason: str, status: str
) -> None:
    runner = _answering(CallOutcome(RunStatus.CRASHED, reason=reason))
    assert run_search(runner, GOAL_COUNT, delivery.training[0], 5.0, 100).status == status


def test_a_plan_found_after_the_time_limit_is_a_time_out(delivery: DomainProblems) -> None:
    value = {"status": "plan-found", "plan": ["(noop)"], "expanded": 1, "evaluated": 1, "generated": 0}
    late = run_search(
        _answering(CallOutcome(RunStatus.SUCCESS, value), 0.3), GOAL_COUNT, delivery.training[0], 0.1, 9
    )
    assert (late.status, late.plan) == ("search-timeout", None)
    assert "past the time limit of 0.1 s" in (late.message or "")
    in_time = run_search(
        _answering(CallOutcome(RunStatus.SUCCESS, value)), GOAL_COUNT, delivery.training[0], 5.0, 9
    )
    assert (in_time.status, in_time.plan) == ("plan-found", ["(noop)"])


def test_text_the_program_controls_is_escaped_in_records_and_notes(delivery: DomainProblems) -> None:
    hostile = "Traceback:\n  h\r\nValueError: \x1b[2J\x1b]0;owned\x07 \ud800 gone"
    search = run_search(
        _answering(CallOutcome(RunStatus.RAISED, traceback=hostile)), GOAL_COUNT, delivery.training[0], 5.0, 9
    )
    assert search.status == "program-error" and search.message is not None
    assert not any(c in search.message for c in "\x1b\x07\r\ud800")
    assert "\\x1b[2J" in search.message and "\n" in search.message  # escaped, lines kept
    line = reason_line(hostile)
    assert "\\x1b" in line and not any(c in line for c in "\x1b\x07\r\n\ud800")
