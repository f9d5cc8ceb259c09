"""Evaluating the final encoding: clingo plans every evaluation problem, VAL checks each plan.

For a PDDL domain, each evaluation problem's facts go to the encoding and clingo searches with
the run's horizon settings and the evaluation time limit (the paper's 30 s); the plan is read
back as PDDL actions and checked by :func:`genplan.plans.validate.check_plan`, like every
approach's plans. For a task in English, the one "evaluation problem" is the task itself: its
main query is solved and the answer compared with the known one (the fewest steps, or no
solution).

Statuses besides ``solved`` and the plan checker's (``plan-syntax``, ``plan-semantics``):
``timeout`` (no plan within the time limit), ``no-plan`` (none up to the largest horizon),
``clingo-error`` (the encoding does not ground, or was rejected), ``crashed`` (clingo ran out of
memory), ``wrong-answer`` (a task in English answered differently from the known answer),
``unchecked`` (a task in English without a known answer).
"""

from __future__ import annotations

from genplan.approaches.asp.interface import AspNames, action_text, problem_facts
from genplan.approaches.asp.settings import AspSettings
from genplan.approaches.asp.solver import Clingo, ClingoResult, ClingoStatus
from genplan.approaches.base import SOLVED, ProblemResult
from genplan.pddl.described import DESCRIPTION_FILE, DescribedTask
from genplan.pddl.problem import Problem
from genplan.plans.validate import check_plan

_FAILED = {
    ClingoStatus.TIMEOUT: "timeout",
    ClingoStatus.UNSAT: "no-plan",
    ClingoStatus.ERROR: "clingo-error",
    ClingoStatus.REJECTED: "clingo-error",
    ClingoStatus.CRASHED: "crashed",
}


def _failure_message(result: ClingoResult, time_limit: float) -> str:
    if result.status is ClingoStatus.UNSAT:
        return f"no plan up to horizon {result.horizon}"
    if result.status is ClingoStatus.TIMEOUT:
        reached = f" (horizons up to {result.horizon} tried)" if result.horizon is not None else ""
        return f"no plan within {time_limit:g} s{reached}"
    return "\n".join(result.messages)


def solve_problem(
    encoding: str,
    problem: Problem,
    key: str,
    names: AspNames,
    settings: AspSettings,
    clingo: Clingo,
    time_limit: float,
) -> ProblemResult:
    """Plan one PDDL problem with the encoding and check the plan."""
    names = names.extended(problem)
    result = clingo.plan(
        encoding,
        problem_facts(problem, names),
        max_horizon=settings.max_horizon,
        time_limit=time_limit,
        growth=settings.horizon_growth,
        distinct=settings.distinct_states,
    )
    details = {"clingo_seconds": round(result.seconds, 6), "horizon": result.horizon}
    seconds = time_limit if result.status is ClingoStatus.TIMEOUT else result.wall_seconds
    if result.status is not ClingoStatus.SAT:
        return ProblemResult(
            key, _FAILED[result.status], None, seconds, _failure_message(result, time_limit), details=details
        )
    plan = [action_text(names.pddl_atom(a.flat)) if a.flat is not None else a.term for a in result.actions]
    return ProblemResult.of_plan(key, problem, plan, check_plan(problem, plan), seconds, details=details)


def evaluate_described(
    encoding: str,
    main_query: str,
    task: DescribedTask,
    settings: AspSettings,
    clingo: Clingo,
    *,
    time_limit: float,
) -> ProblemResult:
    """Solve a task in English (its main query) and compare the answer with the known one."""
    result = clingo.plan(
        encoding,
        "",
        query=main_query,
        max_horizon=settings.max_horizon,
        time_limit=time_limit,
        growth=settings.horizon_growth,
        distinct=settings.distinct_states,
    )
    known = task.answer
    unit = known.unit if known is not None else "steps"
    details: dict[str, object] = {"clingo_seconds": round(result.seconds, 6), "horizon": result.horizon}
    if known is not None:
        details["known_answer"] = known.describe()
    seconds = time_limit if result.status is ClingoStatus.TIMEOUT else result.wall_seconds
    if result.status is ClingoStatus.SAT:
        # Steps, not actions: where a task lets actions share a step (a boat crossing while a
        # missionary walks on water), its known answer counts steps (LLM+AL's BC+ semantics).
        steps = len({action.step for action in result.actions})
        details["answer"] = f"{steps} {unit}"
        details["plan"] = [a.term for a in result.actions]
        if known is None:
            return ProblemResult(
                DESCRIPTION_FILE, "unchecked", steps, seconds, "no known answer", details=details
            )
        if known.steps == steps:
            return ProblemResult(DESCRIPTION_FILE, SOLVED, steps, seconds, None, details=details)
        return ProblemResult(
            DESCRIPTION_FILE,
            "wrong-answer",
            steps,
            seconds,
            f"a plan of {steps} {unit}; known: {known.describe()}",
            details=details,
        )
    if result.status is ClingoStatus.UNSAT:
        answer = details["answer"] = f"no plan up to horizon {result.horizon}"
        if known is None:
            return ProblemResult(DESCRIPTION_FILE, "unchecked", None, seconds, answer, details=details)
        if not known.solvable:
            return ProblemResult(DESCRIPTION_FILE, SOLVED, None, seconds, None, details=details)
        return ProblemResult(
            DESCRIPTION_FILE,
            "wrong-answer",
            None,
            seconds,
            f"{details['answer']}; known: {known.describe()}",
            details=details,
        )
    return ProblemResult(
        DESCRIPTION_FILE,
        _FAILED[result.status],
        None,
        seconds,
        _failure_message(result, time_limit),
        details=details,
    )
