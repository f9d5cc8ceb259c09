"""The package metadata installs everything a non-editable install needs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from genplan.paths import PAPER_DOMAINS

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
        "docs",
        "mkdocs.yml",
        "LICENSE",
        "CITATION.cff",
        ".ci",
        ".git",
        ".gitignore",
    }
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    if tracked.returncode != 0:  # not a git checkout (an unpacked sdist): nothing to check
        return
    top = {line.split("/")[0] for line in tracked.stdout.splitlines() if line}
    assert top <= allowed, f"files outside the fixed top level: {sorted(top - allowed)}"


def test_the_package_metadata_names_authors_urls_classifiers_and_keywords_and_a_citation() -> None:
    """Issue 27 item 11: what a package index and a citation manager show."""
    import yaml

    from genplan import __version__

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["authors"] and all(author.get("name") for author in project["authors"])
    assert "PDDL" in project["keywords"] and len(project["keywords"]) >= 4
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]
    assert all(url.startswith("https://") for url in project["urls"].values()) and project["urls"]
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0" and citation["version"] == project["version"] == __version__
    assert citation["authors"] and citation["license"] == "MIT"
    (paper,) = citation["references"]
    assert paper["doi"] == "10.1609/aaai.v38i18.30006" and paper["authors"][0]["family-names"] == "Silver"


def test_papers_are_named_not_numbered_by_their_seed_files() -> None:
    """Issue 27 item 11: help texts, messages and the manual say whose paper, never "seed 004"."""
    import re

    texts = [
        ROOT / "README.md",
        *(ROOT / "docs").rglob("*.md"),
        *(ROOT / "genplan").rglob("*.py"),
        *(ROOT / "generators").rglob("*.py"),
    ]
    numbered = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in texts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"\bseed 00\d\b", line)
    ]
    assert numbered == []


_IGNORED = shutil.ignore_patterns(".*", "build", "*.egg-info", "__pycache__", "dist")
_OUTPUT_FOLDERS = {"runs", "results", "reports", "site"}  # the checkout's own output (site: the manual built)


def _ignored(folder: str, names: list[str]) -> set[str]:
    ignored = set(_IGNORED(folder, names))
    if Path(folder).resolve() == ROOT:
        ignored |= _OUTPUT_FOLDERS & set(names)
    return ignored


@pytest.mark.slow
def test_a_non_editable_install_finds_the_papers_problems_and_every_generator(tmp_path: Path) -> None:
    """Built as a wheel and installed elsewhere, genplan still finds the paper's problem files (with
    their license notice) and version 1 of the generators, inside the package."""
    source = tmp_path / "source"  # a copy: building in the checkout would leave build/ there, and use it
    shutil.copytree(
        ROOT,
        source,
        ignore=_ignored,
    )
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(source), "-w", str(tmp_path / "wheel")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stderr[-2000:]
    probe = (
        "import json, genplan\n"
        "from genplan.paths import PAPER_DOMAINS\n"
        "from genplan.pddl.generate import generator_path\n"
        "from genplan.pddl.paper_problems import paper_folder, paper_problem_files\n"
        "from genplan.pddl.shipped_sets import shipped_folder, shipped_problem_files\n"
        "shipped = [('blocksworld', 'planbench'), ('blocksworld', 'planbench-hard'), ('logistics', 'planbench')]\n"
        "print(json.dumps({'package': genplan.__file__,\n"
        "  'problems': {d: len(paper_problem_files(d)) for d in PAPER_DOMAINS},\n"
        "  'license': all((paper_folder(d).parent / 'LICENSE').is_file() for d in PAPER_DOMAINS),\n"
        "  'folder': str(paper_folder('heavy')),\n"
        "  'shipped': [len(shipped_problem_files(d, n)[0]) for d, n in shipped],\n"
        "  'shipped_license': all((shipped_folder(d, n) / 'LICENSE').is_file() for d, n in shipped),\n"
        "  'shipped_folder': str(shipped_folder('logistics', 'planbench')),\n"
        "  'v1': str(generator_path('gripper', 'v1'))}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    found = json.loads(result.stdout)
    assert found["package"].startswith(str(site))
    assert found["problems"] == {domain: 30 for domain in PAPER_DOMAINS}
    assert found["license"]
    assert found["shipped"] == [501, 110, 286] and found["shipped_license"]  # PlanBench's, with its notice
    assert found["shipped_folder"].startswith(str(site / "genplan" / "_data" / "domains"))
    assert found["folder"].startswith(str(site / "genplan" / "_data" / "domains"))
    assert found["v1"] == str(site / "genplan" / "_data" / "generators" / "v1" / "gripper.py")
