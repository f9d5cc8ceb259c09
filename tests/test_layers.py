"""The package's stages import only lower stages, and approaches never import each other.

The contracts live in ``pyproject.toml`` (``[tool.importlinter]``); import-linter checks them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept() -> None:
    command = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    result = subprocess.run(
        [command, "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_never_imports_pyperplan() -> None:
    """Pyperplan is GPL-3 and a test-only dependency (the oracle of differential tests): no module of
    genplan's package may import it, directly or by name."""
    import ast

    offending = []
    for path in sorted((ROOT / "genplan").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names = [node.value] if node.value.split(".")[0] == "pyperplan" else []
            offending += [
                f"{path.relative_to(ROOT)}:{node.lineno}" for n in names if n.split(".")[0] == "pyperplan"
            ]
    assert offending == []
