"""Problem sets: a domain with its training and evaluation problems.

:func:`load_domain_problems` gives the problems of a built-in domain (generated for a seed)
or of a user's folder (found by :func:`discover_problem_set`).

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

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_file, builtin_domain_names, data_folder
from genplan.pddl.described import DESCRIPTION_FILE, DescribedTask, is_described_folder, load_described_task
from genplan.pddl.domain import Domain, load_domain
from genplan.pddl.problem import Problem, load_problem

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


@dataclass(frozen=True)
class DomainProblems:
    """A domain with its training and evaluation problems.

    Attributes:
        name: the domain's short name (built-in name or folder name).
        domain: the parsed domain.
        training: training problems, smallest first (the first two are shown in the prompt).
        evaluation_sources: evaluation problems, loaded or as files; files are parsed on first
            use of :attr:`evaluation` (heavy's take about a second each, so the first prompt
            does not wait for them).
        size_check: whether ``training`` ends with an evaluation-sized check problem.
        root: the folder problem keys are relative to (the user's folder, or the folder the
            built-in problems were generated in), or ``None``; records name each problem by
            its file relative to ``root``, since IPC problem names repeat across levels.
    """

    name: str
    domain: Domain
    training: tuple[Problem, ...]
    evaluation_sources: tuple[Problem | Path, ...]
    size_check: bool = False
    root: Path | None = None

    @functools.cached_property
    def evaluation(self) -> tuple[Problem, ...]:
        """Evaluation problems in a fixed order, parsed on first use."""
        return tuple(
            p if isinstance(p, Problem) else load_problem(p, self.domain) for p in self.evaluation_sources
        )


def write_builtin_problems(
    domain: str, seed: int, n_eval: int | None, work_folder: Path, *, size_check: bool = False
) -> tuple[Path, list[Path], list[Path], list[Path]]:
    """Generate a built-in domain's problems for ``seed`` under ``work_folder/problems/<domain>/seed<S>/``.

    Files already there with the same content are left untouched; new ones appear whole
    (written beside, then renamed), so processes that generate the same problems at once
    never read a half-written file.

    Returns:
        ``(folder, training files, check files, evaluation files)``; the check files are
        empty unless ``size_check``.
    """
    from genplan.pddl.generate import write_problems  # lazy: keeps generators out of solver imports

    base = work_folder / "problems" / domain / f"seed{seed}"
    training = write_problems(domain, "train", seed, base / "train")
    check = write_problems(domain, "check", seed, base / "check") if size_check else []
    evaluation = write_problems(domain, "eval", seed, base / "eval", n=n_eval)
    return base, training, check, evaluation


def load_domain_problems(
    domain: str, seed: int, n_eval: int | None, work_folder: Path, *, size_check: bool = False
) -> DomainProblems:
    """Problems for a built-in domain name (generated for ``seed``) or a user folder.

    Built-in problems are written under ``work_folder/problems/<domain>/seed<S>/`` so they can
    be inspected; the same seed always gives the same files. With ``size_check`` a built-in
    domain's training problems end with one evaluation-sized ``check`` problem (see
    :data:`genplan.pddl.generate.SPLITS`); it is never shown in a prompt unless it fails.

    Raises:
        ConfigurationError: an unknown name that is not a folder either.
        PddlError: a malformed domain or problem file.
    """
    if domain in builtin_domain_names():
        domain_file = builtin_domain_file(domain)
        base, training_files, check_files, evaluation_files = write_builtin_problems(
            domain, seed, n_eval, work_folder, size_check=size_check
        )
        name, root = domain, base
    else:
        folder = Path(domain)
        if is_described_folder(folder):
            raise ConfigurationError(
                f"{folder} holds a task in English ({DESCRIPTION_FILE}), not PDDL; only approaches that read "
                "descriptions take it (genplan run --approach asp)"
            )
        if not folder.is_dir():
            raise ConfigurationError(
                f"--domain {domain!r} is neither a built-in domain ({', '.join(builtin_domain_names())}) "
                "nor a folder with a domain.pddl"
            )
        problem_set = discover_problem_set(folder)
        domain_file = problem_set.domain_file
        training_files = list(problem_set.training)
        check_files = []
        evaluation_files = list(problem_set.evaluation)[: n_eval or None]
        name, root = folder.resolve().name, folder
    parsed = load_domain(domain_file)
    # Smallest first, so the two problems shown in the prompt are the smallest (Sec. 4.1).
    training = tuple(
        sorted(
            (load_problem(path, parsed) for path in training_files),
            key=lambda p: (len(p.object_types), len(p.init)),
        )
    ) + tuple(load_problem(path, parsed) for path in check_files)
    return DomainProblems(name, parsed, training, tuple(evaluation_files), bool(check_files), root)


def load_problems(
    domain: str, seed: int, n_eval: int | None, work_folder: Path, *, size_check: bool = False
) -> DomainProblems | DescribedTask:
    """A PDDL problem set (:func:`load_domain_problems`), or a task given in English when
    ``domain`` names a folder with ``description.md`` (a path, or a built-in such folder by
    name, e.g. ``mcp``; see :mod:`genplan.pddl.described`).

    Raises:
        ConfigurationError, PddlError: as :func:`load_domain_problems` and
            :func:`~genplan.pddl.described.load_described_task`.
    """
    builtin = data_folder("domains") / domain
    for folder in (Path(domain), builtin):
        if domain not in builtin_domain_names() and is_described_folder(folder):
            return load_described_task(folder)
    return load_domain_problems(domain, seed, n_eval, work_folder, size_check=size_check)
