"""PlanBench's problem sets shipped in the domains' folders (``--problems planbench``, ``planbench-hard``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.approaches.base import problem_key
from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.selection import SetSelection, load_selected_problems, parse_selection
from genplan.pddl.shipped_sets import available_sets, brings_own_domain, shipped_folder, shipped_problem_files

SETS = [
    ("blocksworld", "planbench", 501),
    ("blocksworld", "planbench-hard", 110),
    ("logistics", "planbench", 286),
]


@pytest.mark.parametrize(("domain", "name", "count"), SETS)
def test_each_set_loads_by_name_with_its_count_and_its_license(
    domain: str, name: str, count: int, tmp_path: Path
) -> None:
    problems = load_selected_problems(domain, 0, parse_selection(name), tmp_path)
    assert problems.problem_set == name and len(problems.evaluation) == count
    notice = (shipped_folder(domain, name) / "LICENSE").read_text()
    assert "Copyright (c) 2024 Valmeekam Karthik" in notice and "Permission is hereby granted" in notice
    keys = [problem_key(p, problems.root) for p in problems.evaluation[:3]]
    assert keys == [f"{name}/instance-1.pddl", f"{name}/instance-2.pddl", f"{name}/instance-3.pddl"]


@pytest.mark.parametrize("name", ["planbench", "planbench-hard"])
def test_planbenchs_blocksworld_is_the_built_in_blocksworld(name: str, tmp_path: Path) -> None:
    _, own = shipped_problem_files("blocksworld", name)
    built_in = load_domain(builtin_domain_file("blocksworld"))
    assert (own.predicates, own.operators, own.types, own.requirements) == (
        built_in.predicates,
        built_in.operators,
        built_in.types,
        built_in.requirements,
    )
    assert not brings_own_domain("blocksworld", name)
    problems = load_selected_problems("blocksworld", 0, SetSelection(name, 3), tmp_path)
    assert problems.domain == built_in and problems.training[0].name == "blocksworld-train-00"  # generated
    assert len(problems.evaluation) == 3


def test_planbenchs_logistics_brings_its_own_untyped_domain_and_trains_on_its_smallest(
    tmp_path: Path,
) -> None:
    assert brings_own_domain("logistics", "planbench")
    problems = load_selected_problems("logistics", 0, SetSelection("planbench"), tmp_path)
    assert problems.domain.name == "logistics-strips" and not problems.domain.typed
    assert problems.domain != load_domain(builtin_domain_file("logistics"))
    assert {"truck", "airplane", "load-truck"} <= set(problems.domain.predicates) | set(
        problems.domain.operators
    )
    assert len(problems.training) == 10
    assert all(p.domain is problems.domain and p.source is not None for p in problems.training)
    sizes = sorted(path.stat().st_size for path in shipped_problem_files("logistics", "planbench")[0])
    assert max(p.source.stat().st_size for p in problems.training if p.source) <= sizes[9]
    assert all(p.domain == problems.domain for p in problems.evaluation[:5])


def test_the_first_n_in_file_order(tmp_path: Path) -> None:
    problems = load_selected_problems("blocksworld", 0, parse_selection("planbench", count=12), tmp_path)
    assert problems.problem_set == "planbench x12"
    assert [p.name for p in problems.evaluation_sources][-3:] == [
        "instance-10.pddl",
        "instance-11.pddl",
        "instance-12.pddl",
    ]  # type: ignore[union-attr]


def test_a_domain_without_the_set_is_a_clear_error(tmp_path: Path) -> None:
    assert available_sets("blocksworld") == ["planbench", "planbench-hard"]
    assert available_sets("logistics") == ["planbench"]
    with pytest.raises(
        ConfigurationError, match="'gripper' has no such problem set; blocksworld, logistics have one"
    ):
        load_selected_problems("gripper", 0, SetSelection("planbench"), tmp_path)
    with pytest.raises(ConfigurationError, match="'logistics' has no such problem set; blocksworld has one"):
        load_selected_problems("logistics", 0, SetSelection("planbench-hard"), tmp_path)
