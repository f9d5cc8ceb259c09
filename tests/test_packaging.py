"""The package metadata installs everything a non-editable install needs."""

from __future__ import annotations

from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "genplan").rglob("__init__.py")}
    assert found <= listed, f"add to pyproject.toml [tool.setuptools] packages: {sorted(found - listed)}"
    mapped = config["tool"]["setuptools"]["package-dir"]
    assert {mapped[f"genplan._data.{kind}"] for kind in ("domains", "generators", "synthesized")} == {
        "domains",
        "generators",
        "synthesized",
    }


def test_the_top_level_holds_only_the_fixed_folders() -> None:
    allowed = {
        "genplan",
        "domains",
        "generators",
        "synthesized",
        "tests",
        "scripts",
        "pyproject.toml",
        "README.md",
        "LICENSE",
        ".ci",
        ".git",
        ".gitignore",
    }
    import subprocess

    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    if tracked.returncode != 0:  # not a git checkout (an unpacked sdist): nothing to check
        return
    top = {line.split("/")[0] for line in tracked.stdout.splitlines() if line}
    assert top <= allowed, f"files outside the fixed top level: {sorted(top - allowed)}"
