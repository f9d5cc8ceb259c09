"""What genplan models of PDDL: one table, enforced when a domain or a problem loads.

A verdict is only as good as the model of the domain behind it. genplan's plan-syntax check,
its simulator (the plan checker where VAL cannot serve), its successor generator and its world
model implement exactly the constructs marked *modelled* below; a domain or problem that uses
any other construct is refused when it loads (:class:`UnsupportedPddl`, naming the file, the
line and the construct; exit status 2 on the command line), so nothing genplan cannot model is
ever judged by it. Declaring a requirement is not using it: a domain that declares ``:adl`` and
uses only modelled constructs loads.

:data:`CONSTRUCTS` is the one place the table lives: the domain check
(:mod:`genplan.pddl.domain_check`) and the problem check (:mod:`genplan.pddl.problem_check`) refuse by
its keys, and the docs' table of supported PDDL is :func:`markdown_table` (a test compares them).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from genplan.errors import PddlError


@dataclass(frozen=True)
class Construct:
    """One row of the table.

    Attributes:
        key: the name the checks refuse by (``"derived-predicates"``).
        name: the construct in words.
        syntax: how it is written, e.g. ``(:derived ...)``.
        requirement: the PDDL requirement keyword that introduces it, or ``None``.
        modelled: whether genplan models it exactly (else it is refused at load).
    """

    key: str
    name: str
    syntax: str
    requirement: str | None
    modelled: bool


CONSTRUCTS: tuple[Construct, ...] = (
    Construct("strips", "atoms and conjunctions of atoms in preconditions, effects and goals", "(and (at ?x ?y) ...)", ":strips", True),
    Construct("typing", "types with parent types; typed parameters, constants and objects", "(:types truck - vehicle)", ":typing", True),
    Construct("negative-preconditions", "negated atoms in preconditions", "(not (at ?x ?y))", ":negative-preconditions", True),
    Construct("equality", "equality of terms and its negation in preconditions", "(= ?x ?y), (not (= ?x ?y))", ":equality", True),
    Construct("constants", "domain constants", "(:constants red blue - colour)", None, True),
    Construct("action-costs", "one (increase (total-cost) N) per effect, N a non-negative number or a function term; function values in :init; the metric (minimize (total-cost))", "(increase (total-cost) (road-length ?a ?b))", ":action-costs", True),
    Construct("either-types", "a type that is one of several", "(either truck plane)", ":typing", False),
    Construct("disjunctive-preconditions", "disjunction and implication in preconditions or goals", "(or ...), (imply ...)", ":disjunctive-preconditions", False),
    Construct("existential-preconditions", "existential quantification in preconditions or goals", "(exists (?x - t) ...)", ":existential-preconditions", False),
    Construct("universal-preconditions", "universal quantification in preconditions or goals", "(forall (?x - t) ...)", ":universal-preconditions", False),
    Construct("conditional-effects", "conditional and universally quantified effects", "(when ...), (forall ...) in an effect", ":conditional-effects", False),
    Construct("negative-goals", "negated atoms in the goal", "(:goal (not (at ?x ?y)))", ":negative-preconditions", False),
    Construct("negative-initial-facts", "negated atoms in the initial state", "(:init (not (at a b)))", None, False),
    Construct("numeric-fluents", "numeric conditions and effects other than action costs", "(> (fuel ?t) 0), (decrease (fuel ?t) 1)", ":numeric-fluents", False),
    Construct("object-fluents", "functions whose values are objects", "(:functions (loc ?t) - location)", ":object-fluents", False),
    Construct("derived-predicates", "derived predicates (axioms)", "(:derived (busy) ...)", ":derived-predicates", False),
    Construct("durative-actions", "durative actions", "(:durative-action ...)", ":durative-actions", False),
    Construct("timed-initial-literals", "timed initial literals", "(:init (at 10 (open s)))", ":timed-initial-literals", False),
    Construct("preferences", "preferences", "(preference p ...)", ":preferences", False),
    Construct("constraints", "state-trajectory constraints", "(:constraints ...)", ":constraints", False),
    Construct("other-metrics", "a metric other than (minimize (total-cost))", "(:metric maximize ...)", None, False),
)  # fmt: skip
"""The table of what genplan models (see the module's description)."""

_BY_KEY = {construct.key: construct for construct in CONSTRUCTS}


class UnsupportedPddl(PddlError):
    """A domain or problem uses a construct genplan does not model (:data:`CONSTRUCTS`).

    Attributes:
        construct: the table's row for the construct.
    """

    def __init__(self, key: str, path: Path | None, line: int | None, detail: str = ""):
        self.construct = _BY_KEY[key]
        construct = self.construct
        requirement = f" (requirement {construct.requirement})" if construct.requirement else ""
        super().__init__(
            f"{detail or construct.syntax}: genplan does not model {construct.name}{requirement}, so it "
            "refuses the file rather than judge plans it cannot check (see 'Supported PDDL' in the docs)",
            path,
            line,
        )


def refuse(key: str, path: Path | None, line: int | None, detail: str = "") -> UnsupportedPddl:
    """The error for construct ``key`` used at ``path:line`` (``detail``: how it is written there).

    Raises:
        KeyError: ``key`` is not a refused construct of :data:`CONSTRUCTS`.
    """
    if _BY_KEY[key].modelled:
        raise KeyError(f"{key} is modelled; nothing to refuse")
    return UnsupportedPddl(key, path, line, detail)


def markdown_table() -> str:
    """The table as Markdown, for the docs: construct, how it is written, requirement, status."""
    lines = ["| construct | written | requirement | genplan |", "| --- | --- | --- | --- |"]
    for construct in CONSTRUCTS:
        status = "modelled exactly" if construct.modelled else "refused at load"
        requirement = f"`{construct.requirement}`" if construct.requirement else "-"
        lines.append(f"| {construct.name} | `{construct.syntax}` | {requirement} | {status} |")
    return "\n".join(lines) + "\n"
