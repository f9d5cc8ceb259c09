"""Problems as plain data, and writing them as PDDL text.

:class:`ProblemData` is what generators return (``generators/<domain>.py``): objects, initial
and goal atoms, not yet checked against a parsed domain. :func:`problem_to_pddl` writes the
problem file, atoms sorted, so the same problem always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from genplan.pddl.numeric import fluent_lines

ROOT_TYPE = "object"
Atom = tuple[str, ...]


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
    fluents: Mapping[Atom, float] | None = None,
    minimize_total_cost: bool = False,
) -> str:
    """Write a STRIPS problem as PDDL text, one section per line group, atoms sorted.

    ``object_types`` maps objects to types (or is a plain iterable of names when untyped); the
    object order given is kept so generators control how objects read. ``fluents`` (numeric
    initial values) and ``minimize_total_cost`` write an action-cost problem's
    ``(= (f a) N)`` facts and ``(:metric minimize (total-cost))``.
    """
    if isinstance(object_types, Mapping):
        objects = list(object_types.items())
    else:
        objects = [(o, ROOT_TYPE) for o in object_types]
    text = _write_problem(name, domain_name, objects, init, goal, typed)
    if fluents:
        lines = "".join(f"    {line}\n" for line in fluent_lines(fluents))
        text = text.replace("  )\n  (:goal\n", lines + "  )\n  (:goal\n", 1)
    if minimize_total_cost:
        text = text[: text.rindex(")")] + "  (:metric minimize (total-cost))\n)\n"
    return text


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
