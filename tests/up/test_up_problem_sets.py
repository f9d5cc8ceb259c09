"""UP problems written as a problem-set folder: genplan's --domain takes it, genplan evaluate
solves it, and the plans it saves read back in the UP problems' own names."""

from __future__ import annotations

from pathlib import Path

import pytest
import up_problems as ups
from unified_planning.io import PDDLReader
from unified_planning.shortcuts import PlanValidator

from genplan.cli import main
from genplan.errors import ConfigurationError
from genplan.paths import data_folder
from genplan.pddl.problem import load_problem
from genplan.pddl.problem_sets import discover_problem_set
from genplan.up import read_up_plan, write_problem_set

PAPER = data_folder("domains") / "gripper" / "paper" / "seed0"


def _gripper(*numbers: int) -> list[object]:
    return [
        PDDLReader().parse_problem(str(PAPER / "domain.pddl"), str(PAPER / f"problem{n}.pddl"))
        for n in numbers
    ]


def test_a_flat_folder_is_a_problem_set_genplan_reads(tmp_path: Path) -> None:
    written = write_problem_set(_gripper(13, 2), tmp_path / "mine")
    found = discover_problem_set(tmp_path / "mine")
    assert found.domain_file == written.domain and set(found.evaluation) == set(written.evaluation)
    assert [p.name for p in written.evaluation] == [
        "manygripper.pddl",
        "manygripper-2.pddl",
    ]  # one name, twice
    for path, number in zip(written.evaluation, (13, 2)):
        assert (
            load_problem(path, written.domain).init
            == load_problem(PAPER / f"problem{number}.pddl", PAPER / "domain.pddl").init
        )


def test_training_problems_go_to_train_and_the_others_to_eval(tmp_path: Path) -> None:
    written = write_problem_set(_gripper(2), tmp_path / "mine", training=_gripper(13))
    found = discover_problem_set(tmp_path / "mine")
    assert found.training == written.training == (tmp_path / "mine" / "train" / "manygripper.pddl",)
    assert found.evaluation == written.evaluation == (tmp_path / "mine" / "eval" / "manygripper-2.pddl",)


def test_genplan_evaluate_solves_the_folder_and_its_plans_read_back_in_ups_names(tmp_path: Path) -> None:
    problems = _gripper(13, 2, 5)
    written = write_problem_set(problems, tmp_path / "mine")
    program = data_folder("synthesized") / "gripper" / "main-seed0" / "program.py"
    arguments = [
        "evaluate",
        "--program",
        str(program),
        "--domain",
        str(written.folder),
        "--plans",
        str(tmp_path / "plans"),
    ]
    assert main(arguments) == 0
    for problem, path in zip(problems, written.evaluation):
        plan = read_up_plan(problem, tmp_path / "plans" / f"{path.stem}.plan")
        assert plan.actions and all(step.action in problem.actions for step in plan.actions)
        with PlanValidator(name="sequential_plan_validator") as validator:
            assert validator.validate(problem, plan).status.name == "VALID"


def test_problems_of_different_domains_are_refused_naming_both(tmp_path: Path) -> None:
    with pytest.raises(
        ConfigurationError,
        match=r"UP problems 'manygripper' and 'Robot 1' have different domains: line 2 of the written domain is '\(:requirements :strips\)' for the first",
    ):
        write_problem_set([*_gripper(13), ups.robot_problem()], tmp_path / "mine")
    assert not (tmp_path / "mine").exists()  # nothing written


def test_a_folder_that_holds_a_problem_set_is_not_overwritten(tmp_path: Path) -> None:
    write_problem_set(_gripper(13), tmp_path / "mine")
    with pytest.raises(ConfigurationError, match=r"already holds a domain\.pddl"):
        write_problem_set(_gripper(2), tmp_path / "mine")


def test_no_problems_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="no problems given"):
        write_problem_set([], tmp_path / "mine")
