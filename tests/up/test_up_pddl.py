"""UP problems as genplan problems: a round trip of every built-in domain through UP's PDDL
reader and writer, names PDDL renames mapped back, plans read back in UP's names."""

from __future__ import annotations

from pathlib import Path

import pytest
import up_problems as ups
from fake_programs import heavy_problem
from unified_planning.exceptions import UPUsageError
from unified_planning.io import PDDLReader
from unified_planning.plans import SequentialPlan

from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import Operator
from genplan.pddl.problem import Problem, load_problem
from genplan.up.errors import UnsupportedUpProblem
from genplan.up.pddl import load_up_problem, pddl_text, read_up_plan, up_plan


def _normal(operator: Operator) -> tuple[object, ...]:
    """An operator with its variables numbered by position (UP's writer may rename ``?v`` ``?v_0``)."""
    names = {variable: f"?{index}" for index, (variable, _) in enumerate(operator.parameters)}

    def atoms(group: tuple[tuple[str, ...], ...]) -> list[tuple[str, ...]]:
        return sorted(tuple(names.get(word, word) for word in atom) for atom in group)

    return (
        [kind for _, kind in operator.parameters],
        atoms(operator.positive_preconditions),
        atoms(operator.negative_preconditions),
        atoms(operator.add_effects),
        atoms(operator.delete_effects),
        operator.cost
        if not isinstance(operator.cost, tuple)
        else tuple(names.get(w, w) for w in operator.cost),
    )


def assert_same_task(back: Problem, original: Problem) -> None:
    assert back.domain.typed == original.domain.typed
    assert dict(back.domain.predicates) == dict(original.domain.predicates)
    assert {n: _normal(o) for n, o in back.domain.operators.items()} == {
        n: _normal(o) for n, o in original.domain.operators.items()
    }
    assert dict(back.object_types) == dict(original.object_types)
    assert back.objects == original.objects  # what get_plan receives: names, or (name, type) pairs
    assert back.init == original.init and back.goal == original.goal
    assert (
        dict(back.fluents) == dict(original.fluents)
        and back.minimize_total_cost == original.minimize_total_cost
    )


@pytest.mark.parametrize("domain", sorted(set(ups.SMALL) - {"heavy"}))
def test_a_built_in_domain_round_trips_through_ups_reader_and_writer(domain: str) -> None:
    back = load_up_problem(ups.read_builtin(domain)).problem
    assert_same_task(back, ups.genplan_builtin(domain))


def test_genplans_own_pddl_round_trips_through_up(tmp_path: Path) -> None:
    """heavy (a generated problem, written by genplan) and the action-cost domain."""
    original = heavy_problem("p", 6)
    (tmp_path / "p.pddl").write_text(original.to_pddl())
    read = PDDLReader().parse_problem(str(builtin_domain_file("heavy")), str(tmp_path / "p.pddl"))
    assert_same_task(load_up_problem(read).problem, original)
    costs = ups.loaded(ups.read_costs())
    assert_same_task(costs, load_problem(ups.COSTS / "p01.pddl", ups.COSTS / "domain.pddl"))


@pytest.mark.xfail(strict=True, raises=KeyError, reason="UP's PDDL reader fails on `object` listed in :types")
def test_logistics_is_not_read_by_ups_reader() -> None:
    domain = builtin_domain_file("logistics")
    problem = next(p for p in sorted(domain.parent.rglob("*.pddl")) if p.name != "domain.pddl")
    PDDLReader().parse_problem(str(domain), str(problem))


def test_an_untyped_domain_stays_untyped() -> None:
    text = pddl_text(ups.read_builtin("gripper"))
    assert ":typing" not in text.domain and " - object" not in text.domain + text.problem
    assert (
        load_up_problem(ups.read_builtin("gripper")).problem.objects == ups.genplan_builtin("gripper").objects
    )


def test_names_pddl_renames_are_mapped_back() -> None:
    problem = ups.robot_problem()
    text = pddl_text(problem)
    assert "(define (problem robot_1-problem)" in text.problem and "hall_0" in text.problem
    plan = up_plan(problem, text.writer, ["(move hall_0 hall)", "(MOVE hall kitchen)"])
    assert isinstance(plan, SequentialPlan)
    hall, other_hall = problem.object("Hall"), problem.object("hall")
    assert [p.object() for p in plan.actions[0].actual_parameters] == [hall, other_hall]
    assert plan.actions[1].action is problem.action("Move")


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (["(fly hall attic)"], "step 1 of the plan names 'fly', which is no action"),
        (
            ["(move hall attic)", "(move attic cellar)"],
            "step 2 of the plan names 'cellar', which is no object",
        ),
        (["move hall attic"], "step 1 of the plan is not an action"),
        (["(robotat hall)"], "names 'robotat', which is no action"),
    ],
)
def test_a_plan_naming_what_the_problem_lacks_is_refused(actions: list[str], message: str) -> None:
    problem = ups.robot_problem()
    with pytest.raises(ConfigurationError, match=message):
        up_plan(problem, pddl_text(problem).writer, actions)


def test_a_saved_plan_file_reads_back_in_ups_names(tmp_path: Path) -> None:
    problem = ups.robot_problem()
    (tmp_path / "robot.plan").write_text("(move hall_0 hall)\n(move hall kitchen)\n; cost = 2 (unit cost)\n")
    plan = read_up_plan(problem, tmp_path / "robot.plan")
    assert str(plan) == str(
        up_plan(problem, pddl_text(problem).writer, ["(move hall_0 hall)", "(move hall kitchen)"])
    )
    with pytest.raises(ConfigurationError, match=r"robot.plan: step 1 of the plan names 'fly'"):
        (tmp_path / "robot.plan").write_text("(fly hall attic)\n")
        read_up_plan(problem, tmp_path / "robot.plan")


def test_what_is_not_a_up_problem_is_refused_with_ups_exception() -> None:
    with pytest.raises(UnsupportedUpProblem, match="not a str") as raised:
        load_up_problem("gripper")
    assert isinstance(raised.value, UPUsageError)
