"""The world model with a meter: apply, roll out, typed errors, counted and reused queries, budget."""

from __future__ import annotations

import pytest
from blocks import OPTIMAL, TOWER, problem

from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import parse_problem_text
from genplan.plans.world_model import ActionErrorKind, BudgetExhausted, WorldModel, parse_action_text


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("(unstack a b)", ("unstack", "a", "b")),
        ("unstack(a, b)", ("unstack", "a", "b")),
        ("unstack(a:default,b:default)", ("unstack", "a", "b")),
        ("  `(Put-Down A)`.", ("put-down", "a")),
        ("unstack a b", ("unstack", "a", "b")),
        ("(handempty)", ("handempty",)),
        ("", None),
        ("(stack a (b))", None),
        ("stack a, b!", None),
    ],
)
def test_actions_are_read_in_the_formats_models_write(text: str, parsed: tuple[str, ...] | None) -> None:
    assert parse_action_text(text) == parsed


def test_a_step_gives_the_next_state_and_counts_one_query() -> None:
    world = WorldModel(problem())
    step = world.step(world.initial_state, "(unstack a b)")
    assert step.ok and step.counted and world.queries == 1
    assert ("holding", "a") in step.state and ("clear", "b") in step.state
    assert ("on", "a", "b") not in step.state and ("handempty",) not in step.state


def test_a_failed_precondition_is_a_counted_query_that_names_what_failed() -> None:
    world = WorldModel(problem())
    step = world.step(world.initial_state, "(pick-up b)")
    assert step.error is not None and step.error.kind is ActionErrorKind.PRECONDITION
    assert step.error.unmet == ((("clear", "b"), True),)
    assert "(clear b) is false" in step.error.message
    assert step.state == world.initial_state and world.queries == 1


@pytest.mark.parametrize(
    ("text", "kind", "words"),
    [
        ("pick up the red block!", ActionErrorKind.UNPARSABLE, "not an action"),
        ("(lift a)", ActionErrorKind.UNKNOWN_OPERATOR, "no operator lift"),
        ("(stack a)", ActionErrorKind.WRONG_ARITY, "stack takes 2 objects"),
        ("(pick-up z)", ActionErrorKind.UNKNOWN_OBJECT, "no object z"),
    ],
)
def test_text_that_names_no_action_is_refused_without_a_query(
    text: str, kind: ActionErrorKind, words: str
) -> None:
    world = WorldModel(problem(), budget=0)  # a counted query would raise
    step = world.step(world.initial_state, text)
    assert step.error is not None and step.error.kind is kind and words in step.error.message
    assert not step.counted and world.queries == 0


def test_wrong_types_are_refused_in_typed_domains() -> None:
    domain = load_domain(builtin_domain_file("logistics"))
    logistics = parse_problem_text(
        """(define (problem p) (:domain logistics)
        (:objects c0 - city l0-0 - airport l1-0 - location t0 - truck p0 - package)
        (:init (in-city l0-0 c0) (in-city l1-0 c0) (at t0 l0-0) (at p0 l0-0))
        (:goal (and (at p0 l1-0))))""",
        domain,
    )
    world = WorldModel(logistics)
    step = world.step(world.initial_state, "(load-truck t0 p0 l0-0)")
    assert step.error is not None and step.error.kind is ActionErrorKind.WRONG_TYPE
    assert "must be of type package" in step.error.message
    assert world.step(world.initial_state, "(load-truck p0 t0 l0-0)").ok


def test_a_query_asked_again_is_served_from_memory_and_not_counted() -> None:
    world = WorldModel(problem())
    first = world.step(world.initial_state, "(unstack a b)")
    again = world.step(world.initial_state, "unstack(a, b)")
    failed = world.step(world.initial_state, "(pick-up b)")
    failed_again = world.step(world.initial_state, "(pick-up b)")
    assert again.state == first.state and not again.counted
    assert failed_again.error == failed.error and not failed_again.counted
    assert (world.queries, world.reused) == (2, 2)


def test_a_rollout_stops_at_the_goal_or_the_first_error_and_reuses_queries() -> None:
    world = WorldModel(problem())
    failed = world.rollout(["(unstack a b)", "(pick-up b)", "(stack b c)"])
    assert not failed.reached_goal and failed.failing_index == 1
    assert failed.error is not None and "(handempty) is false" in failed.error.message
    assert [step.ok for step in failed.steps] == [True, False] and world.queries == 2
    solved = world.rollout([*OPTIMAL, "(unstack b c)"])
    assert (
        solved.reached_goal and solved.error is None and len(solved.steps) == 4
    )  # the last action is not queried
    assert world.queries == 5 and world.reused == 1  # (unstack a b) again is free
    short = world.rollout(OPTIMAL[:2])
    assert (
        not short.reached_goal
        and short.error is None
        and world.unmet_goals(short.final_state) == [("on", "b", "c")]
    )


def test_the_budget_refuses_new_queries_but_not_remembered_ones() -> None:
    world = WorldModel(problem(TOWER), budget=2)
    world.rollout(OPTIMAL[:2])
    assert world.queries == 2
    assert world.rollout(OPTIMAL[:2]).final_state  # served from memory
    with pytest.raises(BudgetExhausted, match="budget of 2"):
        world.rollout(OPTIMAL)
    assert world.queries == 2


def test_applicable_actions_are_listed_without_counting() -> None:
    world = WorldModel(problem())
    assert world.applicable(world.initial_state) == [("pick-up", "c"), ("unstack", "a", "b")]
    assert world.queries == 0
