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

In the first two layouts a ``validation/`` (or ``valid/``) folder, flat or by level, holds
validation problems: never shown to a model, used to choose among candidate programs.

A problem's key in records is its file relative to the problem set's folder; :func:`problem_level`
reads the IPC difficulty level (``easy``, ``medium``, ``hard``) from it.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_file, builtin_domain_names, data_folder
from genplan.pddl.described import DESCRIPTION_FILE, DescribedTask, is_described_folder, load_described_task
from genplan.pddl.domain import Domain, load_domain
from genplan.pddl.generate import CURRENT_GENERATORS, generate_problems, save_problems, write_problems
from genplan.pddl.problem import Problem, bind_problem, load_problem

DEFAULT_TRAINING = 10
IPC_LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class ProblemSet:
    """A domain file with its training and evaluation problem files."""

    domain_file: Path
    training: tuple[Path, ...]
    evaluation: tuple[Path, ...]
    validation: tuple[Path, ...] = ()


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
    validation_root = next((folder / n for n in ("validation", "valid") if (folder / n).is_dir()), None)
    validation: list[Path] = []
    if training_root is not None or testing_root is not None:
        validation = _collect(validation_root)
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
    return ProblemSet(domain_file, tuple(training), tuple(evaluation), tuple(validation))


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
        evaluation_sources: evaluation problems: built-in ones already bound from generated
            data, files (a user's, the paper's) parsed on first use of :attr:`evaluation` (so
            the first prompt does not wait for a large problem set).
        size_check_problems: the size-check split: evaluation-sized problems of a built-in
            domain (``--no-size-check`` leaves it empty), never among ``training``; an approach
            that debugs on them takes them itself (:attr:`training_with_size_check`).
        root: the folder problem keys are relative to (the user's folder, or the folder the
            built-in problems were generated in), or ``None``; records name each problem by
            its file relative to ``root``, since IPC problem names repeat across levels.
        selection: how the evaluation problems were chosen when not the default set, e.g.
            ``"paper"`` or ``"by-length:4,8,12 x2"`` (:mod:`genplan.plans.problem_selection`);
            ``None`` otherwise.
        optimal_lengths: optimal plan lengths of evaluation problems where known, keyed like
            records (the file relative to ``root``).
        generators: the generator version of a built-in domain's generated problems (training
            problems always, evaluation problems unless selected otherwise), e.g. ``"v2"``;
            ``None`` for a user's folder.
        evaluation_domain: the domain evaluation files are parsed against when it is not
            ``domain`` (the paper's problems come with the paper's domain file, which defines
            the same predicates and operators under its own name); ``None`` for ``domain``.
        validation: the problem set's validation problems (its ``validation/`` folder), never
            shown to a model; empty when it has none.
        available: how many evaluation problems a user's folder holds (``evaluation_sources``
            are the first ``n_eval`` of them); ``None`` for generated or selected problems.
    """

    name: str
    domain: Domain
    training: tuple[Problem, ...]
    evaluation_sources: tuple[Problem | Path, ...]
    size_check_problems: tuple[Problem, ...] = ()
    root: Path | None = None
    selection: str | None = None
    optimal_lengths: Mapping[str, int] = field(default_factory=dict)
    generators: str | None = None
    evaluation_domain: Domain | None = None
    validation: tuple[Problem, ...] = ()
    available: int | None = None

    @functools.cached_property
    def evaluation(self) -> tuple[Problem, ...]:
        """Evaluation problems in a fixed order, parsed on first use."""
        domain = self.evaluation_domain or self.domain
        return tuple(
            p if isinstance(p, Problem) else load_problem(p, domain) for p in self.evaluation_sources
        )

    def describe_count(self) -> str:
        """How many evaluation problems, and of how many a folder holds: ``"30 of 90 evaluation
        problems"``, ``"90 of 90 evaluation problems"``; ``"30 evaluation problems"`` when generated."""
        count = len(self.evaluation_sources)
        of = f" of {self.available}" if self.available is not None else ""
        return f"{count}{of} evaluation problem{'s' * (count != 1 or bool(of))}"

    @property
    def size_check(self) -> bool:
        """Whether the problem set has a size-check split."""
        return bool(self.size_check_problems)

    @property
    def training_with_size_check(self) -> tuple[Problem, ...]:
        """The training problems, then the size-check split (the generalized plan's debugging
        set: a correct but slow program fails the last, evaluation-sized problem)."""
        return (*self.training, *self.size_check_problems)

    @property
    def problem_set(self) -> str:
        """The evaluation problems as run records name them: the selection (``paper``,
        ``by-length:4,8,12 x2``, ``small x30``), ``generated`` for a built-in domain's
        generated problems, or ``folder`` for a user's folder."""
        if self.selection is not None:
            return self.selection
        return "folder" if self.generators is None else "generated"


