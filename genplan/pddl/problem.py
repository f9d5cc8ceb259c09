"""PDDL problems (tasks) as data: objects, initial state and goal as sets of tuples.

This is the representation the paper's ``get_plan(objects, init, goal)`` receives
(Silver et al. 2024, Sec. 4.1): ``objects`` is a set of ``(name, type)`` pairs, or of plain
names in untyped domains; ``init`` and ``goal`` are sets of ground atoms such as
``('at', 'ball1', 'rooma')``. Domain constants count as objects, as in VAL.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from itertools import chain
from operator import itemgetter
from pathlib import Path

from genplan.errors import PddlError
from genplan.pddl.domain import ROOT_TYPE, Atom, Domain, load_domain
from genplan.pddl.numeric import split_numeric
from genplan.pddl.problem_check import check_problem_tree
from genplan.pddl.problem_data import ProblemData, problem_to_pddl
from genplan.pddl.problem_reader import read_problem
from genplan.pddl.sexpr import read_expression
from genplan.pddl.text import add_missing_requirements, read_pddl_file, strip_comments_and_lower


@dataclass(frozen=True)
class Problem:
    """A PDDL problem together with its domain.

    Attributes:
        name: the problem's name, lower case.
        domain: the parsed :class:`~genplan.pddl.domain.Domain`.
        object_types: every object (domain constants included) mapped to its type
            (``"object"`` in untyped domains), sorted by name.
        init: ground atoms true in the initial state.
        goal: ground atoms that must hold at the end (a conjunction).
        source: the problem file, or ``None``.
        fluents: numeric initial values, ground function term -> number (``{("total-cost",):
            0.0, ("road-length", "c1", "c2"): 7.0}``); empty without action costs.
        minimize_total_cost: the problem's metric is ``(:metric minimize (total-cost))``, so a
            plan's cost is its total cost rather than its length.
        source_stamp: ``source``'s modification time (ns) and size (bytes) when this problem was
            read from it or bound to it, or ``None``: while the file still has them, plan
            checking hands VAL the file itself (:mod:`genplan.plans.val_files`).
    """

    name: str
    domain: Domain
    object_types: Mapping[str, str]
    init: frozenset[Atom]
    goal: frozenset[Atom]
    source: Path | None = field(default=None, compare=False)
    fluents: Mapping[Atom, float] = field(default_factory=dict, compare=False)
    minimize_total_cost: bool = False
    source_stamp: tuple[int, int] | None = field(default=None, compare=False, repr=False)

    def __hash__(self) -> int:
        return hash((self.name, self.domain, self.init, self.goal))

    @property
    def objects(self) -> frozenset[tuple[str, str]] | frozenset[str]:
        """``get_plan``'s ``objects``: ``(name, type)`` pairs, or plain names when untyped."""
        if self.domain.typed:
            return frozenset(self.object_types.items())
        return frozenset(self.object_types)

    def to_pddl(self) -> str:
        """The problem as PDDL text; sorted, so equal problems give identical text."""
        return problem_to_pddl(
            self.name,
            self.domain.name,
            {o: t for o, t in sorted(self.object_types.items()) if o not in self.domain.constants},
            self.init,
            self.goal,
            typed=self.domain.typed,
            fluents=self.fluents,
            minimize_total_cost=self.minimize_total_cost,
        )


