"""PDDL problems (tasks) as data: objects, initial state and goal as sets of tuples.

This is the representation the paper's ``get_plan(objects, init, goal)`` receives
(Silver et al. 2024, Sec. 4.1): ``objects`` is a set of ``(name, type)`` pairs, or of plain
names in untyped domains; ``init`` and ``goal`` are sets of ground atoms such as
``('at', 'ball1', 'rooma')``. Domain constants count as objects, as in VAL.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pddl.logic.base import And
from pddl.logic.predicates import Predicate
from pddl.parser.problem import ProblemParser

from genplan.errors import PddlError
from genplan.pddl.domain import ROOT_TYPE, Atom, Domain, load_domain
from genplan.pddl.text import add_missing_requirements, parse_with_location, strip_comments_and_lower


@dataclass(frozen=True)
class Problem:
    """A PDDL problem together with its domain.

    Attributes:
        name: the problem's name, lower case.
        domain: the parsed :class:`~genplan.pddl.domain.Domain`.
        object_types: every object (domain constants included) mapped to its type
            (``"object"`` in untyped domains).
        init: ground atoms true in the initial state.
        goal: ground atoms that must hold at the end (a conjunction).
        source: the problem file, or ``None``.
    """

    name: str
    domain: Domain
    object_types: Mapping[str, str]
    init: frozenset[Atom]
    goal: frozenset[Atom]
    source: Path | None = field(default=None, compare=False)

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
            {o: t for o, t in self.object_types.items() if o not in self.domain.constants},
            self.init,
            self.goal,
            typed=self.domain.typed,
        )


@dataclass(frozen=True)
class ProblemData:
    """A problem as plain data, not yet checked against a parsed domain: what generators return.

    Writing it with :meth:`to_pddl` gives the problem file; :func:`bind_problem` turns it into a
    :class:`Problem` without going through text (the same checks as parsing).

    Attributes:
        name: the problem's name.
        domain_name: the name in ``(:domain ...)``.
        objects: ``(object, type)`` pairs in the order they are written (type ``"object"`` when
            untyped). The constructor also takes a mapping ``{object: type}`` or, for untyped
            domains, a sequence of plain names.
        init: ground atoms of the initial state, in any order (written sorted).
        goal: ground atoms of the goal conjunction, in any order (written sorted).
        typed: whether objects are written with their types.
    """

    name: str
    domain_name: str
    objects: tuple[tuple[str, str], ...]
    init: tuple[Atom, ...]
    goal: tuple[Atom, ...]
    typed: bool

    def __init__(
        self,
        name: str,
        domain_name: str,
        objects: Mapping[str, str] | Iterable[str] | Iterable[tuple[str, str]],
        init: Iterable[Atom],
        goal: Iterable[Atom],
        *,
        typed: bool,
    ):
        if isinstance(objects, Mapping):
            pairs = tuple(objects.items())
        else:
            pairs = tuple(o if isinstance(o, tuple) else (o, ROOT_TYPE) for o in objects)
        for field_name, value in (
            ("name", name),
            ("domain_name", domain_name),
            ("objects", pairs),
            ("init", tuple(init)),
            ("goal", tuple(goal)),
            ("typed", typed),
        ):
            object.__setattr__(self, field_name, value)

    def to_pddl(self) -> str:
        """The problem file's text (see :func:`problem_to_pddl`)."""
        return _write_problem(self.name, self.domain_name, self.objects, self.init, self.goal, self.typed)


def problem_to_pddl(
    name: str,
    domain_name: str,
    object_types: Mapping[str, str] | Iterable[str],
    init: Iterable[Atom],
    goal: Iterable[Atom],
    *,
    typed: bool,
) -> str:
    """Write a STRIPS problem as PDDL text, one section per line group, atoms sorted.

    ``object_types`` maps objects to types (or is a plain iterable of names when untyped); the
    object order given is kept so generators control how objects read.
    """
    if isinstance(object_types, Mapping):
        objects = list(object_types.items())
    else:
        objects = [(o, ROOT_TYPE) for o in object_types]
    return _write_problem(name, domain_name, objects, init, goal, typed)


