"""What genplan models of PDDL, and nothing else (issue 33, items 1 and 3): every construct of the
table that genplan does not model is refused when it loads, naming the file, the line and the
construct; real benchmark files that VAL and Fast Downward accept load."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from genplan.errors import PddlError
from genplan.pddl.domain import load_domain, parse_domain_text
from genplan.pddl.fragment import CONSTRUCTS, UnsupportedPddl, markdown_table
from genplan.pddl.problem import load_problem, parse_problem_text
from genplan.pddl.text import parse_with_location
from genplan.plans.val import val_path
from genplan.plans.validate import check_plan

DOMAIN = """(define (domain d)
  (:requirements :strips :typing :negative-preconditions :equality :action-costs)
  (:types thing other)
  (:constants c0 - thing)
  (:predicates (p ?x - thing) (q) (r ?x - other))
  (:functions (total-cost) - number (weight ?x - thing) - number)
  (:action a
    :parameters (?x - thing ?y - thing)
    :precondition (and (p ?x) (not (q)) (not (= ?x ?y)) (= ?x c0))
    :effect (and (q) (not (p ?x)) (increase (total-cost) (weight ?x)))))
"""

PROBLEM = """(define (problem e) (:domain d)
  (:objects t1 t2 - thing o1 - other)
  (:init (p t1) (p c0) (= (weight t1) 2) (= (weight c0) 1) (= (total-cost) 0))
  (:goal (and (q)))
  (:metric minimize (total-cost)))
