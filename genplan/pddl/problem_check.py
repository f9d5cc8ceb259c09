"""Checking a problem file against the table of what genplan models (:mod:`genplan.pddl.fragment`).

Problems in the shape genplan's fast reader takes (:mod:`genplan.pddl.problem_reader`: objects,
atoms in ``:init``, a conjunction of atoms as the goal) are inside the table by construction;
every other problem file is read as s-expressions and checked here before the ``pddl`` library
parses it, so a construct genplan does not model is refused with its line, never parsed into a
problem it would judge wrongly.
"""

from __future__ import annotations

from pathlib import Path

from genplan.errors import PddlError
from genplan.pddl.domain_check import typed_list
from genplan.pddl.fragment import refuse
from genplan.pddl.sexpr import Expression

_CONNECTIVE_KEYS = {
    "or": "disjunctive-preconditions",
    "imply": "disjunctive-preconditions",
    "exists": "existential-preconditions",
    "forall": "universal-preconditions",
    "preference": "preferences",
    "not": "negative-goals",
}
_COMPARISONS = frozenset({"<", ">", "<=", ">="})


def check_problem_tree(tree: Expression, path: Path | None) -> None:
    """Refuse a problem that uses a construct genplan does not model, or that names an object
    twice, naming the file and line (read with :func:`~genplan.pddl.sexpr.read_expression`,
    after :func:`~genplan.pddl.numeric.split_numeric` took out function values and the metric).

    Raises:
        UnsupportedPddl: timed initial literals, negated initial facts, a goal other than a
            conjunction of atoms, ``either`` types, constraints, numeric conditions.
        PddlError: an object declared twice, or a section a problem does not have.
    """
    for section in tree[2:]:
        if not isinstance(section, Expression) or section.head is None:
            continue  # the parser reports the malformed section
        head = str(section.head)
        if head == ":constraints":
            raise refuse("constraints", path, section.line)
        if head == ":metric":
            raise refuse("other-metrics", path, section.line, section.describe())
        if head == ":objects":
            _check_objects(section, path)
        elif head == ":init":
            for fact in section[1:]:
                _check_initial_fact(fact, path)
        elif head == ":goal" and len(section) > 1:
            _check_goal(section[1], path)


def _check_objects(section: Expression, path: Path | None) -> None:
    seen: dict[str, int] = {}
    for name, type_name, line in typed_list(section[1:], path, "objects"):
        if not isinstance(type_name, str):
            raise refuse(
                "either-types", path, line, f"object {name} of type (either {' '.join(sorted(type_name))})"
            )
        if name in seen:
            raise PddlError(
                f"object {name} is declared twice (first on line {seen[name]}); Fast Downward refuses "
                "a repeated object",
                path,
                line,
            )
        seen[str(name)] = line


def _check_initial_fact(fact: object, path: Path | None) -> None:
    if not isinstance(fact, Expression) or fact.head is None:
        return  # the parser reports it
    if fact.head == "not":
        raise refuse("negative-initial-facts", path, fact.line, fact.describe())
    if fact.head == "at" and len(fact) == 3 and isinstance(fact[2], Expression):
        raise refuse("timed-initial-literals", path, fact.line, fact.describe())
    if fact.head == "=":
        raise refuse("numeric-fluents", path, fact.line, fact.describe())


def _check_goal(goal: object, path: Path | None) -> None:
    if not isinstance(goal, Expression) or goal.head is None:
        return
    if goal.head == "and":
        for part in goal[1:]:
            if isinstance(part, Expression) and part.head == "and":
                _check_goal(part, path)
            else:
                _check_goal_atom(part, path)
        return
    _check_goal_atom(goal, path)


def _check_goal_atom(part: object, path: Path | None) -> None:
    if not isinstance(part, Expression) or part.head is None:
        return
    head = str(part.head)
    if head in _CONNECTIVE_KEYS:
        raise refuse(_CONNECTIVE_KEYS[head], path, part.line, part.describe())
    if head in _COMPARISONS or (head == "=" and any(isinstance(item, Expression) for item in part[1:])):
        raise refuse("numeric-fluents", path, part.line, part.describe())