def parse_problem_text(text: str, domain: Domain, source: Path | None = None) -> Problem:
    """Parse problem PDDL ``text`` against ``domain``.

    Problem files go through genplan's reader (:mod:`genplan.pddl.problem_reader`, about 30
    times faster than the library on the largest heavy problem, ``scripts/bench_load.py``); what
    it does not cover goes through the ``pddl`` library (:mod:`genplan.pddl.library`). Both give
    the same problem (``tests/pddl/test_pddl_fast.py``).

    Raises:
        PddlError: malformed PDDL, a problem for another domain, an object declared twice (or
            as a domain constant too), an undeclared object, predicate or type, or a wrong
            arity; names ``source`` and the line where known.
        UnsupportedPddl: a construct genplan does not model (:mod:`genplan.pddl.fragment`:
            a goal other than a conjunction of atoms, timed initial literals, ...).
    """
    normalised, fluents, minimize = split_numeric(strip_comments_and_lower(text), source)
    raw = read_problem(normalised)
    if raw is None:  # outside the fast path: checked against what genplan models, then the library
        from genplan.pddl.library import library_problem

        check_problem_tree(read_expression(normalised, source), source)
        normalised = add_missing_requirements(normalised)
        raw = library_problem(normalised, source)
    name, domain_name, objects, init, goal = raw
    problem = _checked_problem(name, domain_name, objects, init, goal, domain, source, normalised)
    if fluents or minimize:
        problem = replace(problem, fluents=fluents, minimize_total_cost=minimize)
    return problem


