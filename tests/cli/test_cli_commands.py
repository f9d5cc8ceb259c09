"""The subcommand registry: a command line imports only the subcommand it names, help unchanged."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from genplan.cli import build_parser
from genplan.cli.commands import COMMANDS, chosen_command, command_help
from genplan.pddl.generate import write_problems

OTHER_COMMANDS_MODULES = [f"genplan.cli.{name}" for name in COMMANDS if name != "solve"]
"""What ``genplan solve`` must not import: every other subcommand's module ..."""

HEAVY_MODULES = [
    "genplan.cli.model_options",
    "genplan.cli.problem_options",
    "genplan.cli.reference_options",
    "genplan.cli.settings_options",
    "genplan.approaches.base",
    "genplan.experiments",
    "genplan.llm",
    "genplan.plans.validate",
    "genplan.sandbox.policy",
    "genplan.sandbox.trusted",
]
"""... and the modules they bring, and the policy (a sandboxed run compiles the program in the
sandbox, not here), that solving a problem with a saved program needs none of."""


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices[name]


def _imported_by(code: str, cwd: Path) -> list[str]:
    """The ``genplan`` modules a fresh interpreter has imported after running ``code``."""
    script = (
        code
        + "\nimport json, sys\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith('genplan'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_genplan_solve_imports_no_other_subcommand(tmp_path: Path) -> None:
    problem = write_problems("gripper", "train", 0, tmp_path)[0]
    code = (
        "from genplan.cli import main\n"
        f"assert main(['solve', '--domain', 'gripper', {str(problem)!r}, '-o', 'plan.txt']) == 0"
    )
    imported = _imported_by(code, tmp_path)
    assert "genplan.cli.solve" in imported
    assert (tmp_path / "plan.txt").read_text().startswith("(")
    assert [m for m in [*OTHER_COMMANDS_MODULES, *HEAVY_MODULES] if m in imported] == []


def test_parsing_a_command_line_imports_only_its_subcommand(tmp_path: Path) -> None:
    for name in COMMANDS:
        code = f"from genplan.cli import build_parser\nbuild_parser([{name!r}, '--help'])"
        imported = _imported_by(code, tmp_path)
        others = [m for m in imported if m.startswith("genplan.cli.") and m.rsplit(".", 1)[1] in COMMANDS]
        shared = ["genplan.cli.run"] if name == "synthesize" else []  # synthesize is run's generalized plan
        assert others == sorted([f"genplan.cli.{name}", *shared]), name


def test_top_level_help_imports_no_subcommand(tmp_path: Path) -> None:
    imported = _imported_by("from genplan.cli import build_parser\nbuild_parser(['--help'])", tmp_path)
    assert [m for m in imported if m.rsplit(".", 1)[-1] in COMMANDS] == []


def test_top_level_help_lists_every_subcommand_with_its_help() -> None:
    full = build_parser().format_help()
    assert build_parser(["--help"]).format_help() == full
    assert build_parser(["solve", "--help"]).format_help() == full
    for name in COMMANDS:
        assert f"    {name}" in full
        assert " ".join(command_help(name).split()) in " ".join(full.split())


@pytest.mark.parametrize("name", COMMANDS)
def test_a_subcommands_help_is_the_full_parsers(name: str) -> None:
    assert (
        _subparser(build_parser([name]), name).format_help() == _subparser(build_parser(), name).format_help()
    )


def test_every_subcommand_registers_the_registrys_help() -> None:
    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    listed = {choice.dest: choice.help for choice in action._choices_actions}
    assert listed == {name: command_help(name) for name in COMMANDS}


@pytest.mark.parametrize(
    ("argv", "chosen"),
    [
        (["solve", "p.pddl"], "solve"),
        (["--version"], None),
        (["--help", "solve"], "solve"),
        (["-h"], None),
        ([], None),
        (["sol"], None),
        (["bogus", "solve"], None),
        (["--", "validate", "a"], "validate"),
        (["--"], None),
        (["run", "--approach", "io"], "run"),
    ],
)
def test_the_chosen_command_is_the_first_argument_that_is_not_a_flag(
    argv: list[str], chosen: str | None
) -> None:
    assert chosen_command(argv) == chosen


def test_a_command_line_parses_as_with_every_subcommand_registered(tmp_path: Path) -> None:
    argv = ["solve", "--domain", "gripper", str(tmp_path / "p.pddl"), "-o", "plan.txt", "--timeout", "5"]
    lazy, full = build_parser(argv).parse_args(argv), build_parser().parse_args(argv)
    assert vars(lazy) == vars(full)
