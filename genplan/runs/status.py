"""One vocabulary for plan verdicts, shared by every approach and every report.

A problem's status is :data:`SOLVED` or the name of its failure. The failures every approach
can meet when it returns a plan are the plan checker's two (Silver et al., AAAI 2024, Sec. 4.2):
``plan-syntax`` (the plan does not parse as actions of the problem) and ``plan-semantics`` (it
parses but is not valid: an inapplicable action or a goal not reached). :func:`plan_status`
maps a :class:`~genplan.plans.validate.PlanVerdict` to them, so an invalid plan has one name in
every record. An approach's own failures (``timeout``, ``no-plan``, ``search-timeout``, ...)
keep their own names, documented by that approach.
"""

from __future__ import annotations

from enum import Enum

from genplan.plans.failures import FailureKind
from genplan.plans.validate import PlanVerdict


class PlanStatus(str, Enum):
    """The statuses of a returned plan; the value is what records hold."""

    SOLVED = "solved"
    """The plan was checked and found valid."""
    PLAN_SYNTAX = FailureKind.PLAN_SYNTAX.value
    """The plan is not a list of well-formed actions of this problem."""
    PLAN_SEMANTICS = FailureKind.PLAN_SEMANTICS.value
    """The plan's actions are well formed but the plan is not valid."""


SOLVED = PlanStatus.SOLVED.value
"""The status of a problem whose plan was checked and found valid. Any other status names the
failure: :class:`PlanStatus`'s ``plan-syntax`` and ``plan-semantics`` for a returned plan the
checker rejects, the generalized plan's :class:`~genplan.plans.failures.FailureKind` values
(``python-exception``, ``timeout``, ``crashed``, ``no-code``), or an approach's own (e.g.
``search-timeout``, ``no-plan``, ``budget-exhausted``), documented by that approach."""

LEGACY_STATUSES: dict[str, str] = {"invalid-plan": PlanStatus.PLAN_SEMANTICS.value}
"""Names records made before the shared vocabulary used for a plan the checker rejected
(AutoToS and the LLM-as-planner methods said ``invalid-plan``), and the name they have now."""


def plan_status(verdict: PlanVerdict) -> tuple[str, str | None]:
    """The status and message of a problem whose returned plan got ``verdict``.

    Returns:
        ``("solved", None)`` for a valid plan, ``("timeout", message)`` for a plan that could not
        be checked within its deadline (never a verdict on the plan), else ``("plan-syntax" |
        "plan-semantics", the checker's message)``.
    """
    if verdict.valid:
        return SOLVED, None
    if verdict.kind is FailureKind.TIMEOUT:
        return FailureKind.TIMEOUT.value, verdict.message
    kind = PlanStatus.PLAN_SYNTAX if verdict.kind is FailureKind.PLAN_SYNTAX else PlanStatus.PLAN_SEMANTICS
    return kind.value, verdict.message


def canonical_status(status: str) -> str:
    """``status`` in today's vocabulary (a legacy name, see :data:`LEGACY_STATUSES`, renamed)."""
    return LEGACY_STATUSES.get(status, status)
