"""UP problems for the unified-planning tests: built-in domains read by UP's PDDL reader, a
problem built in Python with names PDDL must rename, and small programs for them."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from unified_planning.io import PDDLReader
from unified_planning.plans import SequentialPlan
from unified_planning.shortcuts import (
    BoolType,
    Equals,
    Fluent,
    InstantaneousAction,
    Not,
    Object,
    PlanValidator,
    Problem,
    UserType,
)

from genplan.paths import builtin_domain_file, data_folder
from genplan.pddl.problem import Problem as GenplanProblem
from genplan.pddl.problem import load_problem
from genplan.plans.validate import check_plan
from genplan.up.pddl import load_up_problem, pddl_text

COSTS = Path(__file__).resolve().parent.parent / "data" / "costs"

# The smallest of the paper's evaluation problems of each domain (seed 0) and a PlanBench one.
SMALL = {
    "gripper": "paper/seed0/problem13.pddl",
    "delivery": "paper/seed0/problem23.pddl",
    "forest": "paper/seed0/problem23.pddl",
    "miconic": "paper/seed0/problem10.pddl",
    "ferry": "paper/seed0/problem19.pddl",
    "spanner": "paper/seed0/problem9.pddl",
    "heavy": "paper/seed0/task17.pddl",
    "blocksworld": "planbench-hard/instance-1.pddl",
}


def problem_file(domain: str) -> Path:
    return data_folder("domains") / domain / SMALL[domain]


def domain_file(domain: str) -> Path:
    """The domain file of :func:`problem_file`: the paper's for the paper's problems (it names
    some domains differently, with the same predicates and operators)."""
    beside = problem_file(domain).parent / "domain.pddl"
    return beside if beside.is_file() else builtin_domain_file(domain)


def read_builtin(domain: str) -> object:
    """A built-in domain's small problem as UP's PDDL reader reads it."""
    return PDDLReader().parse_problem(str(domain_file(domain)), str(problem_file(domain)))


def genplan_builtin(domain: str) -> GenplanProblem:
    """The same problem as genplan reads it."""
    return load_problem(problem_file(domain), domain_file(domain))


def robot_problem() -> object:
    """A robot on a chain of rooms, built in Python, with names PDDL cannot keep: a problem
    name with a space, capitals, and two objects whose names differ only in case."""
    room = UserType("Room")
    robot_at = Fluent("RobotAt", BoolType(), r=room)
    connected = Fluent("Connected", BoolType(), a=room, b=room)
    move = InstantaneousAction("Move", From=room, To=room)
    here, there = move.parameters
    move.add_precondition(robot_at(here))
    move.add_precondition(connected(here, there))
    move.add_precondition(Not(Equals(here, there)))
    move.add_effect(robot_at(here), False)
    move.add_effect(robot_at(there), True)
    problem = Problem("Robot 1")
    problem.add_fluent(robot_at, default_initial_value=False)
    problem.add_fluent(connected, default_initial_value=False)
    problem.add_action(move)
    rooms = [Object(name, room) for name in ("Hall", "hall", "Kitchen", "Attic")]
    problem.add_objects(rooms)
    for a, b in pairwise(rooms):
        problem.set_initial_value(connected(a, b), True)
        problem.set_initial_value(connected(b, a), True)
    problem.set_initial_value(robot_at(rooms[0]), True)
    problem.add_goal(robot_at(rooms[-1]))
    return problem


ROBOT_PROGRAM = """
def get_plan(objects, init, goal):
    start = [atom[1] for atom in init if atom[0] == "robotat"][0]
    target = [atom[1] for atom in goal if atom[0] == "robotat"][0]
    edges = {}
    for atom in init:
        if atom[0] == "connected":
            edges.setdefault(atom[1], []).append(atom[2])
    parent = {start: None}
    frontier = [start]
    while frontier:
        room = frontier.pop(0)
        for other in sorted(edges.get(room, [])):
            if other not in parent:
                parent[other] = room
                frontier.append(other)
    path = [target]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])
    path.reverse()
    return ["(move %s %s)" % (a, b) for a, b in zip(path, path[1:])]
"""

COSTS_PROGRAM = """
def get_plan(objects, init, goal):
    truck = [name for name, kind in objects if kind == "truck"][0]
    crate, target = [(atom[1], atom[2]) for atom in goal if atom[0] == "at"][0]
    where = {atom[1]: atom[2] for atom in init if atom[0] == "at"}
    larger = [atom[2] for atom in init if atom[0] == "room" and atom[1] == truck][0]
    smaller = [atom[1] for atom in init if atom[0] == "one-less" and atom[2] == larger][0]
    return [
        "(load %s %s %s %s %s)" % (truck, where[crate], crate, smaller, larger),
        "(drive %s %s %s)" % (truck, where[crate], target),
        "(unload %s %s %s %s %s)" % (truck, target, crate, smaller, larger),
    ]
"""
"""Takes the direct road: a valid plan of cost 12 (the cheapest, through b, costs 7)."""


def read_costs() -> object:
    return PDDLReader().parse_problem(str(COSTS / "domain.pddl"), str(COSTS / "p01.pddl"))


def assert_valid_everywhere(
    up_problem: object, plan: SequentialPlan, genplan_problem: GenplanProblem
) -> None:
    """The plan UP received is valid by UP's own validator, and, written in PDDL by UP's
    writer, by genplan's simulator and by VAL on ``genplan_problem``."""
    with PlanValidator(name="sequential_plan_validator") as validator:
        assert validator.validate(up_problem, plan).status.name == "VALID"
    lines = [line for line in pddl_text(up_problem).writer.get_plan(plan).splitlines() if line.strip()]
    assert len(lines) == len(plan.actions)
    assert check_plan(genplan_problem, lines, checker="simulator").valid
    verdict = check_plan(genplan_problem, lines, checker="val")
    assert verdict.valid and verdict.checker_used == "val", verdict.message


def loaded(up_problem: object) -> GenplanProblem:
    return load_up_problem(up_problem).problem
