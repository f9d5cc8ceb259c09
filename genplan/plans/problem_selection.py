"""Evaluation problems chosen other than the default generated set: ``--problems SET``.

* ``--problems paper``: the paper's own evaluation problems (Silver et al. 2024; seed 0, 30 per
  domain, shipped with genplan: :mod:`genplan.pddl.paper_problems`), so fractions solved are
  comparable with its Table 1; ``--n`` takes the first ``n``.
* ``--problems by-length:4,8,12 --per-length 2``: problems grouped by optimal plan length.
* ``--problems small --n 30``: problems drawn like the domain's training problems (Gonzalez-Pumariaga et al.'s
  Logistics and Grippers problems, Figure 5, are of that size; the default evaluation problems
  of Silver et al. are far larger), each labelled with its optimal length where the planner
  finds one in time.

:func:`parse_selection` is the one reader of ``--problems`` (``genplan run``, ``synthesize``,
``evaluate`` and the experiment grid); :func:`load_selected_problems` loads any selection.
Training problems stay the domain's generated ones whatever the selection.

SymPlanner (Xiong et al., Table 1) reports success on PlanBench Blocksworld by optimal plan length
(2, 4, ..., 12 steps, 20 instances each); Gonzalez-Pumariaga et al. (Sec. 4.1) measures
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
from genplan.paths import builtin_domain_file, builtin_domain_names, data_folder
from genplan.pddl.described import DescribedTask
from genplan.pddl.domain import Domain, load_domain
from genplan.pddl.generate import CURRENT_GENERATORS, load_generator
from genplan.pddl.paper_problems import PAPER_COUNT, paper_domain, paper_problem_files
from genplan.pddl.problem import Problem, bind_problem
from genplan.pddl.problem_data import ProblemData
from genplan.pddl.problem_sets import DomainProblems, described_folder, load_domain_problems, load_problems
from genplan.plans.optimal import optimal_plan

PREFIX = "by-length:"
FOLDER = "by-length"
SMALL = "small"
PAPER = "paper"


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


@dataclass(frozen=True)
class PaperSelection:
    """The first ``count`` of the paper's evaluation problems of seed 0 (all 30 by default)."""

    count: int = PAPER_COUNT

    def describe(self) -> str:
        """``"paper"`` for all of them, ``"paper x10"`` for the first 10 (recorded with the run)."""
        return PAPER if self.count >= PAPER_COUNT else f"{PAPER} x{self.count}"

    def slug(self) -> str:
        """A folder-safe name, ``"paper"`` or ``"paper-x10"``."""
        return self.describe().replace(" ", "-")


Selection = LengthSelection | SmallSelection | PaperSelection


