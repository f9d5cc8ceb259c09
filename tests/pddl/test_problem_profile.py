"""Problem-set profiles and their comparison (genplan.pddl.problem_profile), on small gripper sets."""

from __future__ import annotations

import pytest

from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import Problem, bind_problem
from genplan.pddl.problem_data import ProblemData
from genplan.pddl.problem_profile import allowed_difference, compare, name_pattern, profile

DOMAIN = load_domain(builtin_domain_file("gripper"))


def _gripper(
    rooms: int, balls: int, grippers: tuple[str, str] = ("g0", "g1"), robot: str = "room0"
) -> Problem:
    room = [f"room{i}" for i in range(rooms)]
    ball = [f"ball{i}" for i in range(balls)]
    init = [("room", r) for r in room] + [("ball", b) for b in ball] + [("gripper", g) for g in grippers]
    init += [("free", g) for g in grippers] + [("at-robby", robot)] + [("at", b, "room0") for b in ball]
    goal = [("at", ball[0], room[-1])]
    return bind_problem(
        ProblemData("p", "gripper-strips", [*room, *ball, *grippers], init, goal, typed=False), DOMAIN
    )


def test_name_patterns_write_digit_runs_as_hashes() -> None:
    assert name_pattern("f3_b12") == ("f#_b#", (3, 12))
    assert name_pattern("shed") == ("shed", ())


def test_a_profile_counts_names_and_fixed_atoms() -> None:
    shape = profile([_gripper(3, 2), _gripper(5, 4)])
    assert shape.counts["init:room"] == (3, 5) and shape.counts["goal:at"] == (1, 1)
    assert shape.patterns["room#"] == ((0, 4),) and shape.patterns["g#"] == ((0, 1),)
    assert ("at-robby", "room0") in shape.fixed and "room2" in shape.common and "room4" not in shape.common
    with pytest.raises(ValueError, match="empty"):
        profile([])


def test_the_same_distribution_agrees_within_the_tolerance() -> None:
    reference = profile([_gripper(40, 20), _gripper(50, 30)])
    assert compare(reference, profile([_gripper(41, 21), _gripper(48, 30)])) == []


def test_other_sizes_names_numbering_and_starts_are_differences() -> None:
    reference = profile([_gripper(40, 20), _gripper(50, 30)])
    wider = compare(reference, profile([_gripper(40, 20), _gripper(90, 30)]))
    assert any(line.startswith("init:room: highest 90 against the reference's 50") for line in wider)
    renamed = compare(
        reference, profile([_gripper(40, 20, ("left", "right")), _gripper(50, 30, ("left", "right"))])
    )
    assert "names 'g#': in the reference, never in the candidate" in renamed
    assert "names 'left': in the candidate, never in the reference" in renamed
    started = compare(reference, profile([_gripper(40, 20, robot="room7"), _gripper(50, 30, robot="room3")]))
    assert started == ["(at-robby room0) holds in every reference problem, not in every candidate one"]


def test_an_atom_over_objects_only_some_problems_have_is_left_to_the_counts() -> None:
    # room40 is in every candidate problem but not in every reference one: not a fixed-atom difference
    reference = profile([_gripper(40, 20), _gripper(45, 20)])
    assert compare(reference, profile([_gripper(41, 20), _gripper(45, 20)])) == []


def test_the_allowed_difference() -> None:
    assert allowed_difference(5, 5) == 0.0
    assert allowed_difference(0, 1) == 1.0
    assert allowed_difference(100, 200) == 25.0
