"""Reading the planners' answers: labelled fields, action lists, ratings, chosen options."""

from __future__ import annotations

import pytest

from genplan.approaches.planners.answers import (
    actions_after,
    fenced_plan,
    find_actions,
    labelled,
    number_after,
    option_choice,
    rating,
    step_action,
)

OPERATORS = ("pick-up", "put-down", "stack", "unstack")


@pytest.mark.parametrize(
    ("text", "actions"),
    [
        ("(unstack d g), (put-down d)", ["(unstack d g)", "(put-down d)"]),
        (
            "unstack(d:default,g:default), put-down(d:default)",
            ["unstack(d:default,g:default)", "put-down(d:default)"],
        ),
        ("pick-up(a)", ["pick-up(a)"]),
        ("1. unstack d g\n2. put-down d", ["unstack d g", "put-down d"]),
        ("then (pick-up a) and finally (stack a b).", ["(pick-up a)", "(stack a b)"]),
        ("no actions here, sorry!", []),
    ],
)
def test_actions_are_found_in_every_shape_models_write(text: str, actions: list[str]) -> None:
    assert find_actions(text, OPERATORS) == actions


def test_a_labelled_field_may_be_bold_quoted_or_continue_on_later_lines() -> None:
    answer = (
        "Reflect: none\nThink: **Action Sequence:** is below\n**Action Sequence:**\n(pick-up a),\n(stack a b)"
    )
    assert actions_after(answer, "Action Sequence") == ["(pick-up a)", "(stack a b)"]
    assert actions_after("Think: hmm", "Action Sequence") is None
    assert labelled("Think: a\nState: S2\nAction: (pick-up a)", "State", following=("Action",)) == "S2"
    assert actions_after("Action Sequence: (a b)", "Action") is None  # another label


def test_ratings_numbers_and_options() -> None:
    assert rating("Think: close\nRating: Maybe.", ("impossible", "maybe", "sure")) == "maybe"
    assert rating("Rating: **sure**", ("impossible", "maybe", "sure")) == "sure"
    assert rating("I would say sure", ("impossible", "maybe", "sure")) is None
    assert number_after('"Rating": 7', "Rating") == 7
    assert option_choice('"Comparison": "..."\n"Conclusion": "Option 2"', 3) == 2
    assert option_choice('"Conclusion": "Option 4"', 3) is None
    assert option_choice("Option 1 is best", 3) is None


def test_symplanner_takes_the_numbered_action_line() -> None:
    assert step_action('"Action 3": "(put-down a)"\n"State 3": "..."', 3) == "(put-down a)"
    assert step_action('"Action 1": "Unstack(a, b)"', 4) == "Unstack(a, b)"
    assert step_action("I would put down a: (put-down a)", 2) == "(put-down a)"
    assert step_action("nothing", 1, OPERATORS) is None
    assert step_action('"Action 2": "put-down a"', 2, OPERATORS) == "put-down a"


def test_the_last_fenced_block_with_actions_is_the_plan() -> None:
    answer = "Step 1: (pick-up a)\n```plan\n(pick-up a)\n(stack a b)\n```\n```text\nno\n```"
    assert fenced_plan(answer, OPERATORS) == ["(pick-up a)", "(stack a b)"]
    assert fenced_plan("(pick-up a)") is None
