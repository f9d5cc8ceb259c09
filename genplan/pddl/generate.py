"""Seeded training and evaluation problems for the built-in domains.

A generator is a module ``generators/<domain>.py`` with ``TRAIN_COUNT``, ``EVAL_COUNT`` and
``generate_problem(rng, split, name, scale) -> ProblemData`` (a problem as data: objects,
init and goal atoms; see :class:`~genplan.pddl.problem.ProblemData`). Problems reach
evaluation as data bound to the parsed domain, never through text and back; they are written
as PDDL only to be saved.

Each problem gets its own ``random.Random`` seeded from the string
``"<domain>/<split>/<seed>/<index>/<scale>"``, so the same seed gives byte-identical PDDL on
every machine and problem ``k`` does not depend on how many are asked for. Training problems
are sorted smallest first (objects, then initial atoms), so the two shown in the prompt are
the smallest (Silver et al. 2024, Sec. 4.1).

Generators are versioned (:data:`GENERATOR_VERSIONS`). Version 2, the default, draws the
seven domains of Silver et al. from the distributions of the paper's own problems (names,
sizes, initial states and goals; ``tests/pddl/test_distribution.py`` compares it with the paper's
seed-0 evaluation files). Version 1 is genplan's first generators, kept unchanged in
``generators/v1/`` for the domains whose output changed (forest, gripper, heavy, miconic), so
the runs made on them (the saved runs in ``synthesized/``) replay; for every other domain
version 1 is the current generator.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_names, data_folder
from genplan.pddl.problem_data import ProblemData

SPLITS = ("train", "eval", "check")
"""``check``: one evaluation-sized problem, drawn apart from the evaluation problems, that the
training check runs last, so a correct but slow program (heavy's O(n^4) sort, which passes
3-10 items and times out on 100-250) is caught during debugging (shared/domains.md)."""


@dataclass(frozen=True)
class GeneratedProblem:
    """A generated problem: its file name (e.g. ``train-00.pddl``) and the problem as data."""

    file_name: str
    problem: ProblemData

    @property
    def text(self) -> str:
        """The problem file's PDDL text."""
        return self.problem.to_pddl()


GENERATOR_VERSIONS = ("v1", "v2")
"""The generator versions: ``v1``, genplan's first generators (the saved runs' problems), and
``v2``, the paper's distributions (see the module docstring)."""

CURRENT_GENERATORS = "v2"
"""The version used unless another is asked for."""

_GENERATORS: dict[tuple[str, str], ModuleType] = {}


def check_generators(version: str) -> str:
    """``version`` if it names a generator version.

    Raises:
        ConfigurationError: it does not (the message lists the versions).
    """
    if version not in GENERATOR_VERSIONS:
        raise ConfigurationError(
            f"unknown generator version {version!r}; versions: {', '.join(GENERATOR_VERSIONS)} "
            f"(default {CURRENT_GENERATORS})"
        )
    return version


def generator_path(domain: str, generators: str = CURRENT_GENERATORS) -> Path:
    """The file of ``domain``'s generator in version ``generators``: ``generators/<version>/<domain>.py``
    for a domain whose output changed since that version, else ``generators/<domain>.py``."""
    folder = data_folder("generators")
    if generators != CURRENT_GENERATORS:
        kept = folder / check_generators(generators) / f"{domain}.py"
        if kept.is_file():
            return kept
    return folder / f"{domain}.py"


