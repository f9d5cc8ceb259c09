"""Prompts beyond the paper's protocol, as pure text builders: strategy check, reflection, scaling.

Each is behind a setting of :class:`~genplan.approaches.generalized_plan.synthesize.SynthesisSettings`
whose default is the paper's protocol (Silver et al., AAAI 2024), so each is an ablation:

* the strategy check (``--check-strategy``): after the strategy proposal, the model follows its
  own strategy by hand on one training problem and writes the plan, which VAL checks; an
  invalid plan comes back with VAL's advice and a request to revise the strategy (strategy
  refinement, Stein et al. 2025, *Improved Generalized Planning with LLMs through Strategy
  Refinement and Reflection*);
* reflection (``--reflect``): every repair request asks first for an explanation of why the
  program failed, then the fix, in one answer (same source);
* scaling feedback (``--scaling-feedback``): a program that solves every training problem but
  whose measured times, extrapolated to the size of the largest evaluation problem, exceed
  the budget, is shown the times, the fitted growth, the projection and its hottest lines.

Every prompt says exactly what to answer and in what form, since a model that answers through
the ``files`` backend sees only the prompt file. Nothing here calls a model or runs code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from genplan.approaches.generalized_plan.prompts import FIX_THE_CODE

PLAN_FORMAT = (
    "every action in order, one per line, each written as (operator-name object ...), inside one "
    "```plan code block"
)

REFLECT_AND_FIX = (
    "Before you fix it, reflect: explain in a few sentences why the code failed on this task (which "
    "assumption of the strategy or which step of the code is wrong), citing what the feedback above "
    "shows. Then fix the code: write the corrected get_plan, with every helper it needs, in one "
    "```python code block."
)

MEASURED_LINES_SHOWN = 12
"""Training problems listed in scaling feedback (the largest ones; the rest are summarised)."""


def strategy_check_prompt(problem_text: str) -> str:
    """Ask the model to follow its strategy by hand on ``problem_text`` and write the plan."""
    return (
        "Before writing any code, check the strategy by hand on this problem (shown in full):\n"
        f"{problem_text}\n\n"
        "Follow the strategy step by step on this problem and write the plan it produces: "
        f"{PLAN_FORMAT}. Write no Python code yet."
    )


def strategy_revision_prompt(message: str, valid_operators: str | None) -> str:
    """The plan the strategy gave is invalid: VAL's advice, and a request to revise the strategy.

    Args:
        message: VAL's plan repair advice, or the syntax error.
        valid_operators: the domain's operators with parameters, shown for a syntax error.
    """
    operators = f"\nNOTE: the valid operators are: {valid_operators}." if valid_operators else ""
    advice = message.strip()
    advice = advice[:1].upper() + advice[1:]
    return (
        f"That plan is not valid. {advice}{operators}\n"
        "Revise the strategy so that it solves this problem and every other problem of the domain, "
        "still without search. State the revised strategy in full; then follow it step by step on the "
        f"same problem and write the plan it produces: {PLAN_FORMAT}. Write no Python code yet."
    )


def strategy_no_plan_prompt() -> str:
    """The answer held no plan: ask for it again, in the expected form."""
    return (
        "The answer did not contain a plan. Follow the strategy step by step on the same problem and "
        f"write the plan it produces: {PLAN_FORMAT}."
    )


def reflective(feedback: str) -> str:
    """``feedback`` with its closing "Fix the code." replaced by the reflect-then-fix request."""
    body = feedback[: -len(FIX_THE_CODE)].rstrip() if feedback.endswith(FIX_THE_CODE) else feedback.rstrip()
    return f"{body}\n{REFLECT_AND_FIX}"


@dataclass(frozen=True)
class MeasuredRun:
    """One timed training run as scaling feedback shows it: problem, size, seconds."""

    problem: str
    objects: int
    init_atoms: int
    seconds: float


@dataclass(frozen=True)
class HotLine:
    """A line of the program and how often it ran on the profiled problem."""

    line: int
    count: int
    text: str


@dataclass(frozen=True)
class Growth:
    """How the program's cost grows: ``basis`` ``"time"`` or ``"work"`` (lines executed),
    ``measure`` in words (``"objects"``), and the fitted exponent."""

    basis: str
    measure: str
    exponent: float


def seconds_text(seconds: float) -> str:
    """Seconds for a person: three significant digits, thousands separated past 1,000."""
    return f"{seconds:,.0f}" if seconds >= 1000 else f"{seconds:.3g}"


def growth_text(exponent: float) -> str:
    """``n^3`` for an exponent near 3 (nearest half), ``n`` near 1, ``constant`` near 0."""
    rounded = round(exponent * 2) / 2
    if rounded <= 0:
        return "about constant"
    if rounded == 1:
        return "about linearly (n^1)"
    return f"about as n^{rounded:g}"


def scaling_feedback(
    runs: Sequence[MeasuredRun],
    growth: Growth,
    target_objects: int,
    target_init_atoms: int,
    projected_seconds: float,
    budget_seconds: float,
    profiled_problem: str | None,
    hot_lines: Sequence[HotLine],
) -> str:
    """Scaling feedback: measured times by size, fitted growth, projection, hottest lines.

    Args:
        runs: the timed training runs, smallest first.
        growth: the fitted growth the projection follows.
        target_objects / target_init_atoms: the size of the largest evaluation problem (sizes
            only: nothing of its content is shown).
        projected_seconds: the extrapolated time at that size.
        budget_seconds: the time limit per problem.
        profiled_problem: the training problem the hot lines come from, or ``None``.
        hot_lines: lines of the program by how often they ran there, most first.
    """
    shown = list(runs)[-MEASURED_LINES_SHOWN:]
    lines = [
        "The code solved every training problem, but it is too slow for the larger problems of this domain, "
        f"which it must also solve within {budget_seconds:g} seconds each.",
        "Measured time of get_plan on the training problems, by size:",
    ]
    if len(shown) < len(runs):
        lines.append(f"  ({len(runs) - len(shown)} smaller problems measured, not listed)")
    lines += [
        f"  {run.problem}: {run.objects} objects, {run.init_atoms} initial atoms: {seconds_text(run.seconds)} s"
        for run in shown
    ]
    what = (
        "The time"
        if growth.basis == "time"
        else "The number of lines of the code executed (and the time with it)"
    )
    lines.append(
        f"{what} grows {growth_text(growth.exponent)}, with n the number of {growth.measure} (fitted exponent "
        f"{growth.exponent:.1f}). The largest problem to solve has {target_objects} objects and {target_init_atoms} "
        f"initial atoms; at this rate get_plan would need about {seconds_text(projected_seconds)} s there, over "
        f"the {budget_seconds:g} s limit."
    )
    if profiled_problem is not None and hot_lines:
        lines.append(f"The lines of the code that ran most often on {profiled_problem}:")
        lines += [f"  line {hot.line} ({hot.count:,} times): {hot.text.strip()}" for hot in hot_lines]
    lines.append(
        "Make get_plan fast enough for such problems while its plans stay valid (for example, index the atoms "
        "once in dictionaries or sets instead of scanning init, goal or all objects inside loops). "
        + FIX_THE_CODE
    )
    return "\n".join(lines)