"""


@dataclass(frozen=True)
class Case:
    """A construct used in the domain or the problem: replace ``old`` by ``new``; the error
    names the line holding ``marker``."""

    key: str
    old: str
    new: str
    marker: str
    in_problem: bool = False


CASES = [
    Case("either-types", "(?x - thing ?y - thing)", "(?x - (either thing other) ?y - thing)", "(either"),
    Case("disjunctive-preconditions", "(p ?x) (not (q))", "(or (p ?x) (q)) (not (q))", "(or"),
    Case("disjunctive-preconditions", "(p ?x) (not (q))", "(imply (p ?x) (q))", "(imply"),
    Case("existential-preconditions", "(p ?x) (not (q))", "(exists (?z - thing) (p ?z))", "(exists"),
    Case("universal-preconditions", "(p ?x) (not (q))", "(forall (?z - thing) (p ?z))", "(forall"),
    Case("conditional-effects", "(and (q) (not (p ?x))", "(and (when (p ?x) (q)) (not (p ?x))", "(when"),
    Case("conditional-effects", "(and (q) (not (p ?x))", "(and (forall (?z - thing) (q)) (not (p ?x))", "(forall"),
    Case("negative-goals", "(:goal (and (q)))", "(:goal (and (q) (not (p t1))))", "(not (p t1))", True),
    Case("negative-initial-facts", "(:init (p t1)", "(:init (p t1) (not (p t2))", "(not (p t2))", True),
    Case("numeric-fluents", "(p ?x) (not (q))", "(p ?x) (> (weight ?x) 1)", "(>"),
    Case("numeric-fluents", "(increase (total-cost) (weight ?x))", "(decrease (weight ?x) 1)", "(decrease"),
    Case("object-fluents", "(weight ?x - thing) - number)", "(weight ?x - thing) - number (home ?x - thing) - other)", "(home"),
    Case("derived-predicates", "  (:action a", "  (:derived (q) (p c0))\n  (:action a", "(:derived"),
    Case("durative-actions", "  (:action a", "  (:durative-action b :parameters () :duration (= ?duration 1)\n    :condition (at start (q)) :effect (at end (q)))\n  (:action a", "(:durative-action"),
    Case("timed-initial-literals", "(:init (p t1)", "(:init (p t1) (at 10 (q))", "(at 10", True),
    Case("preferences", "(p ?x) (not (q))", "(p ?x) (preference pr (q))", "(preference"),
    Case("constraints", "  (:action a", "  (:constraints (always (q)))\n  (:action a", "(:constraints"),
    Case("constraints", "(:goal (and (q)))", "(:goal (and (q)))\n  (:constraints (always (q)))", "(:constraints", True),
    Case("other-metrics", "(:metric minimize (total-cost))", "(:metric maximize (total-cost))", "(:metric", True),
]  # fmt: skip


def _line(text: str, marker: str) -> int:
    return text[: text.index(marker)].count("\n") + 1


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case.key}:{case.marker}")
def test_a_construct_genplan_does_not_model_is_refused_with_its_line(case: Case) -> None:
    domain_text = DOMAIN if case.in_problem else DOMAIN.replace(case.old, case.new, 1)
    problem_text = PROBLEM.replace(case.old, case.new, 1) if case.in_problem else PROBLEM
    assert (problem_text if case.in_problem else domain_text) != (PROBLEM if case.in_problem else DOMAIN)
    with pytest.raises(UnsupportedPddl) as refused:
        parse_problem_text(problem_text, parse_domain_text(domain_text, Path("d.pddl")), Path("p.pddl"))
    error = refused.value
    assert error.construct.key == case.key
    where = problem_text if case.in_problem else domain_text
    assert error.path == Path("p.pddl" if case.in_problem else "d.pddl")
    assert error.line == _line(where, case.marker)
    assert f"genplan does not model {error.construct.name}" in str(error)


def test_every_construct_genplan_refuses_has_a_case() -> None:
    refused = {construct.key for construct in CONSTRUCTS if not construct.modelled}
    assert {case.key for case in CASES} == refused


def test_every_construct_genplan_models_loads_and_is_checked_as_val_checks_it() -> None:
    """The modelled rows of the table together: typing, negative preconditions, equality,
    constants and action costs (a function term over a parameter); VAL and the simulator agree."""
    problem = parse_problem_text(PROBLEM, parse_domain_text(DOMAIN))
    operator = problem.domain.operators["a"]
    assert operator.negative_preconditions == (("q",), ("=", "?x", "?y"))
    assert operator.cost == ("weight", "?x")
    valid, invalid = ["(a c0 t1)"], ["(a t1 c0)"]
    assert check_plan(problem, valid, checker="simulator").cost == 1.0
    assert not check_plan(problem, invalid, checker="simulator").valid
    if val_path() is not None:
        assert check_plan(problem, valid, checker="val").valid
        assert not check_plan(problem, invalid, checker="val").valid


def test_declaring_a_requirement_is_not_using_it() -> None:
    adl = DOMAIN.replace("(:requirements :strips", "(:requirements :adl :derived-predicates :strips")
    assert parse_domain_text(adl).operators.keys() == {"a"}


IPC_GRIPPER = """(define (domain gripper-strips)
 (:requirements :strips :typing)
 (:types room object robot gripper)
 (:predicates (at-robby ?r - robot ?x - room) (at ?o - object ?x - room)
   (free ?r - robot ?g - gripper) (carry ?r - robot ?o - object ?g - gripper))
 (:action move :parameters (?r - robot ?from ?to - room)
   :precondition (and (at-robby ?r ?from)) :effect (and (at-robby ?r ?to) (not (at-robby ?r ?from))))
 (:action pick :parameters (?r - robot ?obj - object ?room - room ?g - gripper)
   :precondition (and (at ?obj ?room) (at-robby ?r ?room) (free ?r ?g))
   :effect (and (carry ?r ?obj ?g) (not (at ?obj ?room)) (not (free ?r ?g))))
 (:action drop :parameters (?r - robot ?obj - object ?room - room ?g - gripper)
   :precondition (and (carry ?r ?obj ?g) (at-robby ?r ?room))
   :effect (and (at ?obj ?room) (free ?r ?g) (not (carry ?r ?obj ?g)))))
