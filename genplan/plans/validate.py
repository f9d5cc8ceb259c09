"""One entry point for plan checking: syntax, then VAL, with the simulator as fallback (Sec. 4.2).

:func:`check_plan` gives the two plan feedback kinds of the paper: *plan syntax* (from
:mod:`genplan.plans.syntax`) and *plan semantics* (VAL's plan repair advice, or the same advice
from :mod:`genplan.plans.simulator` where VAL cannot serve).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from genplan.errors import ConfigurationError, PddlError
from genplan.pddl.problem import Problem
from genplan.plans.failures import FailureKind
from genplan.plans.simulator import simulate
from genplan.plans.syntax import check_syntax
from genplan.plans.val import VAL_MAX_STEPS, run_val, val_path

CHECKERS = ("auto", "val", "simulator")
MISSING_VAL_NOTICE = "VAL is not available on this platform; the built-in STRIPS simulator checked the plan."


@dataclass(frozen=True)
class PlanVerdict:
    """The verdict on one plan.

    Attributes:
        valid: the plan is well formed and reaches the goal.
        kind: ``PLAN_SYNTAX`` or ``PLAN_SEMANTICS`` when invalid, else ``None``.
        message: the syntax error or the plan repair advice; empty when valid.
        failing_step: 0-based index of the first bad or inapplicable action, or ``None``.
        checker_used: ``"syntax"``, ``"val"`` or ``"simulator"``.
        notice: a one-line notice when the simulator served because VAL could not.
    """

    valid: bool
    kind: FailureKind | None
    message: str
    failing_step: int | None
    checker_used: str
    notice: str | None = None


def check_plan(problem: Problem, plan: object, *, checker: str = "auto") -> PlanVerdict:
    """Check ``plan`` (whatever ``get_plan`` returned) for ``problem``.

    Args:
        problem: the problem.
        plan: the output to check; anything that is not a list of strings is a syntax error.
        checker: ``"auto"`` (VAL where it can take the plan, else the simulator), ``"val"``
            (VAL only; still the simulator if VAL cannot run) or ``"simulator"``.

    Raises:
        ConfigurationError: an unknown ``checker``.
    """
    if checker not in CHECKERS:
        raise ConfigurationError(f"unknown checker {checker!r}; use one of {', '.join(CHECKERS)}")
    syntax = check_syntax(plan, problem)
    if not syntax.valid:
        return PlanVerdict(False, FailureKind.PLAN_SYNTAX, syntax.message, syntax.step, "syntax")
    lines = ["(" + " ".join(action) + ")" for action in syntax.actions]
    notice = None
    if checker != "simulator" and len(lines) < VAL_MAX_STEPS:
        if val_path() is not None:
            result = run_val(problem.domain.to_pddl(), problem.to_pddl(), lines)
            if result.ok:
                kind = None if result.valid else FailureKind.PLAN_SEMANTICS
                return PlanVerdict(result.valid, kind, result.advice, result.failing_step, "val")
        else:
            notice = MISSING_VAL_NOTICE
    simulated = simulate(problem, syntax.actions)
    kind = None if simulated.valid else FailureKind.PLAN_SEMANTICS
    return PlanVerdict(simulated.valid, kind, simulated.advice, simulated.failing_step, "simulator", notice)


def plan_to_text(actions: Sequence[str]) -> str:
    """The standard plan-file format: one action per line, as Fast Downward's ``sas_plan``."""
    return "".join(f"{action.strip()}\n" for action in actions)


def read_plan_file(path: Path | str) -> list[str]:
    """Actions of a plan file: blank lines and ``;`` comments skipped.

    Raises:
        PddlError: the file cannot be read.
    """
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise PddlError(f"cannot read plan file: {error.strerror}", path) from error
    return [line.split(";", 1)[0].strip() for line in text.splitlines() if line.split(";", 1)[0].strip()]
