"""One entry point for plan checking: syntax, then VAL, with the simulator as fallback (Sec. 4.2).

:func:`check_plan` gives the two plan feedback kinds of the paper: *plan syntax* (from
:mod:`genplan.plans.syntax`) and *plan semantics* (VAL's plan repair advice, or the same advice
from :mod:`genplan.plans.simulator` where VAL cannot serve).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from genplan.errors import ConfigurationError, ValidatorError
from genplan.pddl.problem import Problem
from genplan.pddl.text import read_pddl_file
from genplan.plans.costs import plan_cost
from genplan.plans.failures import FailureKind
from genplan.plans.simulator import CheckDeadlinePassed, simulate
from genplan.plans.syntax import check_syntax
from genplan.plans.val import VAL_MAX_STEPS, ValResult, run_val, val_path
from genplan.plans.val_files import domain_file, problem_file

CHECKERS = ("auto", "val", "simulator")
NOTICE_PREFIX = "checked by simulator: "
MISSING_VAL_NOTICE = f"{NOTICE_PREFIX}VAL is not available on this platform"
LONG_PLAN_NOTICE = f"{NOTICE_PREFIX}VAL refuses plans of {VAL_MAX_STEPS:,}+ steps"
ASKED_NOTICE = f"{NOTICE_PREFIX}asked for (--checker simulator)"

MAX_PLAN_ACTIONS = 1_000_000
"""The most actions a plan may have to be checked at all (longer: a plan-syntax failure)."""

CHECK_SECONDS = 30.0
"""Plan checking's own deadline when the caller gives none (the paper's per-problem budget)."""


@dataclass(frozen=True)
class PlanVerdict:
    """The verdict on one plan.

    Attributes:
        valid: the plan is well formed and reaches the goal.
        kind: ``PLAN_SYNTAX`` or ``PLAN_SEMANTICS`` when invalid, ``TIMEOUT`` when the plan
            could not be checked within its deadline, else ``None``.
        message: the syntax error or the plan repair advice; empty when valid.
        failing_step: 0-based index of the first bad or inapplicable action, or ``None``.
        checker_used: who gave the verdict: ``"syntax"`` (genplan's plan-syntax check rejected
            the plan before any semantic checker saw it), ``"val"`` or ``"simulator"``.
        cost: the plan's cost when valid (:func:`~genplan.plans.costs.plan_cost`: its length,
            or its total cost in action-cost problems), else ``None``.
        notice: a one-line notice whenever the simulator judged: why VAL did not (missing,
            refusing a plan of :data:`~genplan.plans.val.VAL_MAX_STEPS` or more steps, crashed
            or timed out, or the caller asked for the simulator), e.g. ``"checked by simulator:
            VAL refuses plans of 9,995+ steps"``; ``None`` when VAL or the syntax check judged.
    """

    valid: bool
    kind: FailureKind | None
    message: str
    failing_step: int | None
    checker_used: str
    notice: str | None = None
    cost: float | None = None

    @property
    def simulator_reason(self) -> str | None:
        """Why the simulator judged instead of VAL (the notice without its prefix), or ``None``."""
        return self.notice.removeprefix(NOTICE_PREFIX) if self.notice is not None else None


def check_plan(
    problem: Problem,
    plan: object,
    *,
    checker: str = "auto",
    seconds: float = CHECK_SECONDS,
    max_actions: int = MAX_PLAN_ACTIONS,
) -> PlanVerdict:
    """Check ``plan`` (whatever ``get_plan`` returned) for ``problem``.

    Args:
        problem: the problem.
        plan: the output to check; anything that is not a list of strings is a syntax error.
        checker: ``"auto"`` (VAL where it can take the plan, else the simulator, and the
            verdict's ``notice`` says why), ``"val"`` (VAL only: never the simulator) or
            ``"simulator"``.
        seconds: plan checking's own deadline (VAL and the simulator together), from the
            problem's budget: a plan that cannot be checked in time is a ``TIMEOUT`` failure.
        max_actions: a plan with more actions is a ``PLAN_SYNTAX`` failure, never checked.

    Raises:
        ConfigurationError: an unknown ``checker``.
        ValidatorError: ``checker="val"`` and VAL cannot give a verdict (missing, a plan of
            :data:`~genplan.plans.val.VAL_MAX_STEPS` or more steps, or VAL refused or failed
            on the task); the message gives VAL's reason.
    """
    if checker not in CHECKERS:
        raise ConfigurationError(f"unknown checker {checker!r}; use one of {', '.join(CHECKERS)}")
    deadline = time.monotonic() + seconds
    if isinstance(plan, (list, tuple)) and len(plan) > max_actions:
        message = f"the plan has {len(plan):,} actions, over the limit of {max_actions:,} actions"
        return PlanVerdict(False, FailureKind.PLAN_SYNTAX, message, max_actions, "syntax")
    syntax = check_syntax(plan, problem)
    if not syntax.valid:
        return PlanVerdict(False, FailureKind.PLAN_SYNTAX, syntax.message, syntax.step, "syntax")
    lines = syntax.lines  # VAL checks the plan as the program wrote it
    notice = None
    if checker != "simulator":
        if len(lines) >= VAL_MAX_STEPS:
            notice = LONG_PLAN_NOTICE
        elif val_path() is None:
            notice = MISSING_VAL_NOTICE
        else:
            result = run_val(
                domain_file(problem.domain),
                problem_file(problem),  # its own file where it has one, else written once
                lines,
                timeout=max(deadline - time.monotonic(), 0.1),
            )
            if result.ok:
                kind = None if result.valid else FailureKind.PLAN_SEMANTICS
                cost = plan_cost(problem, syntax.actions) if result.valid else None
                return PlanVerdict(result.valid, kind, result.advice, result.failing_step, "val", cost=cost)
            notice = f"{NOTICE_PREFIX}VAL failed ({_last_words(result)})"
        if checker == "val":
            reason = notice.removeprefix(NOTICE_PREFIX)
            raise ValidatorError(f"VAL gave no verdict: {reason}; use --checker auto or simulator")
    else:
        notice = ASKED_NOTICE
    try:
        simulated = simulate(problem, syntax.actions, deadline=deadline)
    except CheckDeadlinePassed as late:
        message = (
            f"the plan of {len(lines):,} actions could not be checked within {seconds:g} s "
            f"(stopped at step {late.step + 1})"
        )
        return PlanVerdict(False, FailureKind.TIMEOUT, message, None, "simulator", notice)
    kind = None if simulated.valid else FailureKind.PLAN_SEMANTICS
    cost = plan_cost(problem, syntax.actions) if simulated.valid else None
    return PlanVerdict(
        simulated.valid, kind, simulated.advice, simulated.failing_step, "simulator", notice, cost
    )


def _last_words(result: ValResult) -> str:
    words = result.advice.strip().splitlines() or result.output.strip().splitlines() or ["no output"]
    return words[-1].strip()


def plan_to_text(actions: Sequence[str]) -> str:
    """The standard plan-file format: one action per line, as Fast Downward's ``sas_plan``."""
    return "".join(f"{action.strip()}\n" for action in actions)


def read_plan_file(path: Path | str) -> list[str]:
    """Actions of a plan file: blank lines and ``;`` comments skipped.

    Raises:
        PddlError: the file cannot be read or is not UTF-8 text (names the file and line).
    """
    return [action for _, action in read_plan_lines(path)]


_TIMED_STEP = re.compile(r"\d+(?:\.\d*)?\s*:\s*(\(.*\))\s*(?:\[\s*\d+(?:\.\d*)?\s*\])?")
"""A step of VAL's timed plan format, ``0.000: (move a b) [1.000]`` (LPG, OPTIC, POPF, TFD)."""


def read_plan_lines(path: Path | str) -> list[tuple[int, str]]:
    """``(line number, action)`` of every action of a plan file (1-based lines; blank lines and
    ``;`` comments skipped), so messages can name the line of a failing step.

    Both plan formats VAL reads are accepted: one action per line, ``(move a b)``, and the timed
    format, ``0.000: (move a b) [1.000]``, whose start time and duration are dropped (steps are
    taken in file order).

    Raises:
        PddlError: the file cannot be read or is not UTF-8 text (names the file and line).
    """
    text = read_pddl_file(Path(path), "plan")
    lines = [
        (number, line.split(";", 1)[0].strip()) for number, line in enumerate(text.splitlines(), start=1)
    ]
    return [(number, _untimed(action)) for number, action in lines if action]


def _untimed(line: str) -> str:
    timed = _TIMED_STEP.fullmatch(line)
    return timed.group(1) if timed else line
