"""The genplan engine in unified-planning, after UP's own engine tests (``unified_planning/test``):
a problem of each supported kind solved and its plan checked, an unsupported kind refused, a
timeout, and genplan's promise: a wrong plan is never answered as solved."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import up_problems as ups
from unified_planning.engines.results import POSITIVE_OUTCOMES, PlanGenerationResultStatus
from unified_planning.environment import get_environment
from unified_planning.exceptions import UPUsageError
from unified_planning.shortcuts import OneshotPlanner
from unified_planning.test.examples import get_example_problems

import genplan.up
from genplan.errors import ConfigurationError
from genplan.paths import data_folder
from genplan.up.engine import GenplanEngine

Status = PlanGenerationResultStatus


@pytest.fixture(autouse=True)
def _quiet_credits() -> None:
    get_environment().credits_stream = None


def _program(tmp_path: Path, source: str, name: str = "program.py") -> str:
    path = tmp_path / name
    path.write_text(source)
    return str(path)


def test_the_engine_is_registered_by_name_only() -> None:
    factory = get_environment().factory
    assert factory.engine("genplan") is GenplanEngine
    assert not [name for name in factory.preference_list if "genplan" in name]  # never picked by kind


def test_the_package_metadata_declares_the_engine() -> None:
    (point,) = [p for p in entry_points(group="unified_planning.engines") if p.name == "genplan"]
    assert point.load() is GenplanEngine


def test_a_up_ini_file_finds_the_engine_without_importing_genplan(tmp_path: Path) -> None:
    """UP reads ``up.ini`` from the working folder up: its own way to name an engine."""
    (tmp_path / "up.ini").write_text(
        "[engine genplan]\nmodule_name: genplan.up.engine\nclass_name: GenplanEngine\n"
    )
    script = (
        "import sys\nfrom unified_planning.shortcuts import OneshotPlanner, get_environment\n"
        "assert 'genplan.up' not in sys.modules\n"
        "get_environment().credits_stream = None\n"
        "with OneshotPlanner(name='genplan', params={'program': 'gripper'}) as planner:\n"
        "    print(planner.name)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "genplan"


@pytest.mark.parametrize(
    ("domain", "feature"),
    [
        ("gripper", None),  # untyped PDDL: UP reads it with one type, object
        ("delivery", "FLAT_TYPING"),
        ("spanner", "HIERARCHICAL_TYPING"),
        ("forest", "NEGATIVE_CONDITIONS"),
    ],
)
def test_a_built_in_domain_is_solved_with_its_saved_program(domain: str, feature: str | None) -> None:
    problem = ups.read_builtin(domain)
    assert feature is None or feature in problem.kind.features
    with OneshotPlanner(name="genplan", params={"program": domain}) as planner:
        assert planner.supports(problem.kind)
        result = planner.solve(problem, timeout=60)
    assert result.status is Status.SOLVED_SATISFICING and result.status in POSITIVE_OUTCOMES
    assert result.engine_name == "genplan"
    assert all(step.action in problem.actions for step in result.plan.actions)
    assert all(
        p.object() in problem.all_objects for step in result.plan.actions for p in step.actual_parameters
    )
    messages = [message.message for message in result.log_messages]
    assert messages[0] == f"program: {data_folder('synthesized') / domain / 'main-seed0' / 'program.py'}"
    assert f"checked by val: valid plan, {len(result.plan.actions)} actions" in messages[-1]
    assert result.metrics["checked_by"] == "val"
    ups.assert_valid_everywhere(problem, result.plan, ups.genplan_builtin(domain))


def test_a_problem_built_in_python_gets_a_plan_in_its_own_names(tmp_path: Path) -> None:
    """Equality and negative conditions; names PDDL renames (``Robot 1``, ``Hall`` and ``hall``)."""
    problem = ups.robot_problem()
    assert {"EQUALITIES", "NEGATIVE_CONDITIONS", "FLAT_TYPING"} <= problem.kind.features
    with OneshotPlanner(name="genplan", params={"program": _program(tmp_path, ups.ROBOT_PROGRAM)}) as planner:
        result = planner.solve(problem)
    assert result.status is Status.SOLVED_SATISFICING
    names = [
        (step.action.name, [p.object().name for p in step.actual_parameters]) for step in result.plan.actions
    ]
    assert names == [
        ("Move", ["Hall", "hall"]),
        ("Move", ["hall", "Kitchen"]),
        ("Move", ["Kitchen", "Attic"]),
    ]
    assert [p.object() for p in result.plan.actions[0].actual_parameters] == [
        problem.object("Hall"),
        problem.object("hall"),
    ]
    ups.assert_valid_everywhere(problem, result.plan, ups.loaded(problem))


def test_an_action_cost_problem_is_solved_and_its_cost_reported(tmp_path: Path) -> None:
    problem = ups.read_costs()
    assert {"ACTIONS_COST", "STATIC_FLUENTS_IN_ACTIONS_COST"} <= problem.kind.features
    with OneshotPlanner(name="genplan", params={"program": _program(tmp_path, ups.COSTS_PROGRAM)}) as planner:
        result = planner.solve(problem)
    assert result.status is Status.SOLVED_SATISFICING
    assert result.metrics["plan_cost"] == "12"  # the direct road (10) and two loads (1 each)
    assert "cost 12" in result.log_messages[-1].message
    ups.assert_valid_everywhere(problem, result.plan, ups.loaded(problem))


def test_the_trusted_program_gives_the_same_plan() -> None:
    problem = ups.read_builtin("gripper")
    plans = []
    for trusted in (False, True):
        with OneshotPlanner(name="genplan", params={"program": "gripper", "trusted": trusted}) as planner:
            plans.append(str(planner.solve(problem).plan))
    assert plans[0] == plans[1]


def test_an_unsupported_kind_is_refused_with_ups_exception(tmp_path: Path) -> None:
    """UP's convention: an engine chosen by kind must support it; one chosen by name is warned
    about, and raises UP's exception when its ``error_on_failed_checks`` is set."""
    problem = get_example_problems()["basic_conditional"].problem  # conditional effects
    assert not GenplanEngine.supports(problem.kind)
    with OneshotPlanner(name="genplan", params={"program": "gripper"}) as planner:
        assert not planner.supports(problem.kind)
        with pytest.warns(UserWarning, match="cannot establish whether genplan can solve"):
            result = planner.solve(problem)
        assert result.status is Status.UNSUPPORTED_PROBLEM and result.plan is None
        assert "CONDITIONAL_EFFECTS" in result.log_messages[-1].message
        planner.error_on_failed_checks = True
        with pytest.raises(UPUsageError, match="cannot establish whether genplan can solve"):
            planner.solve(problem)
    with (
        GenplanEngine(program="gripper") as engine,
        pytest.raises(UPUsageError),
    ):  # made directly: UP's default
        engine.solve(problem)