def bind_problem(data: ProblemData, domain: Domain, source: Path | None = None) -> Problem:
    """The :class:`Problem` of generated ``data`` against the parsed ``domain``, without text.

    Runs the same checks as parsing, so a generator bug surfaces as it would in a file.
    ``source`` is the file ``data`` was written to (its stamp is taken now: give it only when
    the file holds exactly ``data.to_pddl()``), or ``None``.

    Raises:
        PddlError: as :func:`parse_problem_text` (without a line: there is no text).
    """
    problem = _checked_problem(
        data.name, data.domain_name, data.objects, data.init, data.goal, domain, source, None
    )
    if source is None:
        return problem
    try:
        stat = source.stat()
    except OSError:
        return problem
    return replace(problem, source_stamp=(stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=256)
def _load_problem_cached(path: Path, modified_ns: int, size: int, domain: Domain) -> Problem:
    problem = parse_problem_text(read_pddl_file(path, "problem"), domain, path)
    return replace(problem, source_stamp=(modified_ns, size))


def load_problem(path: Path | str, domain: Domain | Path | str) -> Problem:
    """Read and parse a problem file; a file parsed before in this process is not parsed again.

    The cache is keyed by path, modification time, size and domain.

    Raises:
        PddlError: the file is missing, unreadable, not UTF-8 or malformed (names the file and line).
    """
    if not isinstance(domain, Domain):
        domain = load_domain(domain)
    resolved = Path(path).resolve()
    try:
        stat = resolved.stat()
    except OSError as error:
        raise PddlError(f"cannot read problem file: {error.strerror}", path) from error
    return _load_problem_cached(resolved, stat.st_mtime_ns, stat.st_size, domain)


def _line(text: str | None, name: object) -> int | None:
    if text is None:
        return None
    found = text.find(str(name))
    return text.count("\n", 0, found) + 1 if found >= 0 else None


def _checked_problem(
    name: str,
    domain_name: str,
    objects: Iterable[tuple[str, str]],
    init: Iterable[Atom],
    goal: Iterable[Atom],
    domain: Domain,
    source: Path | None,
    text: str | None,
) -> Problem:
    """The problem, after checking it against ``domain`` (see :func:`parse_problem_text`)."""
    if domain_name != domain.name:
        raise PddlError(
            f"the problem is for domain `{domain_name}`, but the domain file defines `{domain.name}`",
            source,
            _line(text, ":domain"),
        )
    declared = dict(domain.constants)
    for obj, type_name in sorted(objects):
        if domain.typed and type_name != ROOT_TYPE and type_name not in domain.types:
            raise PddlError(f"object {obj} has undeclared type {type_name}", source, _line(text, obj))
        if obj in domain.constants:
            raise PddlError(
                f"object {obj} is also a constant of the domain; Fast Downward refuses a repeated object",
                source,
                _line(text, obj),
            )
        declared[obj] = type_name
    object_types = dict(sorted(declared.items()))
    init_atoms = frozenset(init)
    goal_atoms = frozenset(goal)
    _check_atoms(init_atoms, domain, object_types, source, text)
    _check_atoms(goal_atoms, domain, object_types, source, text)
    if domain.typed:
        _check_argument_types(init_atoms | goal_atoms, domain, object_types, source, text)
    return Problem(name, domain, object_types, init_atoms, goal_atoms, source)


def _check_atoms(
    atoms: frozenset[Atom],
    domain: Domain,
    object_types: Mapping[str, str],
    source: Path | None,
    text: str | None,
) -> None:
    """Raise for the first (in sorted order, so the same file always gives the same message)
    atom with an undeclared predicate, a wrong arity or an undeclared object."""
    arity = {predicate: len(types) + 1 for predicate, types in domain.predicates.items()}
    signatures = set(zip(map(_head, atoms), map(len, atoms)))  # C-level loops: 31,000 atoms in ms
    if any(arity.get(head) != length for head, length in signatures):
        atom = min(a for a in atoms if arity.get(a[0]) != len(a))
        expected = domain.predicates.get(atom[0])
        if expected is None:
            raise PddlError(f"undeclared predicate {atom[0]}", source, _line(text, "(" + atom[0]))
        raise PddlError(
            f"{_atom_text(atom)} has {len(atom) - 1} arguments, predicate {atom[0]} takes {len(expected)}",
            source,
            _line(text, _atom_text(atom)),
        )
    used = set(chain.from_iterable(map(_arguments, atoms)))
    if not used.issubset(object_types.keys()):
        atom = min(a for a in atoms if not object_types.keys() >= set(a[1:]))
        argument = next(a for a in atom[1:] if a not in object_types)
        raise PddlError(
            f"{_atom_text(atom)} names undeclared object {argument}", source, _line(text, _atom_text(atom))
        )


def _check_argument_types(
    atoms: frozenset[Atom],
    domain: Domain,
    object_types: Mapping[str, str],
    source: Path | None,
    text: str | None,
) -> None:
    """Raise for the first (in sorted order) atom with an argument whose object's type is not
    the predicate's declared type for that position or a subtype of it, as VAL refuses it.

    The message names the atom, the argument (1-based), the object's type and the type the
    predicate takes, e.g. ``(at c0 l0-1): argument 1, c0, is a city; predicate at takes a physobj``.
    """
    members: dict[str, set[str]] = {}
    for obj, type_name in object_types.items():
        members.setdefault(type_name, set()).add(obj)

    def of_type(wanted: str) -> set[str]:
        if wanted not in members_of:
            members_of[wanted] = set().union(
                *(objs for type_name, objs in members.items() if domain.is_subtype(type_name, wanted))
            )
        return members_of[wanted]

    members_of: dict[str, set[str]] = {ROOT_TYPE: set(object_types)}
    by_predicate: dict[str, list[Atom]] = {}
    for atom in atoms:
        by_predicate.setdefault(atom[0], []).append(atom)
    wrong: list[tuple[Atom, int]] = []
    for predicate, group in by_predicate.items():
        for position, wanted in enumerate(domain.predicates[predicate], start=1):
            allowed = of_type(wanted)
            if not allowed.issuperset(map(itemgetter(position), group)):
                wrong.extend((atom, position) for atom in group if atom[position] not in allowed)
    if wrong:
        atom, position = min(wrong)
        argument = atom[position]
        wanted = domain.predicates[atom[0]][position - 1]
        raise PddlError(
            f"{_atom_text(atom)}: argument {position}, {argument}, is of type {object_types[argument]}; "
            f"predicate {atom[0]} takes a {wanted} there",
            source,
            _line(text, _atom_text(atom)),
        )


_head = itemgetter(0)
_arguments = itemgetter(slice(1, None))


def _atom_text(atom: Atom) -> str:
    return "(" + " ".join(atom) + ")"
