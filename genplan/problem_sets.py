"""Finding the domain, training and evaluation problems in a user's folder.

Layouts understood (everything sorted naturally, ``p2`` before ``p10``, so results never
depend on filesystem order):

1. The IPC 2023 learning track: ``domain.pddl``, ``training/easy/*.pddl`` (and any other
   ``training/<level>/``) as training problems, ``testing/easy``, ``medium``, ``hard`` (in that
   order) as evaluation problems.
2. ``domain.pddl`` with ``train/`` (or ``training/``) and ``eval/`` (or ``test/``, ``testing/``)
   subfolders of problem files.
3. ``domain.pddl`` beside problem files: every problem is an evaluation problem, and the
   :data:`DEFAULT_TRAINING` smallest (by file size) are also the training problems.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from genplan.errors import ConfigurationError

DEFAULT_TRAINING = 10
IPC_LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class ProblemSet:
    """A domain file with its training and evaluation problem files."""

    domain_file: Path
    training: tuple[Path, ...]
    evaluation: tuple[Path, ...]


def natural_key(path: Path) -> tuple[object, ...]:
    """Sort key that orders embedded numbers by value: ``p2.pddl`` before ``p10.pddl``."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(path)))


def _problems(folder: Path) -> list[Path]:
    return sorted((p for p in folder.glob("*.pddl") if p.name != "domain.pddl"), key=natural_key)


def discover_problem_set(folder: Path) -> ProblemSet:
    """The problem set in ``folder`` (see the module docstring for the layouts).

    Raises:
        ConfigurationError: no ``domain.pddl``, or no problem files; the message says what was found.
    """
    folder = Path(folder)
    domain_file = folder / "domain.pddl"
    if not domain_file.is_file():
        found = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
        raise ConfigurationError(
            f"{folder} has no domain.pddl (found: {', '.join(found[:10]) or 'nothing'}); put the domain in "
            "domain.pddl beside the problems, or use the IPC 2023 layout (training/easy, testing/easy|medium|hard)"
        )
    training_root = next((folder / n for n in ("training", "train") if (folder / n).is_dir()), None)
    testing_root = next((folder / n for n in ("testing", "test", "eval") if (folder / n).is_dir()), None)
    if training_root is not None or testing_root is not None:
        training = _collect(training_root)
        evaluation = _collect(testing_root)
        if not training:
            training = evaluation
        if not evaluation:
            evaluation = training
    else:
        evaluation = _problems(folder)
        training = sorted(
            sorted(evaluation, key=lambda p: (p.stat().st_size, natural_key(p)))[:DEFAULT_TRAINING],
            key=natural_key,
        )
    if not evaluation:
        raise ConfigurationError(f"{folder} has a domain.pddl but no problem files (*.pddl)")
    return ProblemSet(domain_file, tuple(training), tuple(evaluation))


def _collect(root: Path | None) -> list[Path]:
    if root is None:
        return []
    levels = [root / level for level in IPC_LEVELS if (root / level).is_dir()]
    levels += sorted((d for d in root.iterdir() if d.is_dir() and d.name not in IPC_LEVELS), key=natural_key)
    return [*_problems(root), *(p for level in levels for p in _problems(level))]
