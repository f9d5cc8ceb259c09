"""Name obfuscation for the "No Names" ablation (Silver et al. 2024, Sec. 5.1).

Every name the model could read meaning into is replaced by a nondescriptive identifier,
consistently across the domain and every problem of a run: the domain (``domain0``),
problems (``problem3``), types (``type1``), predicates (``predicate2``), operators
(``operator0``), variables (``?x4``) and objects (``object14``). ``object`` (the root type)
and ``=`` stay. The mapping is kept, so plans translate both ways.

Names are numbered in sorted order of the originals, so the same domain and problems always
give the same mapping. :func:`build_mapping` covers the domain and all problems of a run at
once, which keeps an object's name the same in every problem.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from genplan.pddl.domain import ROOT_TYPE, Atom, Domain, Operator, parse_domain_text
from genplan.pddl.problem import Problem
from genplan.pddl.writer import domain_to_pddl

CATEGORIES = ("domain", "problem", "type", "predicate", "operator", "variable", "object")
_PREFIX = {
    "domain": "domain",
    "problem": "problem",
    "type": "type",
    "predicate": "predicate",
    "operator": "operator",
    "variable": "?x",
    "object": "object",
}

PDDL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
"""A PDDL name, as the ``pddl`` library's grammar (and so genplan's reader) accepts it: a letter,
then letters, digits, ``-`` and ``_``. A variable is ``?`` and a name."""


def is_pddl_name(text: object, category: str) -> bool:
    """Whether ``text`` is a name of ``category`` (one of :data:`CATEGORIES`) as PDDL writes it:
    :data:`PDDL_NAME`, with a ``?`` first for a ``variable``."""
    if type(text) is not str:
        return False
    if category == "variable":
        return text.startswith("?") and PDDL_NAME.fullmatch(text[1:]) is not None
    return PDDL_NAME.fullmatch(text) is not None


__all__ = [
    "PDDL_NAME",
    "NameMapping",
    "build_mapping",
    "domain_to_pddl",
    "extend_mapping",
    "is_pddl_name",
    "obfuscate_domain",
    "obfuscate_problem",
]


@dataclass(frozen=True)
class NameMapping:
    """Original name -> obfuscated name, per category (see :data:`CATEGORIES`)."""

    forward: dict[str, dict[str, str]] = field(default_factory=lambda: {c: {} for c in CATEGORIES})

    def to_obfuscated(self, name: str, category: str) -> str:
        """The obfuscated name (``object`` and ``=`` map to themselves).

        Raises:
            KeyError: a name the mapping does not cover.
        """
        if name in (ROOT_TYPE, "="):
            return name
        return self.forward[category][name]

    def to_original(self, name: str, category: str) -> str:
        """Inverse of :meth:`to_obfuscated`.

        Raises:
            KeyError: a name the mapping does not cover.
        """
        if name in (ROOT_TYPE, "="):
            return name
        reverse = {v: k for k, v in self.forward[category].items()}
        return reverse[name]

    def _translate_plan(self, plan: Sequence[str], forward: bool) -> list[str]:
        translate = self.to_obfuscated if forward else self.to_original
        translated = []
        for action in plan:
            parts = action.strip().strip("()").split()
            if not parts:
                translated.append(action)
                continue
            names = [translate(parts[0], "operator"), *(translate(p, "object") for p in parts[1:])]
            translated.append("(" + " ".join(names) + ")")
        return translated

    def plan_to_original(self, plan: Sequence[str]) -> list[str]:
        """A plan over obfuscated names, in original names."""
        return self._translate_plan(plan, forward=False)

    def plan_to_obfuscated(self, plan: Sequence[str]) -> list[str]:
        """A plan over original names, in obfuscated names."""
        return self._translate_plan(plan, forward=True)

    def to_json(self) -> dict[str, dict[str, str]]:
        """The mapping as JSON-ready nested dicts."""
        return {category: dict(sorted(names.items())) for category, names in self.forward.items()}

    @classmethod
    def from_json(cls, data: dict[str, dict[str, str]]) -> NameMapping:
        """Inverse of :meth:`to_json`."""
        return cls({category: dict(data.get(category, {})) for category in CATEGORIES})

    def dumps(self) -> str:
        """JSON text of the mapping."""
        return json.dumps(self.to_json(), indent=2)


def _numbered(names: Iterable[str], prefix: str) -> dict[str, str]:
    return {name: f"{prefix}{index}" for index, name in enumerate(sorted(set(names)))}


def build_mapping(domain: Domain, problems: Iterable[Problem] = ()) -> NameMapping:
    """A mapping covering ``domain`` and every object and name of ``problems``."""
    problems = list(problems)
    variables = {v for o in domain.operators.values() for v, _ in o.parameters}
    objects = set(domain.constants) | {o for p in problems for o in p.object_types}
    forward = {
        "domain": {domain.name: "domain0"},
        "problem": _numbered((p.name for p in problems), _PREFIX["problem"]),
        "type": _numbered((t for t in domain.types if t != ROOT_TYPE), _PREFIX["type"]),
        "predicate": _numbered(domain.predicates, _PREFIX["predicate"]),
        "operator": _numbered(domain.operators, _PREFIX["operator"]),
        "variable": _numbered(variables, _PREFIX["variable"]),
        "object": _numbered(objects, _PREFIX["object"]),
    }
    return NameMapping(forward)


def extend_mapping(mapping: NameMapping, problems: Iterable[Problem]) -> NameMapping:
    """``mapping`` plus names for the problems' new objects and problem names, numbered after the
    existing ones; names already mapped keep their obfuscated names.

    This keeps what the model saw during training unchanged however many evaluation problems
    are added later.
    """
    forward = {category: dict(names) for category, names in mapping.forward.items()}
    problems = list(problems)
    for category, names in (
        ("problem", sorted({p.name for p in problems})),
        ("object", sorted({o for p in problems for o in p.object_types})),
    ):
        table = forward[category]
        for name in names:
            if name not in table:
                table[name] = f"{_PREFIX[category]}{len(table)}"
    return NameMapping(forward)


def _atom(atom: Atom, mapping: NameMapping, lifted: bool) -> Atom:
    predicate = mapping.to_obfuscated(atom[0], "predicate")
    arguments = [
        mapping.to_obfuscated(a, "variable")
        if lifted and a.startswith("?")
        else mapping.to_obfuscated(a, "object")
        for a in atom[1:]
    ]
    return (predicate, *arguments)


def obfuscate_domain(domain: Domain, mapping: NameMapping | None = None) -> tuple[Domain, NameMapping]:
    """``domain`` with every name replaced, and the mapping used (built if not given)."""
    mapping = mapping or build_mapping(domain)
    name = mapping.to_obfuscated

    def operator(o: Operator) -> Operator:
        return Operator(
            name=name(o.name, "operator"),
            parameters=tuple((name(v, "variable"), name(t, "type")) for v, t in o.parameters),
            positive_preconditions=tuple(_atom(a, mapping, True) for a in o.positive_preconditions),
            negative_preconditions=tuple(_atom(a, mapping, True) for a in o.negative_preconditions),
            add_effects=tuple(_atom(a, mapping, True) for a in o.add_effects),
            delete_effects=tuple(_atom(a, mapping, True) for a in o.delete_effects),
        )

    operators = sorted((operator(o) for o in domain.operators.values()), key=lambda o: o.name)
    rewritten = Domain(
        name=name(domain.name, "domain"),
        typed=domain.typed,
        types={name(t, "type"): name(p, "type") for t, p in domain.types.items()},
        predicates={
            name(p, "predicate"): tuple(name(t, "type") for t in ts)
            for p, ts in sorted(domain.predicates.items())
        },
        operators={o.name: o for o in operators},
        constants={name(c, "object"): name(t, "type") for c, t in domain.constants.items()},
        requirements=domain.requirements,
        text="",
    )
    # Re-parse the written text so the result is exactly what the model is shown.
    return parse_domain_text(domain_to_pddl(rewritten)), mapping


def obfuscate_problem(problem: Problem, mapping: NameMapping, domain: Domain | None = None) -> Problem:
    """``problem`` with every name replaced through ``mapping``, against the obfuscated ``domain``.

    Raises:
        KeyError: the mapping does not cover one of the problem's names (build it with the
            problem included).
    """
    domain = domain or obfuscate_domain(problem.domain, mapping)[0]
    return replace(
        problem,
        name=mapping.to_obfuscated(problem.name, "problem"),
        domain=domain,
        object_types={
            mapping.to_obfuscated(o, "object"): mapping.to_obfuscated(t, "type")
            for o, t in problem.object_types.items()
        },
        init=frozenset(_atom(a, mapping, False) for a in problem.init),
        goal=frozenset(_atom(a, mapping, False) for a in problem.goal),
        source=None,
    )
