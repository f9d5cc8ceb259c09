"""Where genplan finds its built-in data: domains, generators and saved synthesized programs.

In a source checkout these are the top-level folders ``domains/``, ``generators/`` and
``synthesized/``; a regular (non-editable) install carries copies inside the package as
``genplan/_data/...``. The checkout wins when both exist.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_folder(kind: str) -> Path:
    """The folder holding built-in ``kind`` data: ``"domains"``, ``"generators"`` or ``"synthesized"``.

    Returns the checkout's top-level folder if it exists, else the installed copy (which may
    not exist yet for ``"synthesized"``).
    """
    checkout = _PACKAGE.parent / kind
    if checkout.is_dir() and (_PACKAGE.parent / "pyproject.toml").is_file():
        return checkout
    return _PACKAGE / "_data" / kind


def builtin_domain_names() -> list[str]:
    """Names of the built-in domains, sorted: those with ``domains/<name>/domain.pddl``."""
    folder = data_folder("domains")
    return sorted(p.parent.name for p in folder.glob("*/domain.pddl"))


def builtin_domain_file(name: str) -> Path:
    """The ``domain.pddl`` of built-in domain ``name`` (the file may not exist)."""
    return data_folder("domains") / name / "domain.pddl"


def builtin_described_names() -> list[str]:
    """Names of the built-in tasks given in English, sorted: ``domains/<name>/description.md``
    without a ``domain.pddl`` (the Missionaries and Cannibals puzzles)."""
    folder = data_folder("domains")
    return sorted(
        p.parent.name for p in folder.glob("*/description.md") if not (p.parent / "domain.pddl").is_file()
    )
