"""Evaluation problems chosen other than the default generated set: ``--problems SET``.

``--problems`` is read once, after argparse, by :func:`parse_selection` into one of the typed
selections below, which then travels as an object through ``genplan run``, ``synthesize``,
``evaluate`` and every cell of the experiment grid.

* ``--problems paper``: the paper's own evaluation problems (Silver et al. 2024; seed 0, 30 per
  domain, shipped with genplan: :mod:`genplan.pddl.paper_problems`), so fractions solved are
  comparable with its Table 1; ``--n`` takes the first ``n``.
* ``--problems planbench`` / ``planbench-hard``: a problem set shipped in the domain's folder
  (``domains/<domain>/<set>/``: PlanBench's Blocksworld, 501 problems, and Blocksworld Hard, 110,
  for ``blocksworld``; PlanBench's Logistics, 286, for ``logistics``; see
  :mod:`genplan.pddl.shipped_sets`); ``--n`` takes the first ``n`` in file order.
* ``--problems by-length:4,8,12 --per-length 2``: generated problems grouped by optimal plan length.
* ``--problems planbench:by-length:2,4,6,8,10,12 --per-length 20``: the first ``per_length``
  problems of a shipped set, in file order (``instance-1``, ``instance-2``, ...), of each optimal
  plan length (SymPlanner's Table 1 protocol).
* ``--problems small --n 30``: problems drawn like the domain's training problems (Gonzalez-Pumariaga et al.'s
  Logistics and Grippers problems, Figure 5, are of that size; the default evaluation problems
  of Silver et al. are far larger), each labelled with its optimal length where the planner
  finds one in time.

Optimal plan lengths come from a :data:`Labeller` the caller injects (genplan's is Fast
Downward's A* with LM-cut, cached per problem: :class:`genplan.plans.optimal.OptimalLengths`),
so this module never imports the planner stage above it.

Training problems stay the domain's generated ones whatever the selection, except for a
shipped set whose domain is not the built-in one (PlanBench's untyped Logistics): it brings its
own domain, and its training problems are its own smallest (see
:func:`genplan.pddl.shipped_sets.load_shipped_set`).

SymPlanner (Xiong et al., Table 1) reports success on PlanBench Blocksworld by optimal plan length
(2, 4, ..., 12 steps, 20 instances each); Gonzalez-Pumariaga et al. (Sec. 4.1) measures
optimality against the optimal length. A generated problem set of this kind is drawn from a seeded
stream of candidates per length, each labelled with its optimal length, keeping the first
``per_length`` candidates whose optimal length is the one wanted.

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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from genplan.errors import ConfigurationError
from genplan.paths import builtin_domain_file, builtin_domain_names, data_folder
from genplan.pddl.described import ENGLISH, DescribedTask
from genplan.pddl.domain import Domain, load_domain
from genplan.pddl.generate import CURRENT_GENERATORS, load_generator
from genplan.pddl.paper_problems import PAPER_COUNT, paper_domain, paper_problem_files
from genplan.pddl.problem import Problem, bind_problem, load_problem
from genplan.pddl.problem_data import ProblemData
from genplan.pddl.problem_sets import DomainProblems, described_folder, load_domain_problems, load_problems
from genplan.pddl.shipped_sets import SHIPPED_SETS, load_shipped_set, shipped_problem_files

PREFIX = "by-length:"
FOLDER = "by-length"
SMALL = "small"
PAPER = "paper"
GENERATED = "generated"
PER_LENGTH = 20
"""Problems per optimal plan length for ``by-length`` when not given (``--per-length``)."""

Labeller = Callable[[Problem], "int | None"]
"""The optimal plan length of a problem, or ``None`` when none was found in time; genplan's is
:class:`genplan.plans.optimal.OptimalLengths` (Fast Downward's A* with LM-cut, cached)."""


@dataclass(frozen=True)
class LengthSelection:
    """Which problems: ``per_length`` problems of each optimal plan length in ``lengths``.

    Attributes:
        lengths: optimal plan lengths wanted, in the order the problems are listed.
        per_length: problems per length (SymPlanner's Table 1 has 20).
        source: where the candidates come from: ``"generated"`` (the domain's generator, a
            seeded stream) or a shipped set (``"planbench"``, ``"planbench-hard"``; its files in
            order).
    """

    lengths: tuple[int, ...]
    per_length: int = PER_LENGTH
    source: str = GENERATED

    @classmethod
    def parse(cls, spec: str, per_length: int = PER_LENGTH, source: str = GENERATED) -> LengthSelection:
        """Read ``"by-length:4,8,12"`` (without the shipped set's prefix).

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
        return cls(lengths, per_length, source)

    def covers(self, other: Selection) -> bool:
        """Whether every problem ``other`` chooses is among this selection's: the same source,
        its lengths among these, and no more per length (the first ``per_length`` of each length
        are kept, so a smaller selection is a prefix of a larger one)."""
        return (
            isinstance(other, LengthSelection)
            and other.source == self.source
            and set(other.lengths) <= set(self.lengths)
            and other.per_length <= self.per_length
        )

    def _prefix(self) -> str:
        return "" if self.source == GENERATED else f"{self.source}:"

    def _spec(self) -> str:
        return f"{self._prefix()}{PREFIX}{','.join(map(str, self.lengths))}"

    def describe(self) -> str:
        """``"by-length:4,8,12 x2"``, ``"planbench:by-length:2,4 x20"`` (recorded with the run)."""
        return f"{self._spec()} x{self.per_length}"

    def arguments(self) -> list[str]:
        """The command-line arguments that choose this selection (:func:`parse_selection`'s
        inverse): ``["--problems", "by-length:4,8,12", "--per-length", "2"]``."""
        return ["--problems", self._spec(), "--per-length", str(self.per_length)]

    def slug(self) -> str:
        """A folder-safe name, ``"by-length-4-8-12-x2"``, ``"planbench-by-length-2-4-x20"``."""
        prefix = "" if self.source == GENERATED else f"{self.source}-"
        return prefix + "by-length-" + "-".join(map(str, self.lengths)) + f"-x{self.per_length}"


@dataclass(frozen=True)
class SmallSelection:
    """``count`` problems of the training distribution, drawn apart from the training problems."""

    count: int = 30

    @property
    def source(self) -> str:
        """Where the problems come from: ``generated`` (drawn by genplan's generators)."""
        return GENERATED

    def covers(self, other: Selection) -> bool:
        """Whether every problem ``other`` chooses is among this selection's (only the same one:
        the draw is not known to keep its first problems as the count grows)."""
        return other == self

    def describe(self) -> str:
        """``"small x30"`` (recorded with the run)."""
        return f"{SMALL} x{self.count}"

    def arguments(self) -> list[str]:
        """The command-line arguments that choose this selection: ``["--problems", "small", "--n", "30"]``."""
        return ["--problems", SMALL, "--n", str(self.count)]

    def slug(self) -> str:
        """A folder-safe name, ``"small-x30"``."""
        return f"{SMALL}-x{self.count}"


@dataclass(frozen=True)
class PaperSelection:
    """The first ``count`` of the paper's evaluation problems of seed 0 (all 30 by default)."""

    count: int = PAPER_COUNT

    @property
    def source(self) -> str:
        """Where the problems come from: ``paper`` (the paper's files, shipped with genplan)."""
        return PAPER

    def covers(self, other: Selection) -> bool:
        """Whether every problem ``other`` chooses is among this selection's (its first ones)."""
        return isinstance(other, PaperSelection) and other.count <= self.count

    def describe(self) -> str:
        """``"paper"`` for all of them, ``"paper x10"`` for the first 10 (recorded with the run)."""
        return PAPER if self.count >= PAPER_COUNT else f"{PAPER} x{self.count}"

    def arguments(self) -> list[str]:
        """The command-line arguments that choose this selection: ``["--problems", "paper"]``,
        with ``["--n", "10"]`` after for the first 10."""
        return ["--problems", PAPER] + ([] if self.count >= PAPER_COUNT else ["--n", str(self.count)])

    def slug(self) -> str:
        """A folder-safe name, ``"paper"`` or ``"paper-x10"``."""
        return self.describe().replace(" ", "-")


@dataclass(frozen=True)
class SetSelection:
    """The first ``count`` problems (all when ``None``) of a shipped problem set, in file order.

    Attributes:
        name: the set's name (:data:`genplan.pddl.shipped_sets.SHIPPED_SETS`), e.g. ``"planbench"``.
        count: how many, or ``None`` for all.
    """

    name: str
    count: int | None = None

    @property
    def source(self) -> str:
        """Where the problems come from: the shipped set (``planbench``, ...)."""
        return self.name

    def covers(self, other: Selection) -> bool:
        """Whether every problem ``other`` chooses is among this selection's (the same set, its
        first ones)."""
        if not isinstance(other, SetSelection) or other.name != self.name:
            return False
        return self.count is None or (other.count is not None and other.count <= self.count)

    def describe(self) -> str:
        """``"planbench"`` for all, ``"planbench x50"`` for the first 50 (recorded with the run)."""
        return self.name if self.count is None else f"{self.name} x{self.count}"

    def arguments(self) -> list[str]:
        """The command-line arguments that choose this selection: ``["--problems", "planbench"]``,
        with ``["--n", "50"]`` after for the first 50."""
        return ["--problems", self.name] + ([] if self.count is None else ["--n", str(self.count)])

    def slug(self) -> str:
        """A folder-safe name, ``"planbench"`` or ``"planbench-x50"``."""
        return self.describe().replace(" ", "-")


Selection = LengthSelection | SmallSelection | PaperSelection | SetSelection


def parse_selection(spec: str, *, per_length: int = PER_LENGTH, count: int | None = None) -> Selection:
    """Read ``--problems`` (once, after argparse): ``paper`` (the first ``count``, default all
    30), ``planbench`` / ``planbench-hard`` (the first ``count``, default all),
    ``by-length:L1,L2,...`` (``per_length`` generated problems each),
    ``SET:by-length:L1,L2,...`` (``per_length`` problems each of a shipped set) or ``small``
    (``count``, default 30).

    Raises:
        ConfigurationError: none of these forms, or bad numbers (the message lists the forms).
    """
    if count is not None and count < 1:
        raise ConfigurationError(f"--n must be at least 1 with --problems {spec}, got {count}")
    if spec == SMALL:
        return SmallSelection(30 if count is None else count)
    if spec == PAPER:
        return PaperSelection(PAPER_COUNT if count is None else count)
    if spec in SHIPPED_SETS:
        return SetSelection(spec, count)
    source, colon, rest = spec.partition(":")
    if colon and source in SHIPPED_SETS:
        try:
            return LengthSelection.parse(rest, per_length, source)
        except ConfigurationError as error:
            raise ConfigurationError(
                f"{error}; after {source}: (e.g. {source}:by-length:2,4,6,8,10,12)"
            ) from error
    if not spec.startswith(PREFIX):
        raise ConfigurationError(
            f"--problems {spec!r}: expected paper, small, {', '.join(SHIPPED_SETS)}, by-length:L1,L2,... "
            f"(e.g. by-length:4,8,12) or SET:by-length:L1,L2,... (e.g. planbench:by-length:2,4,6,8,10,12)"
        )
    return LengthSelection.parse(spec, per_length)


def shipped(selection: Selection | None) -> bool:
    """Whether ``selection``'s evaluation problems are files shipped with genplan (the paper's,
    PlanBench's), which owe nothing to genplan's generators; ``False`` for generated problems."""
    return selection is not None and selection.source != GENERATED


def recorded_source(problem_set: str | None) -> str | None:
    """Where the evaluation problems of a record's ``problem_set`` (``describe()``'s form) come
    from, read off its form without parsing it again: ``paper``, a shipped set's name
    (``planbench``, ``planbench-hard``), ``generated`` (generated problems, ``by-length``,
    ``small``), or ``None`` for a folder, a task in English or no record."""
    if problem_set is None or problem_set in ("folder", ENGLISH):
        return None
    head = problem_set.partition(" x")[0].partition(":")[0]
    return head if head == PAPER or head in SHIPPED_SETS else GENERATED


def describe_problem_set(problem_set: str | None, generators: str | None) -> str:
    """A record's problem set for a person: ``generated (generators v2)``, ``paper (the paper's
    seed-0 evaluation problems; training problems from generators v2)``, ``planbench
    (PlanBench's problems, shipped with genplan)``, ``not recorded`` for records made before
    runs kept it."""
    made = f"generators {generators}" if generators else None
    if problem_set is None:
        return "not recorded"
    if problem_set == GENERATED:
        return f"generated ({made})"
    if problem_set == ENGLISH:
        return "a task in English"
    source = recorded_source(problem_set)
    training = f"; training problems from {made}" if made else ""
    if source == PAPER:
        return f"{problem_set} (the paper's seed-0 evaluation problems{training})"
    if source in SHIPPED_SETS:
        return f"{problem_set} (PlanBench's problems, shipped with genplan{training})"
    return f"{problem_set} ({made})" if made else problem_set


def recorded_selection(problem_set: str | None) -> Selection | None:
    """The selection a run record's ``problem_set`` names (``describe()``'s form:
    ``"planbench:by-length:2,4 x10"``, ``"planbench x50"``, ``"paper"``, ``"small x30"``), or
    ``None`` for generated problems, a folder, a task in English or a form not read here."""
    if problem_set is None or problem_set in (GENERATED, "folder", ENGLISH):
        return None
    spec, _, count = problem_set.partition(" x")
    try:
        number = int(count) if count else None
        if PREFIX in spec:
            return parse_selection(spec, per_length=number or PER_LENGTH)
        return parse_selection(spec, count=number)
    except (ConfigurationError, ValueError):
        return None


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


def _required(labeller: Labeller | None, selection: Selection) -> Labeller:
    if labeller is None:
        raise ConfigurationError(
            f"--problems {selection.describe()} needs optimal plan lengths, and no labeller was given"
        )
    return labeller


def select_by_length(
    domain: str,
    seed: int,
    selection: LengthSelection,
    folder: Path,
    labeller: Labeller,
    *,
    max_candidates: int | None = None,
    generators: str = CURRENT_GENERATORS,
) -> list[tuple[Path, int]]:
    """Write the generated problems of ``selection`` into ``folder``; return ``(file, optimal
    length)`` pairs, lengths in the order given, candidates in stream order.

    Args:
        domain: a built-in domain name.
        seed: the problem seed.
        selection: the lengths and how many of each.
        folder: where the files and ``labels.json`` go.
        labeller: gives each candidate's optimal plan length (``None``: none found in time,
            the candidate is skipped).
        max_candidates: candidates tried per length before giving up (default ``100 +
            60 * per_length``).
        generators: the generator version that draws the candidates.

    Raises:
        ConfigurationError: not a built-in domain, the labeller's planner missing, or too few
            candidates of some length (the message says how many were found).
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
            if labeller(problem) == length:
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


def select_shipped_by_length(
    domain: str, selection: LengthSelection, labeller: Labeller
) -> list[tuple[Path, int]]:
    """The first ``selection.per_length`` problems of each optimal length among the files of the
    shipped set ``selection.source`` of ``domain``, in file order (``instance-1``,
    ``instance-2``, ...; labelling stops once every length is full); ``(file, length)`` pairs,
    lengths in the order given.

    Raises:
        ConfigurationError: no such set for ``domain``, or fewer problems of some length than
            asked for (the message gives the count of each length found).
    """
    files, set_domain = shipped_problem_files(domain, selection.source)
    wanted = set(selection.lengths)
    found: dict[int, list[Path]] = {length: [] for length in selection.lengths}
    for path in files:
        if all(len(found[length]) >= selection.per_length for length in wanted):
            break
        length = labeller(load_problem(path, set_domain))
        if length in wanted and len(found[length]) < selection.per_length:
            found[length].append(path)
    short = {length: len(paths) for length, paths in found.items() if len(paths) < selection.per_length}
    if short:
        counts = ", ".join(f"length {length}: {count}" for length, count in short.items())
        raise ConfigurationError(
            f"--problems {selection.describe()}: {selection.source} has too few {domain} problems of these "
            f"optimal lengths ({counts}, among {len(files)}); ask for fewer per length or other lengths"
        )
    return [(path, length) for length in selection.lengths for path in found[length]]


def select_small(
    domain: str,
    seed: int,
    selection: SmallSelection,
    folder: Path,
    labeller: Labeller,
    *,
    generators: str = CURRENT_GENERATORS,
) -> list[tuple[Path, int | None]]:
    """Write ``selection.count`` training-sized problems into ``folder`` (``small-00.pddl``, ...;
    problem ``i`` seeded by ``"<domain>/small/<seed>/<i>"``, drawn by generator version
    ``generators``); return ``(file, optimal length or None)`` pairs, ``None`` where
    ``labeller`` found no plan in time.

    Raises:
        ConfigurationError: not a built-in domain, or the labeller's planner missing.
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
        chosen.append((path, labeller(problem)))
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
    labeller: Labeller | None = None,
    size_check: bool = False,
    generators: str = CURRENT_GENERATORS,
) -> DomainProblems | DescribedTask:
    """What a run takes: ``domain``'s problems (generated by ``generators``, ``n_eval`` evaluation
    problems) or the task in English it names when ``selection`` is ``None``; else the problems of
    ``selection`` (:func:`load_selected_problems`). One loader for ``genplan run`` and the
    experiment grid's cells.

    Raises:
        ConfigurationError, PddlError: a bad domain or selection, a selection of a task in
            English, or a selection that needs optimal lengths without a ``labeller``.
    """
    if selection is None:
        return load_problems(domain, seed, n_eval, work_folder, size_check=size_check, generators=generators)
    if described_folder(domain) is not None:
        raise ConfigurationError(f"--problems chooses PDDL problems; {domain} is a task in English")
    return load_selected_problems(
        domain, seed, selection, work_folder, labeller=labeller, size_check=size_check, generators=generators
    )


def load_selected_problems(
    domain: str,
    seed: int,
    selection: Selection,
    work_folder: Path,
    *,
    labeller: Labeller | None = None,
    size_check: bool = False,
    generators: str = CURRENT_GENERATORS,
) -> DomainProblems:
    """A built-in domain's problems with the evaluation problems of ``selection``.

    Training problems are the domain's usual ones, from generator version ``generators``
    (approaches that learn from training problems need them), unless a shipped set brings
    its own domain. Evaluation problems: for :class:`PaperSelection` the paper's files, read
    against the paper's domain file and keyed ``paper/seed0/<file>``; for :class:`SetSelection`
    the shipped set's files, keyed ``<set>/<file>`` (:func:`genplan.pddl.shipped_sets.load_shipped_set`);
    for a :class:`LengthSelection` of a shipped set the files :func:`select_shipped_by_length`
    picks; otherwise those of :func:`select_by_length` or :func:`select_small`, written under
    ``work_folder/problems/<domain>/seed<S>/<by-length|small>/`` and keyed
    ``<by-length|small>/<file>``. Optimal lengths (where known) are in
    :attr:`~genplan.pddl.problem_sets.DomainProblems.optimal_lengths`.

    Raises:
        ConfigurationError: as :func:`select_by_length`; also for a domain that is not built in
            (or, for ``paper``, not one of the paper's seven; for a shipped set, without that
            set), or a selection needing optimal lengths without a ``labeller``.
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
    if isinstance(selection, SetSelection):
        return load_shipped_set(
            domain,
            selection.name,
            seed,
            work_folder,
            count=selection.count,
            label=selection.describe(),
            size_check=size_check,
            generators=generators,
        )
    if isinstance(selection, LengthSelection) and selection.source != GENERATED:
        picked = select_shipped_by_length(domain, selection, _required(labeller, selection))
        loaded = load_shipped_set(
            domain,
            selection.source,
            seed,
            work_folder,
            files=[path for path, _ in picked],
            label=selection.describe(),
            size_check=size_check,
            generators=generators,
        )
        assert loaded.root is not None
        return dataclasses.replace(
            loaded,
            optimal_lengths={path.relative_to(loaded.root).as_posix(): length for path, length in picked},
        )
    labelled = _required(labeller, selection)
    base = load_domain_problems(domain, seed, 0, work_folder, size_check=size_check, generators=generators)
    assert base.root is not None
    chosen: list[tuple[Path, int | None]]
    if isinstance(selection, LengthSelection):
        subfolder = FOLDER
        chosen = list(
            select_by_length(domain, seed, selection, base.root / FOLDER, labelled, generators=generators)
        )
    else:
        subfolder = SMALL
        chosen = select_small(domain, seed, selection, base.root / SMALL, labelled, generators=generators)
    return dataclasses.replace(
        base,
        evaluation_sources=tuple(path for path, _ in chosen),
        selection=selection.describe(),
        optimal_lengths={f"{subfolder}/{path.name}": length for path, length in chosen if length is not None},
    )
