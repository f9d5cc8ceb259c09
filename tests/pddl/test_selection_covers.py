"""Which selections hold which: a saved run's recording answers any selection inside its own."""

from __future__ import annotations

import pytest

from genplan.pddl.selection import parse_selection, recorded_selection


@pytest.mark.parametrize(
    ("saved", "asked", "covers"),
    [
        ("planbench:by-length:2,4,6,8,10,12 x10", ("planbench:by-length:2,4", 1, None), True),
        ("planbench:by-length:2,4,6,8,10,12 x10", ("planbench:by-length:2,14", 1, None), False),
        ("planbench:by-length:2,4,6,8,10,12 x10", ("planbench:by-length:2", 11, None), False),
        ("planbench:by-length:2,4 x10", ("planbench-hard:by-length:2", 1, None), False),
        ("planbench:by-length:2,4 x10", ("by-length:2", 1, None), False),  # generated, not PlanBench's
        ("by-length:4,8,12 x2", ("by-length:12,4", 2, None), True),
        ("planbench", ("planbench", 20, 50), True),
        ("planbench x50", ("planbench", 20, 51), False),
        ("planbench x50", ("planbench", 20, None), False),
        ("paper x10", ("paper", 20, 5), True),
        ("paper", ("paper", 20, 31), False),
        ("small x30", ("small", 20, 30), True),
        ("small x30", ("small", 20, 10), False),  # a smaller draw is not known to be a prefix
    ],
)
def test_a_saved_selection_covers_exactly_the_problems_it_holds(
    saved: str, asked: tuple[str, int, int | None], covers: bool
) -> None:
    spec, per_length, count = asked
    recorded = recorded_selection(saved)
    assert recorded is not None and recorded.describe() == saved
    assert recorded.covers(parse_selection(spec, per_length=per_length, count=count)) is covers


@pytest.mark.parametrize("problem_set", [None, "generated", "folder", "english", "nonsense x3"])
def test_problem_sets_that_are_no_selection_read_as_none(problem_set: str | None) -> None:
    assert recorded_selection(problem_set) is None


@pytest.mark.parametrize(
    "recorded",
    [
        "planbench:by-length:2,4,6 x10",
        "by-length:4,8,12 x2",
        "planbench",
        "planbench x50",
        "paper",
        "paper x10",
        "small x30",
    ],
)
def test_a_selections_arguments_choose_it_again(recorded: str) -> None:
    """The command-line arguments a saved run's selection prints (``genplan run`` names them to
    a newcomer) parse back to that selection, as ``genplan run`` reads them."""
    from genplan.cli import build_parser
    from genplan.cli.request_options import request_from_arguments

    selection = recorded_selection(recorded)
    assert selection is not None
    argv = ["run", "--approach", "io", "--domain", "blocksworld", *selection.arguments()]
    from genplan.approaches import get_approach

    args = build_parser(argv).parse_args(argv)
    assert request_from_arguments(args, "io", get_approach("io").settings_type).selection == selection
    assert selection.describe() == recorded
