"""The runner's outcomes: success, exception traceback, time-out traceback, bad output, trusted mode."""

from __future__ import annotations

from fake_programs import CORRECT, LOOPS, RAISES, heavy_problem

from genplan.sandbox import RunStatus, load_trusted, run_program


def test_success_returns_the_plan_and_seconds() -> None:
    problem = heavy_problem("p", 5)
    outcome = run_program(CORRECT, problem.objects, problem.init, problem.goal, timeout=5)
    assert outcome.status is RunStatus.SUCCESS
    assert outcome.plan is not None and outcome.plan[0] == "(pack-first o0)" and len(outcome.plan) == 5
    assert 0 <= outcome.seconds < 5


def test_exception_traceback_is_the_papers() -> None:
    problem = heavy_problem("p", 3)
    outcome = run_program(RAISES, problem.objects, problem.init, problem.goal, timeout=5)
    assert outcome.status is RunStatus.RAISED
    lines = (outcome.traceback or "").splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == '  File "<file-name-omitted>", line 3, in get_plan'
    assert lines[2].strip() == 'heaviest = [atom[3] for atom in init if atom[0] == "heavier"]'
    assert lines[-1] == "IndexError: tuple index out of range"
    assert "genplan" not in (outcome.traceback or "") and "RestrictedPython" not in (outcome.traceback or "")


def test_timeout_shows_where_it_was_interrupted() -> None:
    outcome = run_program(LOOPS, set(), set(), set(), timeout=0.5)
    assert outcome.status is RunStatus.TIMED_OUT and outcome.seconds >= 0.5
    assert outcome.traceback is not None and outcome.traceback.endswith("KeyboardInterrupt")
    assert 'File "<file-name-omitted>", line' in outcome.traceback


def test_bad_output_is_reported_with_a_reason() -> None:
    outcome = run_program(
        "def get_plan(o, i, g):\n    return [('pick', 'a')]\n", set(), set(), set(), timeout=5
    )
    assert outcome.status is RunStatus.BAD_OUTPUT
    assert outcome.reason == "the plan must be a list of strings, but the item at step 1 is ('pick', 'a')"
    assert outcome.output == "[('pick', 'a')]"


def test_printed_output_is_captured() -> None:
    outcome = run_program(
        "def get_plan(o, i, g):\n    print('thinking')\n    return []\n", set(), set(), set(), timeout=5
    )
    assert outcome.status is RunStatus.SUCCESS and outcome.stdout == "thinking\n"


def test_trusted_mode_gives_identical_results() -> None:
    for items in (3, 7, 40):
        problem = heavy_problem("p", items)
        sandboxed = run_program(CORRECT, problem.objects, problem.init, problem.goal, timeout=5)
        assert load_trusted(CORRECT)(problem.objects, problem.init, problem.goal) == sandboxed.plan


def test_trusted_mode_passes_copies() -> None:
    solve = load_trusted("def get_plan(objects, init, goal):\n    init.clear()\n    return []\n")
    init = {("a",)}
    solve(set(), init, set())
    assert init == {("a",)}
