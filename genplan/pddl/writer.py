"""Writing a :class:`~genplan.pddl.domain.Domain` back out as PDDL text.

Used where a domain was built or rewritten in memory (the "No Names" obfuscation); a parsed
domain's own text is kept in :attr:`Domain.text`.
"""

from __future__ import annotations

from genplan.pddl.domain import ROOT_TYPE, Atom, Domain, Operator


def _atom(atom: Atom) -> str:
    return "(" + " ".join(atom) + ")"


def _typed(pairs: list[tuple[str, str]], typed: bool) -> str:
    if not typed:
        return " ".join(name for name, _ in pairs)
    return " ".join(f"{name} - {type_name}" for name, type_name in pairs)


def _operator(operator: Operator, typed: bool) -> list[str]:
    preconditions = [_atom(a) for a in operator.positive_preconditions]
    preconditions += [f"(not {_atom(a)})" for a in operator.negative_preconditions]
    effects = [_atom(a) for a in operator.add_effects] + [
        f"(not {_atom(a)})" for a in operator.delete_effects
    ]
    return [
        f"  (:action {operator.name}",
        f"    :parameters ({_typed(list(operator.parameters), typed)})",
        f"    :precondition (and {' '.join(preconditions)})",
        f"    :effect (and {' '.join(effects)})",
        "  )",
    ]


def domain_to_pddl(domain: Domain) -> str:
    """PDDL text of ``domain``; parsing it gives an equal :class:`Domain`."""
    lines = [f"(define (domain {domain.name})", f"  (:requirements {' '.join(domain.requirements)})"]
    if domain.typed and domain.types:
        by_parent: dict[str, list[str]] = {}
        for type_name, parent in domain.types.items():
            by_parent.setdefault(parent or ROOT_TYPE, []).append(type_name)
        lines.append(
            "  (:types "
            + " ".join(f"{' '.join(kids)} - {parent}" for parent, kids in by_parent.items())
            + ")"
        )
    if domain.constants:
        lines.append(f"  (:constants {_typed(sorted(domain.constants.items()), domain.typed)})")
    predicates = []
    for name, types in domain.predicates.items():
        parameters = [(f"?x{i}", t) for i, t in enumerate(types)]
        predicates.append(f"({name}{' ' if parameters else ''}{_typed(parameters, domain.typed)})")
    lines.append("  (:predicates " + " ".join(predicates) + ")")
    for operator in domain.operators.values():
        lines += _operator(operator, domain.typed)
    lines.append(")")
    return "\n".join(lines) + "\n"