def load_generator(domain: str, generators: str = CURRENT_GENERATORS) -> ModuleType:
    """The generator module of ``domain`` in version ``generators`` (see :func:`generator_path`).

    Raises:
        ConfigurationError: no generator for ``domain`` (the message lists the known ones), or
            an unknown version.
    """
    key = (domain, check_generators(generators))
    if key in _GENERATORS:
        return _GENERATORS[key]
    path = generator_path(domain, generators)
    if domain not in builtin_domain_names() or not path.is_file():
        raise ConfigurationError(
            f"no generator for domain {domain!r}; built-in domains: {', '.join(builtin_domain_names())}"
        )
    spec = importlib.util.spec_from_file_location(f"genplan_generators_{generators}_{domain}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _GENERATORS[key] = module
    return module


def _size(problem: ProblemData) -> tuple[int, int]:
    """The training order's size: words of the written ``:objects`` section (object names, plus
    one type name per type when typed), then initial atoms."""
    types = len({type_name for _, type_name in problem.objects}) if problem.typed else 0
    return len(problem.objects) + types, len(problem.init)


def generate_problems(
    domain: str,
    split: str,
    seed: int,
    n: int | None = None,
    scale: int = 1,
    generators: str = CURRENT_GENERATORS,
) -> list[GeneratedProblem]:
    """Generate ``n`` problems (default: the domain's training or evaluation count).

    Args:
        domain: a built-in domain name.
        split: ``"train"``, ``"eval"`` or ``"check"`` (see :data:`SPLITS`).
        seed: the seed; the same seed gives identical problems.
        n: how many; ``None`` for the paper's count (10 training, delivery 5, forest 4 from version 2;
            30 evaluation; 1 check).
        scale: size multiplier for evaluation problems (runtime-versus-size studies, Figure 3);
            each generator documents which dimensions it multiplies.
        generators: the generator version (:data:`GENERATOR_VERSIONS`).

    Raises:
        ConfigurationError: unknown domain, split or version, or a scale below 1.
    """
    if split not in SPLITS:
        raise ConfigurationError(f"unknown split {split!r}; use train or eval")
    if scale < 1:
        raise ConfigurationError(f"scale must be at least 1, got {scale}")
    generator = load_generator(domain, generators)
    count = (
        n
        if n is not None
        else {"train": generator.TRAIN_COUNT, "eval": generator.EVAL_COUNT, "check": 1}[split]
    )
    prefix = split if scale == 1 else f"{split}-x{scale}"
    problems: list[ProblemData] = []
    for index in range(count):
        rng = random.Random(f"{domain}/{split}/{seed}/{index}/{scale}")
        size = "eval" if split == "check" else split
        problems.append(generator.generate_problem(rng, size, f"{domain}-{prefix}-{index:02d}", scale))
    if split == "train":
        order = sorted(range(count), key=lambda i: (_size(problems[i]), i))
        problems = [
            dataclasses.replace(problems[i], name=f"{domain}-{prefix}-{rank:02d}")
            for rank, i in enumerate(order)
        ]
    return [GeneratedProblem(f"{prefix}-{index:02d}.pddl", problem) for index, problem in enumerate(problems)]


def _umask() -> int:
    """The process's umask: from ``/proc/self/status`` (Linux), which leaves it untouched for other
    threads; else by setting it and restoring it at once."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_problems(
    domain: str,
    split: str,
    seed: int,
    out: Path,
    n: int | None = None,
    scale: int = 1,
    generators: str = CURRENT_GENERATORS,
) -> list[Path]:
    """Generate problems (see :func:`generate_problems`) into folder ``out``; return the paths.

    Raises:
        ConfigurationError: as :func:`generate_problems`, or ``out`` cannot be written (names it).
    """
    generated = generate_problems(domain, split, seed, n, scale, generators)
    return [path for path, _ in save_problems(generated, out)]


def save_problems(problems: list[GeneratedProblem], out: Path) -> list[tuple[Path, GeneratedProblem]]:
    """Write generated problems into folder ``out`` as PDDL; return ``(path, problem)`` pairs.

    Files whose content is already identical are left untouched. A file is written beside its
    place and renamed into it, so a reader (another process generating the same problems, an
    interrupted run) never sees it half-written.

    Raises:
        ConfigurationError: ``out`` or a file in it cannot be written (names the path and why).
    """
    saved = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for problem in problems:
            path = out / problem.file_name
            text = problem.text
            if not path.is_file() or path.read_text(encoding="utf-8", errors="replace") != text:
                _write_whole(path, text)
            saved.append((path, problem))
    except OSError as error:
        where = error.filename or out
        raise ConfigurationError(f"cannot write problems to {where}: {error.strerror or error}") from error
    return saved


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it into place, with the
    permissions a plainly created file gets (0644 under the usual umask 022; a temporary file
    is created 0600)."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(descriptor, 0o666 & ~_umask())
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    finally:
        Path(temporary).unlink(missing_ok=True)
