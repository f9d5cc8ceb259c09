"""The prompting protocol's text (Sec. 4.1, 4.2): abbreviation, contract, feedback shapes."""

from __future__ import annotations

from genplan.approaches.generalized_plan import prompts
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import parse_problem_text


def _gripper(balls: int, rooms: int):
    domain = load_domain(builtin_domain_file("gripper"))
    objects = [f"ball{i}" for i in range(balls)] + [f"room{i}" for i in range(rooms)] + ["left", "right"]
    init = ["(at-robby room0)", "(free left)", "(free right)", "(gripper left)", "(gripper right)"]
    init += [f"(ball ball{i})" for i in range(balls)] + [f"(room room{i})" for i in range(rooms)]
    init += [f"(at ball{i} room{i % rooms})" for i in range(balls)]
    text = (
        f"(define (problem g) (:domain gripper-strips) (:objects {' '.join(objects)}) "
        f"(:init {' '.join(init)}) (:goal (and (at ball0 room1))))"
    )
    return parse_problem_text(text, domain)


def test_untyped_objects_are_abbreviated_per_kind_not_all_together() -> None:
    text = prompts.problem_text(_gripper(balls=14, rooms=12))
    objects = text.split("(:objects")[1].split("(:init")[0]
    assert "ball9 ..." in objects and "room9 ..." in objects
    assert "left right" in objects  # the two grippers are their own kind and survive
    assert "ball10" not in objects and "ball13" not in objects


def test_atoms_are_abbreviated_per_predicate_with_ellipsis() -> None:
    text = prompts.problem_text(_gripper(balls=14, rooms=12))
    init = text.split("(:init")[1].split("(:goal")[0]
    assert init.count("(ball ") == 10
    assert init.count("(at ball") == 10
    assert "(at-robby room0)" in init
    assert init.count("...") == 3  # ball, room, at


def test_kept_objects_stay_visible_when_abbreviated() -> None:
    text = prompts.problem_text(_gripper(balls=14, rooms=12), keep={"ball13"})
    assert "(at ball13 room1)" in text
    assert "ball13" in text.split("(:objects")[1].split("(:init")[0]


def test_small_tasks_are_shown_in_full_in_feedback() -> None:
    text = prompts.task_text_for_feedback(_gripper(balls=14, rooms=12))
    assert "..." not in text and "(at ball13 room1)" in text


def test_summary_prompt_has_domain_two_examples_and_question() -> None:
    problem = _gripper(3, 3)
    text = prompts.summary_prompt("(define (domain gripper-strips))", [problem, problem])
    assert text.startswith("Domain:\n(define (domain gripper-strips))")
    assert text.count("(define (problem g)") == 2
    assert text.endswith("Write a short summary of this domain in words.")


def test_implementation_prompt_states_the_contract_for_typed_and_untyped() -> None:
    typed = prompts.implementation_prompt(True)
    untyped = prompts.implementation_prompt(False)
    assert "def get_plan(objects, init, goal):" in typed
    assert "objects is a set of (object name, type name) tuples" in typed
    assert "objects is a set of object names" in untyped
    assert "plan is a list of actions" in untyped


def test_no_cot_prompt_drops_the_two_questions() -> None:
    problem = _gripper(3, 3)
    text = prompts.no_cot_prompt("(define (domain d))", [problem], False)
    assert prompts.SUMMARY_QUESTION not in text and "What is that strategy?" not in text
    assert "without using search" in text and "def get_plan" in text


def test_feedback_messages_follow_the_paper() -> None:
    assert prompts.exception_feedback("T", "IndexError: x\n").endswith(
        "The code raised the following exception:\nIndexError: x\nFix the code."
    )
    timeout = prompts.timeout_feedback("T", "KeyboardInterrupt", 30)
    assert "The code was interrupted because it timed out (possible infinite loop)." in timeout
    syntax = prompts.syntax_feedback(
        "T", "['walk a b']", "the action walk a b is invalid at step 0", "(walk ?from ?to)"
    )
    assert (
        "However, the action walk a b is invalid at step 0. NOTE: the valid operators are: (walk ?from ?to)."
        in syntax
    )
    semantics = prompts.semantics_feedback("T", ["(a)"], "(a) has an unsatisfied precondition at time 1")
    assert (
        "The code failed. It returned the following plan:\n['(a)'].\nNOTE: (a) has an unsatisfied"
        in semantics
    )
    for text in (timeout, syntax, semantics):
        assert text.startswith("Given this task: T\n") and text.endswith("Fix the code.")


def test_long_plans_are_elided() -> None:
    shown = prompts.plan_display([f"(a{i})" for i in range(500)])
    assert "(a199)" in shown and "(a200)" not in shown and "500 actions in all" in shown
