"""Problem sets shipped in a built-in domain's folder (``--problems planbench``, ``planbench-hard``).

Each set is a folder ``domains/<domain>/<set>/`` holding the set's own ``domain.pddl``, its
problem files and the license notice of their source (``LICENSE``). genplan ships PlanBench's
(Valmeekam et al., NeurIPS 2023 Datasets and Benchmarks; MIT):

* ``blocksworld/planbench/``: the 501 problems of PlanBench's plan-generation task;
* ``blocksworld/planbench-hard/``: the 110 larger problems of "Blocksworld Hard";
* ``logistics/planbench/``: the 286 problems of PlanBench's Logistics, whose domain is its own
  untyped STRIPS Logistics (type predicates such as ``(TRUCK ?t)``), not genplan's typed one.

Problems are listed in file order (``instance-1``, ``instance-2``, ... ``instance-501``, by the
numbers' value) and keyed in records ``<set>/<file>`` (``planbench/instance-7.pddl``).

A set whose domain equals the built-in one (same predicates, operators and types: PlanBench's
Blocksworld is genplan's built-in blocksworld, ``tests/pddl/test_shipped_sets.py``) keeps the
domain's generated training problems, as ``--problems paper`` does. A set that brings its own
domain (PlanBench's Logistics) is self-contained: its training problems are its
:data:`~genplan.pddl.problem_sets.DEFAULT_TRAINING` smallest files (by size), as for a folder of
problems, and they are also among its evaluation problems.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_file, data_folder
from genplan.pddl.domain import Domain, load_domain
from genplan.pddl.generate import CURRENT_GENERATORS
from genplan.pddl.problem import load_problem
from genplan.pddl.problem_sets import DEFAULT_TRAINING, DomainProblems, load_domain_problems, natural_key

SHIPPED_SETS = ("planbench", "planbench-hard")
"""Names a shipped set may have (``--problems NAME``); which domains have which: :func:`available_sets`."""


def available_sets(domain: str) -> list[str]:
    """The shipped sets of built-in ``domain``, e.g. ``["planbench", "planbench-hard"]`` for blocksworld."""
    folder = data_folder("domains") / domain
    return [name for name in SHIPPED_SETS if (folder / name / "domain.pddl").is_file()]


def shipped_folder(domain: str, name: str) -> Path:
    """``domains/<domain>/<name>/``.

    Raises:
        ConfigurationError: ``domain`` has no such set (the message lists the domains that do).
    """
    folder = data_folder("domains") / domain / name
    if not (folder / "domain.pddl").is_file():
        having = sorted(p.parent.parent.name for p in data_folder("domains").glob(f"*/{name}/domain.pddl"))
        raise ConfigurationError(
            f"--problems {name}: {domain!r} has no such problem set; "
            f"{', '.join(having) or 'no built-in domain'} {'has' if len(having) == 1 else 'have'} one"
        )
    return folder


@functools.cache
def _set_domain(folder: Path) -> Domain:
    return load_domain(folder / "domain.pddl")


def shipped_problem_files(domain: str, name: str) -> tuple[list[Path], Domain]:
    """The set's problem files in file order, with its parsed domain.

    Raises:
        ConfigurationError: as :func:`shipped_folder`.
        PddlError: a malformed domain file (an incomplete installation).
    """
    folder = shipped_folder(domain, name)
    files = sorted((p for p in folder.glob("*.pddl") if p.name != "domain.pddl"), key=natural_key)
    return files, _set_domain(folder)


def brings_own_domain(domain: str, name: str) -> bool:
    """Whether the set's domain differs from built-in ``domain``'s (in predicates, operators,
    types, constants or requirements; names and comments aside)."""
    _, own = shipped_problem_files(domain, name)
    return dataclasses.replace(own, name="") != dataclasses.replace(
        load_domain(builtin_domain_file(domain)), name=""
    )


def load_shipped_set(
    domain: str,
    name: str,
    seed: int,
    work_folder: Path,
    *,
    label: str,
    count: int | None = None,
    files: list[Path] | None = None,
    size_check: bool = False,
    generators: str = CURRENT_GENERATORS,
) -> DomainProblems:
    """Built-in ``domain`` with the shipped set ``name`` as its evaluation problems.

    Args:
        domain, name: the built-in domain and the set (``planbench``).
        seed, work_folder, size_check, generators: for the generated training problems (when the
            set's domain is the built-in one).
        label: the selection as records name it (``"planbench x50"``).
        count: the first ``count`` files (all when ``None``); ignored when ``files`` is given.
        files: the evaluation files to take (a subset of the set's, e.g. chosen by length).

    Raises:
        ConfigurationError: as :func:`shipped_folder`.
        PddlError: a malformed file.
    """
    every, own = shipped_problem_files(domain, name)
    chosen = tuple(files if files is not None else every[:count])
    root = data_folder("domains") / domain
    if not brings_own_domain(domain, name):
        base = load_domain_problems(
            domain, seed, 0, work_folder, size_check=size_check, generators=generators
        )
        return dataclasses.replace(
            base, evaluation_sources=chosen, selection=label, root=root, evaluation_domain=own
        )
    smallest = sorted(every, key=lambda p: (p.stat().st_size, natural_key(p)))[:DEFAULT_TRAINING]
    training = tuple(
        sorted(
            (load_problem(path, own) for path in smallest),
            key=lambda p: (len(p.object_types), len(p.init)),
        )
    )
    return DomainProblems(domain, own, training, chosen, (), root, selection=label)