"""
IPC_GRIPPER_PROBLEM = """(define (problem gripper-1) (:domain gripper-strips)
 (:objects robot1 - robot rgripper1 lgripper1 - gripper room1 room2 - room ball1 ball2 - object)
 (:init (at-robby robot1 room1) (free robot1 rgripper1) (free robot1 lgripper1) (at ball1 room1)
   (at ball2 room1))
 (:goal (and (at ball1 room2) (at ball2 room2))))
"""


def test_the_ipc_gripper_domain_declaring_the_object_type_loads_and_its_plans_check(tmp_path: Path) -> None:
    """The IPC Gripper domain lists ``object`` in ``(:types ...)``, which VAL and Fast Downward
    accept; the pddl library refused it (``invalid name 'object': it is a keyword``)."""
    (tmp_path / "domain.pddl").write_text(IPC_GRIPPER)
    (tmp_path / "p01.pddl").write_text(IPC_GRIPPER_PROBLEM)
    problem = load_problem(tmp_path / "p01.pddl", load_domain(tmp_path / "domain.pddl"))
    assert "object" not in problem.domain.types and problem.object_types["ball1"] == "object"
    plan = [
        "(pick robot1 ball1 room1 rgripper1)",
        "(pick robot1 ball2 room1 lgripper1)",
        "(move robot1 room1 room2)",
        "(drop robot1 ball1 room2 rgripper1)",
        "(drop robot1 ball2 room2 lgripper1)",
    ]
    assert check_plan(problem, plan, checker="simulator").valid
    assert not check_plan(problem, plan[:-1], checker="simulator").valid
    if val_path() is not None:
        verdict = check_plan(problem, plan, checker="val")
        assert verdict.valid and verdict.checker_used == "val"


@pytest.mark.parametrize(
    ("old", "new", "marker", "message"),
    [
        ("o1 - other)", "o1 - other t1)", "t1)", "object t1 is declared twice (first on line 2)"),
        ("o1 - other)", "o1 - other c0)", "(:objects", "object c0 is also a constant of the domain"),
        (
            "t1 t2 - thing",
            "t1 t2 - (either thing other)",
            "(either",
            "object t1 of type (either other thing)",
        ),
    ],
)
def test_objects_declared_twice_are_errors_naming_the_line(
    old: str, new: str, marker: str, message: str
) -> None:
    text = PROBLEM.replace(old, new, 1)
    with pytest.raises(PddlError) as caught:
        parse_problem_text(text, parse_domain_text(DOMAIN), Path("p.pddl"))
    assert message in str(caught.value) and caught.value.line == _line(text, marker)


def test_a_constant_declared_twice_is_an_error_naming_the_line() -> None:
    text = DOMAIN.replace("(:constants c0 - thing)", "(:constants c0 - thing\n    c0 - other)")
    with pytest.raises(PddlError, match="constant c0 is declared twice") as caught:
        parse_domain_text(text, Path("d.pddl"))
    assert caught.value.line == _line(text, "c0 - other")


def test_a_pddl_library_error_is_a_genplan_error_naming_the_file() -> None:
    """The library's own errors (PDDLValidationError, PDDLMissingRequirementError, ...) ended in a
    traceback and exit status 1."""
    from pddl.exceptions import PDDLValidationError

    def parse(text: str) -> object:
        raise PDDLValidationError("invalid name 'object': it is a keyword")

    with pytest.raises(PddlError, match=r"d\.pddl:2: invalid PDDL: invalid name 'object'"):
        parse_with_location(parse, "(define (domain d)\n (:types object))", Path("d.pddl"))


def test_the_docs_table_of_supported_pddl_is_the_codes() -> None:
    section = (Path(__file__).resolve().parents[2] / "docs" / "domains.md").read_text()
    section = section.split("## Supported PDDL", 1)[1]
    table = re.search(r"\n(\| construct .*?)\n\n", section, re.DOTALL)
    assert table is not None and table.group(1) + "\n" == markdown_table()
