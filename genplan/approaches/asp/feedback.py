"""Kinds of feedback the ASP approach sends, and LLM+AL's issue categories they point to.

:class:`FeedbackKind` names what a revision request reports (counted per run in the record's
``feedback``, one count per kind present in a request). :class:`Issue` is LLM+AL's Table 3
taxonomy of program issues (Ishay and Lee, AAAI 2025, Sec. 4.1), assigned where a check makes
the category certain; the record's ``details`` counts them for the first program ("before"
self-revision) and the last ("after"), as Table 3 does.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class FeedbackKind(str, Enum):
    """What a revision request reports; the value is used in JSON files."""

    FORBIDDEN = "forbidden-construct"
    """A text held ``#script``, ``#include``, ``@`` (or was too long) and was rejected unseen."""
    SYNTAX = "syntax-error"
    """clingo could not parse the encoding or a query."""
    GROUNDING = "grounding-error"
    """clingo could not ground it (unsafe variables, other errors)."""
    CLINGO_LIMIT = "clingo-limit"
    """A check ran out of time or memory (grounding or solving)."""
    UNSAT_WITHOUT_QUERY = "unsat-without-query"
    """The satisfiability check (no query) found no answer set."""
    SAMPLE_QUERY = "sample-query-mismatch"
    """A sample query's satisfiability differs from the model's mark."""
    MAIN_QUERY = "main-query"
    """No plan for the main query (a training problem, or a task's own query) up to the horizon."""
    INVALID_PLAN = "plan-semantics"
    """A plan for a training problem failed VAL's check (PDDL domains); named as every approach
    names an invalid plan (:class:`~genplan.runs.status.PlanStatus`)."""
    SUCCESSOR_MISMATCH = "successor-mismatch"
    """The encoding's transitions differ from the PDDL domain's on a state (PDDL domains)."""
    REVIEW = "review"
    """No check failed: the outputs were shown for the model to judge (LLM+AL B.6)."""
    MALFORMED_ANSWER = "malformed-answer"
    """The model's answer could not be read in the requested format."""


class Issue(str, Enum):
    """LLM+AL's Table 3 categories, in the ASP reading genplan can check."""

    SIGNATURE_MD = "signature-MD"
    """Missing declaration: the encoding uses a predicate nothing defines (clingo's "atom does
    not occur in any rule head")."""
    SIGNATURE_SYN = "signature-Syn"
    """A syntax error or forbidden construct in the encoding (Table 3 has syntax categories for
    the signature and the query only)."""
    RULES_MN = "rules-MN"
    """Missing necessary rule: the encoding allows an action PDDL forbids, misses an effect, or
    let a plan through that VAL rejects for an unsatisfied precondition."""
    RULES_H = "rules-H"
    """Harmful rule (Table 3's HU or HN, which no check tells apart): the encoding forbids an
    action PDDL allows, adds or drops a fluent PDDL does not, rejects a reachable state, or has
    no answer set without a query."""
    QUERY_SYN = "query-Syn"
    """A syntax error or forbidden construct in the main query or a sample query."""
    QUERY_SEM = "query-Sem"
    """The task's main query answers differently from the known answer (tasks in English)."""


@dataclass(frozen=True)
class Finding:
    """Something a check found wrong.

    Attributes:
        kind: the feedback kind it reports.
        issues: the Table 3 categories it certainly shows (often none).
    """

    kind: FeedbackKind
    issues: tuple[Issue, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"kind": ..., "issues": [...]}`` with the enums' values."""
        return {"kind": self.kind.value, "issues": [issue.value for issue in self.issues]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        """The finding :meth:`to_json` wrote.

        Raises:
            ValueError: an unknown kind or issue; KeyError: no ``kind``.
        """
        return cls(FeedbackKind(data["kind"]), tuple(Issue(issue) for issue in data.get("issues", ())))
