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
