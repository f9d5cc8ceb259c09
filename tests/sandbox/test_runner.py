"""The runner's outcomes: success, exception traceback, time-out traceback, bad output, trusted mode."""

from __future__ import annotations

import time

import pytest
from fake_programs import CORRECT, LOOPS, RAISES, heavy_problem

from genplan.sandbox import RunStatus, load_trusted, run_program, run_untrusted


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


def test_run_untrusted_calls_a_genplan_harness_with_json() -> None:
    outcome = run_untrusted(
        "def get_plan(objects, init, goal):\n    return sorted(a[0] for a in init)\n",
        "genplan.sandbox.harness:call_get_plan",
        [["a"], [["on", "a", "b"], ["clear", "a"]], []],
        timeout=5,
    )
    assert outcome.status is RunStatus.SUCCESS
    assert outcome.value["plan"] == ["clear", "on"] and type(outcome.value["seconds"]) is float


@pytest.mark.parametrize(
    "harness", ["os:system", "genplan:nothing", "builtins:eval", "json.decoder:scanstring"]
)
def test_only_genplan_harnesses_run(harness: str) -> None:
    outcome = run_untrusted("x = 1\n", harness, ["true"], timeout=5)
    assert outcome.status is RunStatus.CRASHED and "refused" in (outcome.reason or "")


def test_a_program_without_get_plan_says_so() -> None:
    outcome = run_program("def something_else():\n    return []\n", set(), set(), set(), timeout=5)
    assert outcome.status is RunStatus.RAISED
    assert "must define get_plan(objects, init, goal)" in (outcome.traceback or "")


def test_tuples_and_str_subclasses_come_back_as_a_list_of_str() -> None:
    outcome = run_program(
        "class Action(str):\n    pass\ndef get_plan(o, i, g):\n    return (Action('(a)'), '(b)')\n",
        set(),
        set(),
        set(),
    )
    assert outcome.status is RunStatus.SUCCESS and outcome.plan == ["(a)", "(b)"]
    assert all(type(action) is str for action in outcome.plan)


def test_a_forked_process_gets_workers_of_its_own() -> None:
    import multiprocessing

    run_program("def get_plan(o, i, g):\n    return []\n", set(), set(), set())  # a worker in this process
    source = "def get_plan(o, i, g):\n    return sorted(o)\n"
    context = multiprocessing.get_context("fork")
    with context.Pool(2) as pool:
        results = pool.starmap(_run_in_child, [(source, str(n)) for n in range(6)])
    assert results == [[str(n)] for n in range(6)]
    assert run_program(source, {"x"}, set(), set()).plan == ["x"]


def _run_in_child(source: str, name: str) -> list[str] | None:
    return run_program(source, {name}, set(), set()).plan


HASHES = "def get_plan(objects, init, goal):\n    return [repr(hash('abc')), ' '.join(objects)]\n"


def test_the_hash_seed_is_a_setting_of_the_run_not_of_the_callers_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from genplan.sandbox import Limits
    from genplan.sandbox.isolation import worker_environment
    from genplan.sandbox.pool import SandboxWorker

    def hashes(limits: Limits) -> list[str] | None:
        return run_program(HASHES, {f"o{i}" for i in range(30)}, set(), set(), timeout=5, limits=limits).plan

    default = hashes(Limits())
    assert default == hashes(Limits(hash_seed=0))
    other = hashes(Limits(hash_seed=7))
    assert other is not None and default is not None
    assert other[0] != default[0] and other[1] != default[1]  # string hashes and set order both change
    monkeypatch.setenv("PYTHONHASHSEED", "7")
    assert worker_environment()["PYTHONHASHSEED"] == "0"
    worker = SandboxWorker(Limits().isolation)  # started under the user's PYTHONHASHSEED=7
    try:
        request = {"source": HASHES, "harness": "genplan.sandbox.harness:call_get_plan", "timeout": 5.0}
        request.update(args=[sorted(f"o{i}" for i in range(30)), [], []], limits=Limits().to_json())
        answer = worker.run(request, time.monotonic() + 30, 1 << 20)
        assert answer["value"]["plan"] == default
        request["limits"] = Limits(hash_seed=7).to_json()
        refused = worker.run(request, time.monotonic() + 30, 1 << 20)
        assert refused["status"] == "crashed" and "hash seed 7" in refused["reason"]
    finally:
        worker.close()


def test_an_order_seed_shuffles_the_order_sets_are_built_in() -> None:
    listing = "def get_plan(objects, init, goal):\n    return [' '.join(atom) for atom in init]\n"
    init = {("at", f"o{i}", f"r{j}") for i in range(20) for j in range(20)}

    def order(seed: int | None) -> list[str] | None:
        return run_program(listing, set(), init, set(), timeout=5, order_seed=seed).plan

    assert order(None) == order(None) and order(3) == order(3)
    assert order(3) != order(None) and order(3) != order(4)