def parse_selection(spec: str, *, per_length: int = 20, count: int = 30) -> Selection:
    """Read ``--problems``: ``paper`` (the first ``count``), ``by-length:L1,L2,...``
    (``per_length`` each) or ``small`` (``count``).

    Raises:
        ConfigurationError: none of these forms, or bad numbers.
    """
    if spec in (SMALL, PAPER):
        if count < 1:
            raise ConfigurationError(f"--n must be at least 1, got {count}")
        return SmallSelection(count) if spec == SMALL else PaperSelection(count)
    if not spec.startswith(PREFIX):
        raise ConfigurationError(
            f"--problems {spec!r}: expected by-length:L1,L2,... (e.g. by-length:4,8,12), paper or small"
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
    generators: str = CURRENT_GENERATORS,
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
        generators: the generator version that draws the candidates.

    Raises:
        ConfigurationError: not a built-in domain, Fast Downward missing, or too few candidates
            of some length (the message says how many were found).
    """
    generator = load_generator(domain, generators)
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
    generators: str = CURRENT_GENERATORS,
) -> list[tuple[Path, int | None]]:
    """Write ``selection.count`` training-sized problems into ``folder`` (``small-00.pddl``, ...;
    problem ``i`` seeded by ``"<domain>/small/<seed>/<i>"``, drawn by generator version
    ``generators``); return ``(file, optimal length or None)`` pairs, ``None`` where the planner
    found no plan within ``timeout`` seconds.

    Raises:
        ConfigurationError: not a built-in domain, or Fast Downward missing.
    """
    generator = load_generator(domain, generators)
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


def load_chosen_problems(
    domain: str,
    seed: int,
    n_eval: int | None,
    selection: Selection | None,
    work_folder: Path,
    *,
    size_check: bool = False,
    generators: str = CURRENT_GENERATORS,
) -> DomainProblems | DescribedTask:
    """What a run takes: ``domain``'s problems (generated by ``generators``, ``n_eval`` evaluation
    problems) or the task in English it names when ``selection`` is ``None``; else the problems of
    ``selection`` (:func:`load_selected_problems`, optimal lengths cached under
    ``work_folder/cache/optimal``). One loader for ``genplan run`` and the experiment grid's cells.

    Raises:
        ConfigurationError, PddlError: a bad domain or selection, or a selection of a task in English.
    """
    if selection is None:
        return load_problems(domain, seed, n_eval, work_folder, size_check=size_check, generators=generators)
    if described_folder(domain) is not None:
        raise ConfigurationError(f"--problems chooses PDDL problems; {domain} is a task in English")
    return load_selected_problems(
        domain,
        seed,
        selection,
        work_folder,
        size_check=size_check,
        cache_dir=work_folder / "cache" / "optimal",
        generators=generators,
    )


def load_selected_problems(
    domain: str,
    seed: int,
    selection: Selection,
    work_folder: Path,
    *,
    size_check: bool = False,
    cache_dir: Path | None = None,
    timeout: float = 60.0,
    generators: str = CURRENT_GENERATORS,
) -> DomainProblems:
    """A built-in domain's problems with the evaluation problems of ``selection``.

    Training problems are the domain's usual ones, from generator version ``generators``
    (approaches that learn from training problems need them). Evaluation problems: for
    :class:`PaperSelection` the paper's files, read against the paper's domain file and keyed
    ``paper/seed0/<file>``; otherwise those of :func:`select_by_length` or :func:`select_small`,
    written under ``work_folder/problems/<domain>/seed<S>/<by-length|small>/`` and keyed
    ``<by-length|small>/<file>``, with their optimal lengths (where known) in
    :attr:`~genplan.pddl.problem_sets.DomainProblems.optimal_lengths`.

    Raises:
        ConfigurationError: as :func:`select_by_length`; also for a domain that is not built in
            (or, for ``paper``, not one of the paper's seven).
    """
    if domain not in builtin_domain_names():
        raise ConfigurationError(
            f"--problems {selection.describe().split()[0]} needs a built-in domain with a generator "
            f"({', '.join(builtin_domain_names())}); got {domain!r}"
        )
    if isinstance(selection, PaperSelection):
        files = paper_problem_files(domain)[: selection.count]  # first: a domain without them fails fast
        base = load_domain_problems(
            domain, seed, 0, work_folder, size_check=size_check, generators=generators
        )
        return dataclasses.replace(
            base,
            evaluation_sources=tuple(files),
            selection=selection.describe(),
            root=data_folder("domains") / domain,
            evaluation_domain=paper_domain(domain),
        )
    base = load_domain_problems(domain, seed, 0, work_folder, size_check=size_check, generators=generators)
    assert base.root is not None
    chosen: list[tuple[Path, int | None]]
    if isinstance(selection, LengthSelection):
        subfolder = FOLDER
        chosen = list(
            select_by_length(
                domain,
                seed,
                selection,
                base.root / FOLDER,
                cache_dir=cache_dir,
                timeout=timeout,
                generators=generators,
            )
        )
    else:
        subfolder = SMALL
        chosen = select_small(
            domain,
            seed,
            selection,
            base.root / SMALL,
            cache_dir=cache_dir,
            timeout=timeout,
            generators=generators,
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
