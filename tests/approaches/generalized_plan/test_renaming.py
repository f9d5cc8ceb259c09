"""Issue 34, item 4: names are data. A name mapping is checked when it is read (PDDL names only,
an error naming the file), and a plan is checked again after every rewrite (the mapping's
translation, the plan file's spacing) before it reaches a file or the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from genplan.approaches.generalized_plan.renaming import load_name_mapping
from genplan.approaches.generalized_plan.solver import Solver, SolverError
from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_file, data_folder
from genplan.pddl.domain import load_domain
from genplan.pddl.generate import write_problems
from genplan.pddl.obfuscate import NameMapping
from genplan.pddl.problem import load_problem
from genplan.plans.plan_file import UnprintablePlanLine, plan_file_text

SAVED = data_folder("synthesized") / "gripper" / "no-names-seed0"


def _mapping_with(tmp_path: Path, category: str, original: str, obfuscated: str) -> Path:
    data = json.loads((SAVED / "name_mapping.json").read_text())
    data.setdefault(category, {})[original] = obfuscated
    path = tmp_path / "name_mapping.json"
    path.write_text(json.dumps(data))
    return path


BAD_NAMES = {
    "escape in an original name": ("object", "ball0\x1b[31m", "object99"),
    "bell and a line break": ("object", "ball99", "object\x07\n99"),
    "a space": ("operator", "pick up", "operator9"),
    "a variable without ?": ("variable", "from2", "?x9"),
    "a digit first": ("object", "9ball", "object98"),
    "not a string": ("object", "ball98", 3),
}


@pytest.mark.parametrize("label", list(BAD_NAMES))
def test_a_mapping_with_a_name_that_is_not_a_pddl_name_is_refused_naming_the_file(
    label: str, tmp_path: Path
) -> None:
    category, original, obfuscated = BAD_NAMES[label]
    path = _mapping_with(tmp_path, category, original, obfuscated)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError) as caught:
        load_name_mapping(path)
    message = str(caught.value)
    assert message.startswith(str(path)), message
    assert "\x1b" not in message and "\x07" not in message and "\n" not in message


def test_an_unknown_category_is_refused(tmp_path: Path) -> None:
    path = _mapping_with(tmp_path, "\x1b[2Jcolour", "red", "colour0")
    with pytest.raises(ConfigurationError, match="unknown category") as caught:
        load_name_mapping(path)
    assert "\x1b" not in str(caught.value)


def test_the_saved_mappings_load() -> None:
    for path in sorted(data_folder("synthesized").glob("*/*/name_mapping.json")):
        assert load_name_mapping(path).forward["object"]


def test_genplan_solve_refuses_a_mapping_that_would_write_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The red team's case: names in a saved No-Names run's mapping put ESC/BEL bytes and extra
    lines into the plan file (6 lines for 2 actions)."""
    from genplan.cli import main

    run = tmp_path / "run"
    run.mkdir()
    (run / "program.py").write_text((SAVED / "program.py").read_text())
    data = json.loads((SAVED / "name_mapping.json").read_text())
    data["operator"] = {f"{name}\x1b[2J\x07\n(fake)": value for name, value in data["operator"].items()}
    (run / "name_mapping.json").write_text(json.dumps(data))
    problem = write_problems("gripper", "eval", 0, tmp_path / "problems", n=1)[0]
    plan = tmp_path / "sas_plan"
    solve = [
        "solve",
        "--domain",
        "gripper",
        "--program",
        str(run / "program.py"),
        str(problem),
        "-o",
        str(plan),
    ]
    assert main(solve) == 2
    err = capsys.readouterr().err
    assert str(run / "name_mapping.json") in err and "not a PDDL name" in err and "\x1b" not in err
    assert not plan.exists()


def test_a_plan_is_checked_again_after_the_mappings_translation(tmp_path: Path) -> None:
    """Whatever mapping reaches the solver (one built in memory is not read from a file), the
    translated plan is checked before it is returned."""
    domain = load_domain(builtin_domain_file("gripper"))
    problem = load_problem(write_problems("gripper", "eval", 0, tmp_path, n=1)[0], domain)
    mapping = json.loads((SAVED / "name_mapping.json").read_text())
    # a second original for each operator's obfuscated name: the one translated back
    mapping["operator"] |= {f"{name}\x1b[2J": value for name, value in mapping["operator"].items()}
    solver = Solver(
        (SAVED / "program.py").read_text(), domain, trusted=True, mapping=NameMapping.from_json(mapping)
    )
    with pytest.raises(SolverError, match="after the name mapping's translation") as caught:
        solver(problem)
    assert "\x1b" not in str(caught.value)


@pytest.mark.parametrize(
    "action", ["(pick ball1\x1b[2J rooma left)", "(pick ball1\x07 rooma left)", "(pick\u00e9 a)"]
)
def test_plan_file_text_checks_each_line_as_written(action: str) -> None:
    with pytest.raises(UnprintablePlanLine, match="step 2") as caught:
        plan_file_text(["(move rooma roomb)", action], 2, "unit")
    assert "\x1b" not in str(caught.value) and "\x07" not in str(caught.value)
    assert (
        plan_file_text(["(move  rooma\troomb)"], 1, "unit") == "(move rooma roomb)\n; cost = 1 (unit cost)\n"
    )