def test_a_construct_ups_kinds_cannot_tell_apart_is_unsupported_when_solved(tmp_path: Path) -> None:
    """A negated goal is a NEGATIVE_CONDITIONS feature in UP, as a negated precondition is."""
    problem = ups.robot_problem()
    robot_at = problem.fluent("RobotAt")
    problem.add_goal(ups.Not(robot_at(problem.object("Hall"))))
    assert GenplanEngine.supports(problem.kind)
    with OneshotPlanner(name="genplan", params={"program": _program(tmp_path, ups.ROBOT_PROGRAM)}) as planner:
        result = planner.solve(problem)
    assert result.status is Status.UNSUPPORTED_PROBLEM and result.plan is None
    assert "negated atoms in the goal" in result.log_messages[-1].message


WRONG = "def get_plan(objects, init, goal):\n    return ['(move hall attic)']\n"
RAISES = "def get_plan(objects, init, goal):\n    return [1 / 0]\n"
LOOPS = "def get_plan(objects, init, goal):\n    while True:\n        pass\n"
SLOW = "def get_plan(objects, init, goal):\n    total = 0\n    for i in range(40000000):\n        total += i\n    return []\n"


@pytest.mark.parametrize("trusted", [False, True])
def test_a_wrong_plan_is_never_answered_as_solved(tmp_path: Path, trusted: bool) -> None:
    problem = ups.robot_problem()
    with OneshotPlanner(
        name="genplan", params={"program": _program(tmp_path, WRONG), "trusted": trusted}
    ) as planner:
        result = planner.solve(problem)
    assert result.status is Status.INTERNAL_ERROR and result.plan is None
    assert (
        "the program's plan is not valid (plan-semantics, checked by val)" in result.log_messages[-1].message
    )


def test_a_program_that_raises_is_an_internal_error(tmp_path: Path) -> None:
    with OneshotPlanner(name="genplan", params={"program": _program(tmp_path, RAISES)}) as planner:
        result = planner.solve(ups.robot_problem())
    assert result.status is Status.INTERNAL_ERROR and result.plan is None
    assert "ZeroDivisionError" in result.log_messages[-1].message


def test_the_timeout_stops_a_sandboxed_program(tmp_path: Path) -> None:
    with OneshotPlanner(name="genplan", params={"program": _program(tmp_path, LOOPS)}) as planner:
        started = time.monotonic()
        result = planner.solve(ups.robot_problem(), timeout=1.0)
        seconds = time.monotonic() - started
    assert result.status is Status.TIMEOUT and result.plan is None
    assert seconds < 8, seconds  # the budget and the sandbox's grace period, not forever


def test_a_trusted_program_past_the_timeout_is_a_timeout(tmp_path: Path) -> None:
    params = {"program": _program(tmp_path, SLOW), "trusted": True}
    with OneshotPlanner(name="genplan", params=params) as planner:
        result = planner.solve(ups.robot_problem(), timeout=0.5)  # the loop takes 2 s
    assert result.status is Status.TIMEOUT and result.plan is None
    assert "not stopped" in result.log_messages[-1].message


def test_the_log_goes_to_the_output_stream_too() -> None:
    stream = io.StringIO()
    with OneshotPlanner(name="genplan", params={"program": "gripper"}) as planner:
        planner.solve(ups.read_builtin("gripper"), output_stream=stream)
    assert (
        stream.getvalue().startswith("INFO: program: ") and "checked by val: valid plan" in stream.getvalue()
    )


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({}, "needs a program"),
        ({"program": "grippr"}, "neither a program file nor a built-in domain"),
        ({"program": "gripper", "checker": "vall"}, "checker must be one of auto, val, simulator"),
        ({"program": "gripper", "isolation": "docker"}, "isolation must be bwrap or none"),
        ({"program": "gripper", "trusted": "yes"}, "trusted must be true or false"),
    ],
)
def test_a_bad_parameter_is_named(params: dict[str, object], message: str) -> None:
    with pytest.raises(genplan.up.EngineSettingError, match=message) as raised:
        OneshotPlanner(name="genplan", params=params)
    assert isinstance(raised.value, UPUsageError) and isinstance(raised.value, ConfigurationError)


def test_a_program_file_that_is_not_python_is_refused_when_the_engine_starts(tmp_path: Path) -> None:
    with pytest.raises(genplan.up.EngineSettingError, match=r"program.py:1: the program is not Python"):
        OneshotPlanner(name="genplan", params={"program": _program(tmp_path, "```python\n")})