def generated_folder(work_folder: Path, domain: str, seed: int, generators: str = CURRENT_GENERATORS) -> Path:
    """Where a built-in domain's problems for ``seed`` are written: ``work_folder/problems/<domain>/seed<S>/``
    for the current generators, ``work_folder/problems/<domain>/<version>/seed<S>/`` for another
    version."""
    base = work_folder / "problems" / domain
    return (base if generators == CURRENT_GENERATORS else base / generators) / f"seed{seed}"


def write_builtin_problems(
    domain: str,
    seed: int,
    n_eval: int | None,
    work_folder: Path,
    *,
    size_check: bool = False,
    generators: str = CURRENT_GENERATORS,
) -> tuple[Path, list[Path], list[Path], list[Path]]:
    """Generate a built-in domain's problems for ``seed`` under :func:`generated_folder`.

    Files already there with the same content are left untouched; new ones appear whole
    (written beside, then renamed), so processes that generate the same problems at once
    never read a half-written file.

    Returns:
        ``(folder, training files, check files, evaluation files)``; the check files are
        empty unless ``size_check``.

    Raises:
        ConfigurationError: an unknown domain or generator version, or a folder that cannot be
            written.
    """
    base = generated_folder(work_folder, domain, seed, generators)
    training = write_problems(domain, "train", seed, base / "train", generators=generators)
    check = write_problems(domain, "check", seed, base / "check", generators=generators) if size_check else []
    evaluation = write_problems(domain, "eval", seed, base / "eval", n=n_eval, generators=generators)
    return base, training, check, evaluation


def load_domain_problems(
    domain: str,
    seed: int,
    n_eval: int | None,
    work_folder: Path,
    *,
    size_check: bool = False,
    generators: str = CURRENT_GENERATORS,
) -> DomainProblems:
    """Problems for a built-in domain name (generated for ``seed``) or a user folder.

    Built-in problems are generated as data, by the generator version ``generators``, and
    reach the pipeline as data (never through text and back); they are also written under
    :func:`generated_folder` so they can be inspected, and the same seed always gives the
    same files. With ``size_check`` a built-in domain also gets a size-check split of one
    evaluation-sized ``check`` problem (see :data:`genplan.pddl.generate.SPLITS`), kept apart
    from the training problems. ``generators`` is ignored for a user's folder.

    Raises:
        ConfigurationError: an unknown name that is not a folder either (suggests the closest
            built-in name), an unknown generator version, or a work folder that cannot be written.
        PddlError: a malformed domain or problem file.
    """
    folder = resolve_domain(domain)
    if folder is None:
        parsed = load_domain(builtin_domain_file(domain))
        base = generated_folder(work_folder, domain, seed, generators)
        splits = (
            {"train": None, "check": None, "eval": n_eval} if size_check else {"train": None, "eval": n_eval}
        )
        bound = {
            split: _generated(domain, split, seed, count, base / split, parsed, generators)
            for split, count in splits.items()
        }
        return DomainProblems(
            domain,
            parsed,
            tuple(bound["train"]),
            tuple(bound["eval"]),
            tuple(bound.get("check", ())),
            base,
            generators=generators,
        )
    problem_set = discover_problem_set(folder)
    parsed = load_domain(problem_set.domain_file)
    # Smallest first, so the two problems shown in the prompt are the smallest (Sec. 4.1).
    training = tuple(
        sorted(
            (load_problem(path, parsed) for path in problem_set.training),
            key=lambda p: (len(p.object_types), len(p.init)),
        )
    )
    evaluation = tuple(problem_set.evaluation)[:n_eval]
    validation = tuple(load_problem(path, parsed) for path in problem_set.validation)
    return DomainProblems(
        folder.resolve().name,
        parsed,
        training,
        evaluation,
        (),
        folder,
        validation=validation,
        available=len(problem_set.evaluation),
    )


