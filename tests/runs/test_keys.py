"""Problem keys: records and a run's rounds name a folder's problems by file."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from genplan.paths import builtin_domain_file
from genplan.pddl.generate import generate_problems
from genplan.pddl.problem import load_problem
from genplan.runs.keys import names_by_key, problem_key


def test_equal_problems_in_two_files_keep_a_name_each(tmp_path: Path) -> None:
    text = generate_problems("gripper", "train", 0)[0].text
    for level in ("easy", "medium", "hard"):
        (tmp_path / level).mkdir()
        (tmp_path / level / "p01.pddl").write_text(text)
    domain = builtin_domain_file("gripper")
    easy, hard, other = (
        load_problem(tmp_path / level / "p01.pddl", domain) for level in ("easy", "hard", "medium")
    )
    assert easy == hard == other  # problems compare by content, not by file
    assert [problem_key(p, tmp_path) for p in (easy, hard)] == ["easy/p01.pddl", "hard/p01.pddl"]
    names = names_by_key([easy, hard], [easy, hard], tmp_path)
    assert (names(easy), names(hard)) == ("easy/p01.pddl", "hard/p01.pddl")
    assert names(other) == other.name  # not one the run holds: its PDDL name


def test_renamed_copies_are_named_by_their_original_s_key(tmp_path: Path) -> None:
    (tmp_path / "training").mkdir()
    path = tmp_path / "training" / "p01.pddl"
    path.write_text(generate_problems("gripper", "train", 0)[0].text)
    original = load_problem(path, builtin_domain_file("gripper"))
    shown = dataclasses.replace(original, name="problem-1", source=None)  # as No Names shows it
    assert names_by_key([shown], [original], tmp_path)(shown) == "training/p01.pddl"
