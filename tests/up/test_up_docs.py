"""The unified-planning page's examples run as written, from a clone's root: the engine solves a
built-in domain's problem with its saved program, and UP problems go through genplan evaluate and
come back as UP plans. What a ``print(...)  # comment`` line says it prints is printed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from manual import DOCS, blocks

from genplan.paths import data_folder

PAGE = DOCS / "unified-planning.md"


def _python(block: str, cwd: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-c", block], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def _promised(block: str) -> list[str]:
    return re.findall(r"^print\(.*\)  # (.+)$", block, re.MULTILINE)


@pytest.mark.slow
def test_the_pages_examples_run_as_written(tmp_path: Path) -> None:
    for name in ("domains", "synthesized"):  # the clone root, without writing into it
        (tmp_path / name).symlink_to(data_folder(name), target_is_directory=True)
    engine, write, read = blocks(PAGE, "python")
    printed = _python(engine, tmp_path)
    assert _promised(engine) and all(line in printed for line in _promised(engine)), printed
    assert "checked by val: valid plan, 65 actions, cost 65" in printed
    _python(write, tmp_path)
    evaluate = next(line for line in blocks(PAGE)[1].splitlines() if line.startswith("genplan evaluate"))
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "GENPLAN"))}
    result = subprocess.run(
        [sys.executable, "-m", "genplan", *evaluate.split()[1:]],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0 and "Solved 3/3" in result.stdout, result.stdout + result.stderr
    printed = _python(read, tmp_path)
    assert _promised(read) and all(line in printed for line in _promised(read)), printed
