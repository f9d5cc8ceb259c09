"""Tasks given in English (``description.md``): loading, known answers, and the PDDL path untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oracles.missionaries import ANSWERS

from genplan.errors import ConfigurationError
from genplan.paths import builtin_described_names, builtin_domain_names, data_folder
from genplan.pddl.described import DescribedTask, load_described_task
from genplan.pddl.problem_sets import DomainProblems, load_domain_problems, load_problems


def test_the_missionaries_and_cannibals_folders_are_built_in_tasks_not_pddl_domains() -> None:
    assert builtin_described_names() == sorted(ANSWERS)
    assert not set(ANSWERS) & set(builtin_domain_names())
    assert all((data_folder("domains") / name / "domain.pddl").is_file() for name in builtin_domain_names())


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_each_known_answer_is_what_breadth_first_search_finds(name: str) -> None:
    task = load_described_task(data_folder("domains") / name)
    assert task.answer is not None
    assert task.answer.steps == ANSWERS[name]()
    assert f"fewest {task.answer.unit}" in " ".join(task.description.split())  # the unit the query asks for


def test_a_task_is_loaded_by_name_or_by_path(tmp_path: Path) -> None:
    by_name = load_problems("mcp", 0, 30, tmp_path)
    by_path = load_problems(str(data_folder("domains") / "mcp"), 0, 30, tmp_path)
    assert isinstance(by_name, DescribedTask) and isinstance(by_path, DescribedTask)
    assert by_name.name == by_path.name == "mcp"
    assert by_name.description == by_path.description
    assert by_name.answer is not None and by_name.answer.describe() == "11 crossings"


def test_a_pddl_domain_still_loads_as_a_problem_set(tmp_path: Path) -> None:
    assert isinstance(load_problems("gripper", 0, 2, tmp_path), DomainProblems)


def test_the_pddl_loader_says_what_to_do_with_a_task_in_english(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match=r"description.md.*--approach asp"):
        load_domain_problems(str(data_folder("domains") / "mcp"), 0, 2, tmp_path)


def test_a_folder_without_answer_has_no_known_answer(tmp_path: Path) -> None:
    (tmp_path / "description.md").write_text("Cross the river.\n")
    task = load_described_task(tmp_path)
    assert task.answer is None and task.description == "Cross the river.\n"


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("not json", "not a readable JSON"),
        ('{"steps": 3}', 'expected an object with "answer"'),
        ('{"answer": "eleven"}', 'field "answer" must be'),
        ('{"answer": -1}', 'field "answer" must be'),
        ('{"answer": true}', 'field "answer" must be'),
    ],
)
def test_a_bad_answer_file_is_named_with_its_field(tmp_path: Path, content: str, match: str) -> None:
    (tmp_path / "description.md").write_text("Cross the river.\n")
    (tmp_path / "answer.json").write_text(content)
    with pytest.raises(ConfigurationError, match=match) as raised:
        load_described_task(tmp_path)
    assert str(tmp_path / "answer.json") in str(raised.value)


def test_no_solution_is_a_known_answer(tmp_path: Path) -> None:
    (tmp_path / "description.md").write_text("Cross the river.\n")
    (tmp_path / "answer.json").write_text(json.dumps({"answer": "no solution", "unit": "crossings"}))
    answer = load_described_task(tmp_path).answer
    assert answer is not None and not answer.solvable and answer.describe() == "no solution"


def test_a_problem_selection_of_a_task_in_english_is_refused(tmp_path: Path) -> None:
    from genplan.pddl.selection import load_chosen_problems, parse_selection

    with pytest.raises(ConfigurationError, match="mcp is a task in English"):
        load_chosen_problems("mcp", 0, 2, parse_selection("small", count=2), tmp_path)
    assert load_chosen_problems("mcp", 0, 2, None, tmp_path).name == "mcp"
