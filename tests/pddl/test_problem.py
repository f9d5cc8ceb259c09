"""Loading domains and problems: normalisation, constants, errors with file and line, caching."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.errors import PddlError
from genplan.paths import PAPER_DOMAINS, builtin_domain_file, builtin_domain_names
from genplan.pddl.domain import load_domain, parse_domain_text
from genplan.pddl.library import library_domain
from genplan.pddl.problem import load_problem, parse_problem_text
from genplan.pddl.text import add_missing_requirements, drop_empty_sections, strip_comments_and_lower

TYPED_WITHOUT_TYPING = """
(define (domain Hike)
  (:requirements :strips)            ; no :typing, no :negative-preconditions
  (:types Loc)
  (:constants Base - Loc)
  (:predicates (At ?l - Loc) (Water ?l - Loc))
  (:action Walk
    :parameters (?From - Loc ?To - Loc)
    :precondition (and (At ?From) (not (Water ?To)))
    :effect (and (At ?To) (not (At ?From)))))
"""

PROBLEM = """
(define (problem P1) (:domain Hike)
  (:objects A B - Loc)
  (:init (At Base) (Water B))
  (:goal (and (At A))))
"""


def test_all_builtin_domains_parse() -> None:
    assert builtin_domain_names() == [
        "blocksworld",
        "delivery",
        "ferry",
        "forest",
        "gripper",
        "heavy",
        "logistics",
        "miconic",
        "spanner",
    ]
    assert set(PAPER_DOMAINS) == set(builtin_domain_names()) - {"blocksworld", "logistics"}
    for name in builtin_domain_names():
        domain = load_domain(builtin_domain_file(name))
        assert domain.operators, name


def test_untyped_domains_stay_untyped() -> None:
    for name in ("blocksworld", "gripper", "ferry", "heavy"):
        assert not load_domain(builtin_domain_file(name)).typed
    for name in ("delivery", "forest", "logistics", "miconic", "spanner"):
        assert load_domain(builtin_domain_file(name)).typed


def test_missing_requirements_case_and_constants_are_handled() -> None:
    domain = parse_domain_text(TYPED_WITHOUT_TYPING)
    assert domain.name == "hike"
    assert ":typing" in domain.requirements and ":negative-preconditions" in domain.requirements
    assert domain.constants == {"base": "loc"}
    walk = domain.operators["walk"]
    assert walk.parameters == (("?from", "loc"), ("?to", "loc"))
    assert walk.negative_preconditions == (("water", "?to"),)
    problem = parse_problem_text(PROBLEM, domain)
    assert problem.objects == frozenset({("a", "loc"), ("b", "loc"), ("base", "loc")})
    assert problem.init == frozenset({("at", "base"), ("water", "b")})
    assert problem.goal == frozenset({("at", "a")})


def test_untyped_objects_are_plain_names() -> None:
    domain = load_domain(builtin_domain_file("heavy"))
    problem = parse_problem_text(
        "(define (problem h) (:domain heavy-pack) (:objects o1 o2) "
        "(:init (box-empty) (unpacked o1) (unpacked o2) (heavier o1 o2)) (:goal (and (packed o1) (packed o2))))",
        domain,
    )
    assert problem.objects == frozenset({"o1", "o2"})
    assert ("heavier", "o1", "o2") in problem.init


def test_problem_round_trips_through_pddl_text() -> None:
    domain = parse_domain_text(TYPED_WITHOUT_TYPING)
    problem = parse_problem_text(PROBLEM, domain)
    again = parse_problem_text(problem.to_pddl(), domain)
    assert (again.objects, again.init, again.goal) == (problem.objects, problem.init, problem.goal)


def test_malformed_problem_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.pddl"
    path.write_text(
        "(define (problem p) (:domain heavy-pack)\n  (:objects o1)\n  (:init (box-empty)\n  (:goal (and (packed o1))))\n"
    )
    with pytest.raises(PddlError) as caught:
        load_problem(path, builtin_domain_file("heavy"))
    assert caught.value.path == path.resolve()
    assert str(path.resolve()) in str(caught.value)


def test_undeclared_object_is_reported_with_line(tmp_path: Path) -> None:
    path = tmp_path / "p.pddl"
    path.write_text(
        "(define (problem p) (:domain heavy-pack)\n (:objects o1)\n (:init (box-empty)\n (unpacked o9))\n (:goal (and (packed o1))))\n"
    )
    with pytest.raises(PddlError, match="o9") as caught:
        load_problem(path, builtin_domain_file("heavy"))
    assert caught.value.line == 4


def test_wrong_arity_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "p.pddl"
    path.write_text(
        "(define (problem p) (:domain heavy-pack) (:objects o1) (:init (unpacked o1 o1)) (:goal (and (packed o1))))"
    )
    with pytest.raises(PddlError, match="takes 1"):
        load_problem(path, builtin_domain_file("heavy"))


ILL_TYPED = """(define (problem p) (:domain logistics)
 (:objects c0 - city l0-1 - location p0 - package t0 - truck)
 (:init (in-city l0-1 c0)
  (at c0 l0-1)
  (at t0 l0-1) (at p0 l0-1))
 (:goal (and (at p0 l0-1) (in-city c0 c0))))
