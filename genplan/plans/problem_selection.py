"""Evaluation problems chosen other than the default generated set, labelled with optimal lengths.

* ``--problems by-length:4,8,12 --per-length 2``: problems grouped by optimal plan length.
* ``--problems small --n 30``: problems drawn like the domain's training problems (seed 004's
  Logistics and Grippers problems, Figure 5, are of that size; the default evaluation problems
  of Silver et al. are far larger), each labelled with its optimal length where the planner
  finds one in time.

SymPlanner (Xiong et al., Table 1) reports success on PlanBench Blocksworld by optimal plan length
(2, 4, ..., 12 steps, 20 instances each); seed 004 (Gonzalez-Pumariaga et al., Sec. 4.1) measures
optimality against the optimal length. A problem set of this kind is drawn from a seeded stream
of candidates per length, each labelled with its optimal length by Fast Downward's A* with LM-cut
(:mod:`genplan.plans.optimal`, cached per problem), keeping the first ``per_length`` candidates
whose optimal length is the one wanted.

Candidate ``i`` for length ``L`` gets its own ``random.Random`` seeded from
``"<domain>/by-length/<seed>/<L>/<i>"`` and is drawn by the generator's ``generate_for_length(rng,
L, name)`` when it has one (Blocksworld sizes the problem for ``L``), else by its training-sized
``generate_problem``; so the same seed gives the same problems on every machine, and asking for
more per length keeps the first ones. Files are named after their candidate
(``by-length/len04-c007.pddl``) and ``by-length/labels.json`` lists their optimal lengths.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import threading
from dataclasses import dataclass
from pathlib import Path

from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_file, builtin_domain_names
from genplan.pddl.domain import Domain, load_domain
from genplan.pddl.generate import load_generator
from genplan.pddl.problem import Problem, bind_problem
from genplan.pddl.problem_data import ProblemData
from genplan.pddl.problem_sets import DomainProblems, load_domain_problems
from genplan.plans.optimal import optimal_plan

PREFIX = "by-length:"
FOLDER = "by-length"
SMALL = "small"


@dataclass(frozen=True)
class LengthSelection:
    """Which problems: ``per_length`` problems of each optimal plan length in ``lengths``.

    Attributes:
        lengths: optimal plan lengths wanted, in the order the problems are listed.
        per_length: problems per length (SymPlanner's Table 1 has 20).
    """

    lengths: tuple[int, ...]
    per_length: int = 20

    @classmethod
    def parse(cls, spec: str, per_length: int = 20) -> LengthSelection:
        """Read ``"by-length:4,8,12"``.

        Raises:
            ConfigurationError: not of that form, a length below 1, or ``per_length`` below 1.
        """
        if not spec.startswith(PREFIX):
            raise ConfigurationError(
                f"--problems {spec!r}: expected by-length:L1,L2,... (e.g. by-length:4,8,12)"
            )
        try:
            lengths = tuple(int(part) for part in spec[len(PREFIX) :].split(",") if part.strip())
        except ValueError as error:
            raise ConfigurationError(
                f"--problems {spec!r}: lengths must be integers, e.g. by-length:4,8,12"
            ) from error
        if not lengths or min(lengths) < 1 or len(set(lengths)) != len(lengths):
            raise ConfigurationError(f"--problems {spec!r}: give distinct lengths of at least 1")
        if per_length < 1:
            raise ConfigurationError(f"--per-length must be at least 1, got {per_length}")
        return cls(lengths, per_length)

    def describe(self) -> str:
        """``"by-length:4,8,12 x2"`` (recorded with the run)."""
        return f"{PREFIX}{','.join(map(str, self.lengths))} x{self.per_length}"

    def slug(self) -> str:
        """A folder-safe name, ``"by-length-4-8-12-x2"``."""
        return "by-length-" + "-".join(map(str, self.lengths)) + f"-x{self.per_length}"


@dataclass(frozen=True)
class SmallSelection:
    """``count`` problems of the training distribution, drawn apart from the training problems."""

    count: int = 30

    def describe(self) -> str:
        """``"small x30"`` (recorded with the run)."""
        return f"{SMALL} x{self.count}"

    def slug(self) -> str:
        """A folder-safe name, ``"small-x30"``."""
        return f"{SMALL}-x{self.count}"


Selection = LengthSelection | SmallSelection


def parse_selection(spec: str, *, per_length: int = 20, count: int = 30) -> Selection:
    """Read ``--problems``: ``by-length:L1,L2,...`` (``per_length`` each) or ``small`` (``count``).

    Raises:
        ConfigurationError: neither form, or bad numbers.
    """
    if spec == SMALL:
        if count < 1:
            raise ConfigurationError(f"--n must be at least 1, got {count}")
        return SmallSelection(count)
    if not spec.startswith(PREFIX):
        raise ConfigurationError(
            f"--problems {spec!r}: expected by-length:L1,L2,... (e.g. by-length:4,8,12) or small"
        )
    return LengthSelection.parse(spec, per_length)


def _bound(data: ProblemData, domain: Domain, path: Path) -> Problem:
    """Write a generated problem to ``path`` (for inspection and for Fast Downward; untouched when
    the bytes are already there) and bind the data to the parsed domain, without parsing text."""
    text = data.to_pddl()
    if not path.is_file() or path.read_text() != text:
        _write_atomically(path, text)
    return bind_problem(data, domain, path)


def _write_atomically(path: Path, text: str) -> None:
    """Write ``path`` through a temporary file and a rename, so another run choosing the same
    problems at the same time never reads a half-written file."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


def select_by_length(
    domain: str,
    seed: int,
    selection: LengthSelection,
    folder: Path,
    *,
    cache_dir: Path | None = None,
    timeout: float = 60.0,
    max_candidates: int | None = None,
) -> list[tuple[Path, int]]:
    """Write the problems of ``selection`` into ``folder``; return ``(file, optimal length)`` pairs,
    lengths in the order given, candidates in stream order.

    Args:
        domain: a built-in domain name.
        seed: the problem seed.
        selection: the lengths and how many of each.
        folder: where the files and ``labels.json`` go.
        cache_dir: the optimal-plan cache (see :func:`genplan.plans.optimal.optimal_plan`).
        timeout: planner seconds per candidate; a candidate without a plan in time is skipped.
        max_candidates: candidates tried per length before giving up (default ``100 +
            60 * per_length``).

    Raises:
        ConfigurationError: not a built-in domain, Fast Downward missing, or too few candidates
            of some length (the message says how many were found).
    """
    generator = load_generator(domain)
    parsed_domain = load_domain(builtin_domain_file(domain))
    limit = max_candidates if max_candidates is not None else 100 + 60 * selection.per_length
    folder.mkdir(parents=True, exist_ok=True)
    chosen: list[tuple[Path, int]] = []
    for length in selection.lengths:
        found = 0
        for index in range(limit):
            if found == selection.per_length:
                break
            rng = random.Random(f"{domain}/by-length/{seed}/{length}/{index}")
            stem = f"len{length:02d}-c{index:03d}"
            name = f"{domain}-{stem}"
            if hasattr(generator, "generate_for_length"):
                data = generator.generate_for_length(rng, length, name)
            else:
                data = generator.generate_problem(rng, "train", name)
            path = folder / f"{stem}.pddl"
            problem = _bound(data, parsed_domain, path)
            answer = optimal_plan(problem, cache_dir=cache_dir, timeout=timeout)
            if answer.length == length:
                chosen.append((path, length))
                found += 1
            else:
                path.unlink(missing_ok=True)  # another run may have dropped it already
        if found < selection.per_length:
            raise ConfigurationError(
                f"only {found} of {selection.per_length} {domain} problems of optimal length {length} among "
                f"{limit} candidates (seed {seed}); ask for fewer or for other lengths"
            )
    labels = {path.name: length for path, length in chosen}
    _write_atomically(folder / "labels.json", json.dumps(labels, indent=2) + "\n")
    return chosen


def select_small(
    domain: str,
    seed: int,
    selection: SmallSelection,
    folder: Path,
    *,
    cache_dir: Path | None = None,
    timeout: float = 60.0,
) -> list[tuple[Path, int | None]]:
    """Write ``selection.count`` training-sized problems into ``folder`` (``small-00.pddl``, ...;
    problem ``i`` seeded by ``"<domain>/small/<seed>/<i>"``); return ``(file, optimal length or
    None)`` pairs, ``None`` where the planner found no plan within ``timeout`` seconds.

    Raises:
        ConfigurationError: not a built-in domain, or Fast Downward missing.
    """
    generator = load_generator(domain)
    parsed_domain = load_domain(builtin_domain_file(domain))
    folder.mkdir(parents=True, exist_ok=True)
    chosen: list[tuple[Path, int | None]] = []
    for index in range(selection.count):
        rng = random.Random(f"{domain}/{SMALL}/{seed}/{index}")
        name = f"{domain}-{SMALL}-{index:02d}"
        path = folder / f"{SMALL}-{index:02d}.pddl"
        problem = _bound(generator.generate_problem(rng, "train", name), parsed_domain, path)
        answer = optimal_plan(problem, cache_dir=cache_dir, timeout=timeout)
        chosen.append((path, answer.length))
    labels = {path.name: length for path, length in chosen}
    _write_atomically(folder / "labels.json", json.dumps(labels, indent=2) + "\n")
    return chosen


def load_selected_problems(
    domain: str,
    seed: int,
    selection: Selection,
    work_folder: Path,
    *,
    size_check: bool = False,
    cache_dir: Path | None = None,
    timeout: float = 60.0,
) -> DomainProblems:
    """A built-in domain's problems with the evaluation problems of ``selection``.

    Training problems are the domain's usual ones (approaches that learn from training problems
    need them); evaluation problems are those of :func:`select_by_length` or
    :func:`select_small`, written under ``work_folder/problems/<domain>/seed<S>/<by-length|small>/``
    and keyed ``<by-length|small>/<file>``, with their optimal lengths (where known) in
    :attr:`~genplan.pddl.problem_sets.DomainProblems.optimal_lengths`.

    Raises:
        ConfigurationError: as :func:`select_by_length`; also for a domain that is not built in.
    """
    if domain not in builtin_domain_names():
        raise ConfigurationError(
            f"--problems {selection.describe().split()[0]} needs a built-in domain with a generator "
            f"({', '.join(builtin_domain_names())}); got {domain!r}"
        )
    base = load_domain_problems(domain, seed, 0, work_folder, size_check=size_check)
    assert base.root is not None
    chosen: list[tuple[Path, int | None]]
    if isinstance(selection, LengthSelection):
        subfolder = FOLDER
        chosen = list(
            select_by_length(
                domain, seed, selection, base.root / FOLDER, cache_dir=cache_dir, timeout=timeout
            )
        )
    else:
        subfolder = SMALL
        chosen = select_small(
            domain, seed, selection, base.root / SMALL, cache_dir=cache_dir, timeout=timeout
        )
    return dataclasses.replace(
        base,
        evaluation_sources=tuple(path for path, _ in chosen),
        selection=selection.describe(),
        optimal_lengths={f"{subfolder}/{path.name}": length for path, length in chosen if length is not None},
    )


def load_problems_by_length(
    domain: str,
    seed: int,
    selection: LengthSelection,
    work_folder: Path,
    *,
    size_check: bool = False,
    cache_dir: Path | None = None,
    timeout: float = 60.0,
) -> DomainProblems:
    """:func:`load_selected_problems` for a :class:`LengthSelection`."""
    return load_selected_problems(
        domain, seed, selection, work_folder, size_check=size_check, cache_dir=cache_dir, timeout=timeout
    )
