"""Seeded training and evaluation problems for the built-in domains.

Each problem gets its own ``random.Random`` seeded from the string
``"<domain>/<split>/<seed>/<index>/<scale>"``, so the same seed gives byte-identical PDDL on
every machine and problem ``k`` does not depend on how many are asked for. Training problems
are sorted smallest first (objects, then initial atoms), so the two shown in the prompt are
the smallest (Silver et al. 2024, Sec. 4.1).
"""

from __future__ import annotations

import importlib.util
import os
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_names, data_folder

SPLITS = ("train", "eval", "check")
"""``check``: one evaluation-sized problem, drawn apart from the evaluation problems, that the
training check runs last, so a correct but slow program (heavy's O(n^4) sort, which passes
3-10 items and times out on 100-250) is caught during debugging (shared/domains.md)."""


@dataclass(frozen=True)
class GeneratedProblem:
    """A generated problem: its file name (e.g. ``train-00.pddl``) and PDDL text."""

    file_name: str
    text: str


_GENERATORS: dict[str, ModuleType] = {}


def load_generator(domain: str) -> ModuleType:
    """The generator module ``generators/<domain>.py``.

    Raises:
        ConfigurationError: no generator for ``domain``; the message lists the known ones.
    """
    if domain in _GENERATORS:
        return _GENERATORS[domain]
    path = data_folder("generators") / f"{domain}.py"
    if domain not in builtin_domain_names() or not path.is_file():
        raise ConfigurationError(
            f"no generator for domain {domain!r}; built-in domains: {', '.join(builtin_domain_names())}"
        )
    spec = importlib.util.spec_from_file_location(f"genplan_generators_{domain}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _GENERATORS[domain] = module
    return module


def _size(text: str) -> tuple[int, int]:
    objects = text.split("(:objects", 1)[1].split("(:init", 1)[0]
    init = text.split("(:init", 1)[1].split("(:goal", 1)[0]
    return len([w for w in objects.split() if w not in {"-", ")"}]), init.count("(")


def generate_problems(
    domain: str, split: str, seed: int, n: int | None = None, scale: int = 1
) -> list[GeneratedProblem]:
    """Generate ``n`` problems (default: the domain's training or evaluation count).

    Args:
        domain: a built-in domain name.
        split: ``"train"``, ``"eval"`` or ``"check"`` (see :data:`SPLITS`).
        seed: the seed; the same seed gives identical problems.
        n: how many; ``None`` for the paper's count (10 training, delivery 5; 30 evaluation; 1 check).
        scale: size multiplier for evaluation problems (runtime-versus-size studies, Figure 3);
            each generator documents which dimensions it multiplies.

    Raises:
        ConfigurationError: unknown domain or split, or a scale below 1.
    """
    if split not in SPLITS:
        raise ConfigurationError(f"unknown split {split!r}; use train or eval")
    if scale < 1:
        raise ConfigurationError(f"scale must be at least 1, got {scale}")
    generator = load_generator(domain)
    count = (
        n
        if n is not None
        else {"train": generator.TRAIN_COUNT, "eval": generator.EVAL_COUNT, "check": 1}[split]
    )
    prefix = split if scale == 1 else f"{split}-x{scale}"
    texts = []
    for index in range(count):
        rng = random.Random(f"{domain}/{split}/{seed}/{index}/{scale}")
        size = "eval" if split == "check" else split
        texts.append(generator.generate_problem(rng, size, f"{domain}-{prefix}-{index:02d}", scale))
    if split == "train":
        order = sorted(range(count), key=lambda i: (_size(texts[i]), i))
        texts = [
            texts[i].replace(
                f"(problem {domain}-{prefix}-{i:02d})", f"(problem {domain}-{prefix}-{rank:02d})", 1
            )
            for rank, i in enumerate(order)
        ]
    return [GeneratedProblem(f"{prefix}-{index:02d}.pddl", text) for index, text in enumerate(texts)]


def write_problems(
    domain: str, split: str, seed: int, out: Path, n: int | None = None, scale: int = 1
) -> list[Path]:
    """Generate problems (see :func:`generate_problems`) into folder ``out``; return the paths.

    Files whose content is already identical are left untouched (so parsed problems stay cached).
    A file is written beside its place and renamed into it, so a reader (another process
    generating the same problems, an interrupted run) never sees it half-written.
    """
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for problem in generate_problems(domain, split, seed, n, scale):
        path = out / problem.file_name
        if not path.is_file() or path.read_text() != problem.text:
            descriptor, temporary = tempfile.mkstemp(dir=out, prefix=f".{problem.file_name}.", suffix=".tmp")
            try:
                with os.fdopen(descriptor, "w") as stream:
                    stream.write(problem.text)
                os.replace(temporary, path)
            finally:
                Path(temporary).unlink(missing_ok=True)
        paths.append(path)
    return paths
