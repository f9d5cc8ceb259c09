"""Every script in scripts/ answers ``--help`` with its usage and what it does, and starts nothing."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
HELPERS = {"timing.py"}
"""Modules the scripts import, not run themselves."""
WRAPPERS = {"run_experiments.py"}
"""Scripts whose help is the ``genplan`` command's they wrap."""


def runnable(path: Path) -> bool:
    return 'if __name__ == "__main__":' in path.read_text()


def test_every_file_in_scripts_is_a_script_or_a_known_helper() -> None:
    files = sorted(SCRIPTS.glob("*.py"))
    assert {p.name for p in files if not runnable(p)} == HELPERS


@pytest.mark.parametrize("script", sorted(p.name for p in SCRIPTS.glob("*.py") if runnable(p)))
def test_help_prints_usage_and_what_the_script_does_without_starting_it(script: str, tmp_path: Path) -> None:
    path = SCRIPTS / script
    # A script that ignored --help would start its benchmark (minutes): the time-out catches it.
    done = subprocess.run(
        [sys.executable, str(path), "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: "), done.stdout[:500]  # nothing ran before the usage
    assert "-h, --help" in done.stdout
    if script not in WRAPPERS:
        first_line = (ast.get_docstring(ast.parse(path.read_text())) or "").splitlines()[0]
        assert " ".join(first_line.split()) in " ".join(done.stdout.split())
    assert list(tmp_path.iterdir()) == []  # and wrote nothing