"""


def test_an_ill_typed_initial_atom_is_refused_naming_file_line_and_argument(tmp_path: Path) -> None:
    path = tmp_path / "p.pddl"
    path.write_text(ILL_TYPED)
    with pytest.raises(PddlError) as caught:
        load_problem(path, builtin_domain_file("logistics"))
    assert (caught.value.path, caught.value.line) == (path, 4)
    assert caught.value.reason == (
        "(at c0 l0-1): argument 1, c0, is of type city; predicate at takes a physobj there"
    )


def test_an_ill_typed_goal_is_refused_and_subtypes_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "p.pddl"
    path.write_text(ILL_TYPED.replace("(at c0 l0-1)", ""))  # trucks and packages are physobjs, fine
    with pytest.raises(
        PddlError,
        match=r"\(in-city c0 c0\): argument 1, c0, is of type city; predicate in-city takes a place",
    ) as caught:
        load_problem(path, builtin_domain_file("logistics"))
    assert caught.value.line == 6
    path.write_text(ILL_TYPED.replace("(at c0 l0-1)", "").replace("(in-city c0 c0)", ""))
    assert ("at", "t0", "l0-1") in load_problem(path, builtin_domain_file("logistics")).init


def test_windows_line_endings_give_the_same_domain_problem_and_prompt(tmp_path: Path) -> None:
    """Issue 27 item 8: no ``\\r`` reaches a prompt, so recordings replay across line endings."""
    from genplan.approaches.generalized_plan.prompts import summary_prompt

    problem_text = PROBLEM.replace("(Water B)", "(Water B) ; a comment\n (At Base)")
    prompts = []
    for ending in ("\n", "\r\n", "\r"):
        folder = tmp_path / repr(ending).strip("'\\")
        folder.mkdir()
        (folder / "d.pddl").write_bytes(TYPED_WITHOUT_TYPING.replace("\n", ending).encode())
        (folder / "p.pddl").write_bytes(problem_text.replace("\n", ending).encode())
        domain = load_domain(folder / "d.pddl")
        problem = load_problem(folder / "p.pddl", domain)
        assert "\r" not in domain.to_pddl() + problem.to_pddl()
        prompts.append(summary_prompt(domain.to_pddl(), [problem, problem]))
    assert prompts[0] == prompts[1] == prompts[2]
    line = TYPED_WITHOUT_TYPING.replace("(At ?l - Loc)", "(At ?l - Nowhere)").replace("\n", "\r\n")
    with pytest.raises(PddlError) as caught:
        parse_domain_text(line)
    assert caught.value.line == 6 and "\r" not in str(caught.value)


@pytest.mark.parametrize(
    "sections", ["(:types)", "(:constants )", "(:functions\n)", "(:types)\n(:constants)\n(:functions)"]
)
def test_empty_types_constants_and_functions_sections_are_accepted(sections: str) -> None:
    """Issue 27 item 8: Tarski and other tools write empty sections; VAL and Fast Downward accept them."""
    gripper = builtin_domain_file("gripper").read_text()
    with_sections = gripper.replace("  (:predicates", sections + "\n  (:predicates", 1)
    domain = parse_domain_text(with_sections)
    assert domain == parse_domain_text(gripper) and not domain.typed  # still untyped: objects stay names
    normalised = add_missing_requirements(drop_empty_sections(strip_comments_and_lower(with_sections)))
    library = library_domain(normalised, None)
    assert library["operators"].keys() == domain.operators.keys()  # the library's path accepts them too


def test_an_empty_precondition_or_effect_is_the_empty_conjunction() -> None:
    """``:precondition ()`` holds in every state, as VAL and Fast Downward read it (the pddl
    library reads it as an empty disjunction, which never holds)."""
    gripper = builtin_domain_file("gripper").read_text()
    empty = parse_domain_text(gripper.replace("(and (room ?from) (room ?to) (at-robby ?from))", "()", 1))
    move = empty.operators["move"]
    assert (move.positive_preconditions, move.negative_preconditions) == ((), ())
    assert move.add_effects == parse_domain_text(gripper).operators["move"].add_effects


def test_missing_file_is_a_pddl_error(tmp_path: Path) -> None:
    with pytest.raises(PddlError, match="cannot read"):
        load_problem(tmp_path / "nope.pddl", builtin_domain_file("heavy"))


def test_a_parsed_problem_is_not_parsed_twice(tmp_path: Path) -> None:
    path = tmp_path / "p.pddl"
    path.write_text(
        "(define (problem p) (:domain heavy-pack) (:objects o1) (:init (box-empty) (unpacked o1)) (:goal (and (packed o1))))"
    )
    first = load_problem(path, builtin_domain_file("heavy"))
    assert load_problem(path, builtin_domain_file("heavy")) is first
    path.write_text(path.read_text().replace("(problem p)", "(problem q)  "))
    assert load_problem(path, builtin_domain_file("heavy")).name == "q"


def test_subtypes_follow_the_hierarchy() -> None:
    spanner = load_domain(builtin_domain_file("spanner"))
    assert spanner.is_subtype("man", "locatable")
    assert spanner.is_subtype("nut", "object")
    assert not spanner.is_subtype("location", "locatable")


def test_valid_operator_text_matches_the_paper_style() -> None:
    forest = load_domain(builtin_domain_file("forest"))
    assert forest.valid_operators_text() == "(climb ?from ?to) (walk ?from ?to)"


def test_a_parse_error_leaves_tracebacks_visible() -> None:
    import sys

    domain = load_domain(builtin_domain_file("heavy"))
    with pytest.raises(PddlError):  # outside the fast path: the pddl library's parser fails
        parse_problem_text(
            "(define (problem p) (:domain heavy-pack) (:init p o1) (:goal (packed o1)))", domain
        )
    assert getattr(sys, "tracebacklimit", None) is None
