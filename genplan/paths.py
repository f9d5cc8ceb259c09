"""Where genplan finds its built-in data: domains, generators and saved synthesized programs.

In a source checkout these are the top-level folders ``domains/``, ``generators/`` and
``synthesized/``; a regular (non-editable) install carries copies inside the package as
``genplan/_data/...``. The checkout wins when both exist. Saved runs are also read from the
user's ``./synthesized/`` (where ``--save`` writes outside a checkout), before genplan's own
(:func:`saved_run_roots`).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent

PAPER_DOMAINS = ("delivery", "ferry", "forest", "gripper", "heavy", "miconic", "spanner")
"""The seven domains of Silver et al. (AAAI 2024, Sec. 5.1), whose experiments (Tables 1-3,
Figures 3-5) genplan reproduces; the other built-in domains (Blocksworld, Logistics) serve the
LLM-as-planner approaches (Gonzalez-Pumariaga et al., Sec. 4.1; SymPlanner, Sec. 3.1)."""


def source_checkout() -> Path | None:
    """The source checkout genplan runs from (editable install or a clone on the path), or
    ``None`` for an installed package: the folder above ``genplan/`` when it holds a
    ``pyproject.toml``."""
    root = _PACKAGE.parent
    return root if (root / "pyproject.toml").is_file() else None


def data_folder(kind: str) -> Path:
    """The folder holding built-in ``kind`` data: ``"domains"``, ``"generators"`` or ``"synthesized"``.

    Returns the checkout's top-level folder if it exists, else the installed copy (which may
    not exist yet for ``"synthesized"``).
    """
    root = source_checkout()
    if root is not None and (root / kind).is_dir():
        return root / kind
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


def saved_run_roots() -> list[Path]:
    """The folders holding saved runs (``<root>/<domain>/<label>-seed<S>/``), in the order they are
    searched: the user's ``./synthesized/`` (where ``--save`` writes outside a source checkout)
    first, then genplan's own (the checkout's or the installed package's); one entry when they are
    the same folder, and the user's only when it exists."""
    roots = [Path.cwd() / "synthesized", data_folder("synthesized")]
    unique: list[Path] = []
    for root in roots:
        if (root.is_dir() or root == roots[-1]) and all(root.resolve() != seen.resolve() for seen in unique):
            unique.append(root)
    return unique