def problem_level(key: str) -> str | None:
    """The IPC difficulty level (``easy``, ``medium``, ``hard``) of a problem key
    (``testing/hard/p03.pddl``), or ``None`` when no folder of the key names one."""
    parts = key.split("/")[:-1]
    return next((part for part in reversed(parts) if part in IPC_LEVELS), None)


def resolve_domain(domain: str) -> Path | None:
    """``None`` for a built-in domain name, else the folder ``domain`` names (holding a ``domain.pddl``).

    Raises:
        ConfigurationError: neither a built-in name nor a folder (the message suggests the
            closest built-in name), a folder without a ``domain.pddl``, or a folder holding a
            task in English.
    """
    if domain in builtin_domain_names():
        return None
    folder = Path(domain)
    if is_described_folder(folder):
        raise ConfigurationError(
            f"{folder} holds a task in English ({DESCRIPTION_FILE}), not PDDL; only approaches that read "
            "descriptions take it (genplan run --approach asp)"
        )
    if not folder.is_dir():
        raise unknown_domain(domain)
    if not (folder / "domain.pddl").is_file():
        discover_problem_set(folder)  # raises, saying what the folder holds
    return folder


def unknown_domain(domain: str) -> ConfigurationError:
    """The error for a domain name that is not built in, suggesting the closest built-in name."""
    names = builtin_domain_names()
    close = difflib.get_close_matches(domain, names, n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    return ConfigurationError(
        f"unknown domain {domain!r}: {hint}Built-in domains are {', '.join(names)}; "
        "or give a folder with a domain.pddl"
    )


def _generated(
    domain: str, split: str, seed: int, n: int | None, out: Path, parsed: Domain, generators: str
) -> list[Problem]:
    saved = save_problems(generate_problems(domain, split, seed, n, generators=generators), out)
    return [bind_problem(generated.problem, parsed, path) for path, generated in saved]


def domain_short_name(domain: str) -> str:
    """The name a run folder, a saved run and a replay know ``--domain`` by: a built-in domain's
    (or a built-in task in English's) name, or, for a folder of the user's, the folder's name and
    the first 8 hex digits of the SHA-256 of its ``domain.pddl`` (or ``description.md``):
    ``./ipc/ferry`` is ``ferry-1a2b3c4d``, never the built-in ``ferry``, so a user's folder never
    replays or blocks a built-in domain's run, and two folders of one name but different domains
    never share a run folder.

    Raises:
        ConfigurationError: neither a built-in name nor a folder with a ``domain.pddl`` or a
            ``description.md`` (as :func:`resolve_domain`).
    """
    described = described_folder(domain)
    if described is not None:
        return _folder_name(described, DESCRIPTION_FILE)
    folder = resolve_domain(domain)
    return domain if folder is None else _folder_name(folder, "domain.pddl")


def _folder_name(folder: Path, main_file: str) -> str:
    resolved = folder.resolve()
    if (data_folder("domains") / resolved.name).resolve() == resolved:
        return resolved.name  # a built-in domain's own folder, named by path
    try:
        digest = hashlib.sha256((folder / main_file).read_bytes()).hexdigest()[:8]
    except OSError as error:
        raise ConfigurationError(f"cannot read {folder / main_file}: {error.strerror or error}") from error
    return f"{resolved.name}-{digest}"


def described_folder(domain: str) -> Path | None:
    """The folder of a task in English that ``domain`` names (a path, or a built-in such folder
    by name, e.g. ``mcp``; see :mod:`genplan.pddl.described`), or ``None`` when it names PDDL."""
    if domain in builtin_domain_names():
        return None
    for folder in (Path(domain), data_folder("domains") / domain):
        if is_described_folder(folder):
            return folder
    return None


def load_problems(
    domain: str,
    seed: int,
    n_eval: int | None,
    work_folder: Path,
    *,
    size_check: bool = False,
    generators: str = CURRENT_GENERATORS,
) -> DomainProblems | DescribedTask:
    """A PDDL problem set (:func:`load_domain_problems`), or a task given in English when
    ``domain`` names a folder with ``description.md`` (see :func:`described_folder`).

    Raises:
        ConfigurationError, PddlError: as :func:`load_domain_problems` and
            :func:`~genplan.pddl.described.load_described_task`.
    """
    folder = described_folder(domain)
    if folder is not None:
        return load_described_task(folder)
    return load_domain_problems(
        domain, seed, n_eval, work_folder, size_check=size_check, generators=generators
    )