def _write_problem(
    name: str,
    domain_name: str,
    objects: Sequence[tuple[str, str]],
    init: Iterable[Atom],
    goal: Iterable[Atom],
    typed: bool,
) -> str:
    if typed:
        by_type: dict[str, list[str]] = {}
        for obj, type_name in objects:
            by_type.setdefault(type_name, []).append(obj)
        object_lines = [f"    {' '.join(objs)} - {t}" for t, objs in by_type.items()]
    else:
        object_lines = [f"    {' '.join(o for o, _ in objects)}"] if objects else []
    init_lines = [f"    {_atom_text(a)}" for a in sorted(init)]
    goal_lines = [f"      {_atom_text(a)}" for a in sorted(goal)]
    return "\n".join(
        [
            f"(define (problem {name})",
            f"  (:domain {domain_name})",
            "  (:objects",
            *object_lines,
            "  )",
            "  (:init",
            *init_lines,
            "  )",
            "  (:goal",
            "    (and",
            *goal_lines,
            "    )",
            "  )",
            ")",
            "",
        ]
    )


def _atom_text(atom: Atom) -> str:
    return "(" + " ".join(atom) + ")"


def parse_problem_text(text: str, domain: Domain, source: Path | None = None) -> Problem:
    """Parse problem PDDL ``text`` against ``domain``.

    Raises:
        PddlError: malformed PDDL, an undeclared object, predicate or type, a wrong arity, or a
            goal that is not a conjunction of atoms; names ``source`` and the line where known.
    """
    normalised = add_missing_requirements(strip_comments_and_lower(text))
    parsed = parse_with_location(ProblemParser(), normalised, source)
    object_types = dict(domain.constants)
    for obj in sorted(parsed.objects, key=lambda o: str(o.name)):
        tags = sorted(str(t) for t in obj.type_tags)
        type_name = tags[0] if tags else ROOT_TYPE
        if domain.typed and type_name != ROOT_TYPE and type_name not in domain.types:
            raise PddlError(
                f"object {obj.name} has undeclared type {type_name}", source, _line(normalised, obj.name)
            )
        object_types[str(obj.name)] = type_name
    init = frozenset(_ground_atom(f, normalised, source, domain, object_types) for f in parsed.init)
    goal_parts = list(parsed.goal.operands) if isinstance(parsed.goal, And) else [parsed.goal]
    goal = frozenset(_ground_atom(f, normalised, source, domain, object_types) for f in goal_parts)
    return Problem(str(parsed.name), domain, object_types, init, goal, source)


@functools.lru_cache(maxsize=256)
def _load_problem_cached(path: Path, modified_ns: int, size: int, domain: Domain) -> Problem:
    return parse_problem_text(path.read_text(), domain, path)


def load_problem(path: Path | str, domain: Domain | Path | str) -> Problem:
    """Read and parse a problem file; a file parsed before in this process is not parsed again.

    Parsing the largest heavy evaluation problem (~31,000 init atoms) takes about a second, so
    the cache (keyed by path, modification time and size) matters.

    Raises:
        PddlError: the file is missing, unreadable or malformed (names the file and line).
    """
    if not isinstance(domain, Domain):
        domain = load_domain(domain)
    resolved = Path(path).resolve()
    try:
        stat = resolved.stat()
    except OSError as error:
        raise PddlError(f"cannot read problem file: {error.strerror}", path) from error
    return _load_problem_cached(resolved, stat.st_mtime_ns, stat.st_size, domain)


def _line(text: str, name: object) -> int | None:
    found = text.find(str(name))
    return text.count("\n", 0, found) + 1 if found >= 0 else None


def _ground_atom(
    formula: object, text: str, source: Path | None, domain: Domain, object_types: Mapping[str, str]
) -> Atom:
    if not isinstance(formula, Predicate):
        raise PddlError(
            f"unsupported formula {formula} (only atoms are supported here)", source, _line(text, formula)
        )
    atom = (str(formula.name), *(str(t.name) for t in formula.terms))
    expected = domain.predicates.get(atom[0])
    if expected is None:
        raise PddlError(f"undeclared predicate {atom[0]}", source, _line(text, "(" + atom[0]))
    if len(expected) != len(atom) - 1:
        raise PddlError(
            f"{_atom_text(atom)} has {len(atom) - 1} arguments, predicate {atom[0]} takes {len(expected)}",
            source,
            _line(text, _atom_text(atom)),
        )
    for argument in atom[1:]:
        if argument not in object_types:
            raise PddlError(
                f"{_atom_text(atom)} names undeclared object {argument}",
                source,
                _line(text, _atom_text(atom)),
            )
    return atom
