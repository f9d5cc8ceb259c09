"""Running an LLM-as-planner method on every evaluation problem and writing the run record.

The model is called per problem, so LLM calls, tokens and world-model queries are counted per
problem (:class:`~genplan.approaches.base.ProblemResult`) and the run's totals sum them. Problems
are solved in parallel (``context.workers`` at once); within a problem, independent requests
(ToI's state evaluations, SymPlanner's candidates and comparisons) go out together too, so the
``files`` backend has several prompts pending. Every plan is checked with VAL (the simulator
where VAL cannot serve) before the problem counts as solved, as for every approach.

The run folder gets ``conversation.jsonl`` (every exchange, as it happens), ``traces.jsonl``
(per problem: the method's events: actions queried, errors, ratings, choices),
``results.json`` and ``metadata.json``. A rerun answers every prompt from the model cache, so
an interrupted run resumes for free.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from genplan.approaches.base import SOLVED, ProblemResult, RunRecord, RunSession
from genplan.approaches.planners.prompts import Task
from genplan.approaches.planners.session import BUDGET_EXHAUSTED, NO_PLAN, SOLVED_BY_METHOD, Outcome, Session
from genplan.llm import CountingModel, LanguageModel
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems
from genplan.plans.validate import check_plan
from genplan.plans.world_model import BudgetExhausted, WorldModel
from genplan.runs.status import plan_status

TRACES_FILE = "traces.jsonl"

Method = Callable[[Session], Outcome]


def solve_problem(
    problem: Problem,
    key: str,
    method: Method,
    model: LanguageModel,
    *,
    budget: int | None,
    seed: int,
    parallel: bool,
    optimal_length: int | None = None,
    uses_world_model: bool = True,
) -> tuple[ProblemResult, Session]:
    """Run ``method`` on one problem and check its plan.

    Returns:
        The problem's result (status :data:`~genplan.approaches.base.SOLVED` only for a plan
        VAL accepts) and the session (feedback, trace).

    Raises:
        LLMError: the backend failed.
    """
    start = time.perf_counter()
    session = Session(
        problem=problem,
        key=key,
        world=WorldModel(problem, budget),
        model=CountingModel(model),
        task=Task.of(problem),
        rng=random.Random(f"{seed}/{key}"),
        parallel=parallel,
    )
    try:
        outcome = method(session)
    except BudgetExhausted as exhausted:
        outcome = Outcome(None, BUDGET_EXHAUSTED, str(exhausted))
        session.note("budget-exhausted", queries=session.world.queries)
    status, message = outcome.status, outcome.message
    verdict = None
    if outcome.plan is not None:
        verdict = check_plan(problem, outcome.plan)
        status, message = plan_status(verdict)
    elif status == SOLVED_BY_METHOD:
        status, message = NO_PLAN, "the method reported success without a plan"
    plan_length = len(outcome.plan) if outcome.plan is not None else None
    details: dict[str, Any] = dict(session.details)
    details.update(
        prompt_tokens=session.model.prompt_tokens,
        completion_tokens=session.model.completion_tokens,
        prompt_characters=session.model.prompt_characters,
        feedback=dict(sorted(session.feedback.items())),
    )
    if uses_world_model:
        details["queries_reused"] = session.world.reused
    if outcome.plan is not None:
        details["plan"] = list(outcome.plan)
    if optimal_length is not None:
        details["optimal_length"] = optimal_length
        details["optimal"] = status == SOLVED and plan_length == optimal_length
    seconds = time.perf_counter() - start
    counts: dict[str, Any] = {
        "llm_calls": session.model.calls,
        "world_model_queries": session.world.queries if uses_world_model else None,
        "details": details,
    }
    if verdict is not None and outcome.plan is not None:
        return ProblemResult.of_plan(key, problem, outcome.plan, verdict, seconds, **counts), session
    return ProblemResult(key, status, plan_length, seconds, message, **counts), session


def run_planner(
    session: RunSession,
    problems: DomainProblems,
    method: Method,
    *,
    budget: int | None,
    uses_world_model: bool = True,
    details: dict[str, Any] | None = None,
) -> RunRecord:
    """Run ``method`` on every evaluation problem of ``problems``; close the session's record.

    Args:
        session: the run session (folder, recorded model, loop over problems, record).
        problems: the problem set (optimal lengths, where known, go into each result).
        method: the method, called once per problem.
        budget: world-model queries per problem, or ``None``.
        uses_world_model: ``False`` for methods that never query it (I/O): their results and
            record say ``None`` queries.
        details: run-level figures for the record's ``details``.

    Raises:
        LLMError: the backend failed; the run folder keeps the conversation recorded so far.
    """
    evaluation = list(problems.evaluation)
    workers = session.workers(len(evaluation))
    sessions: dict[str, Session] = {}

    def solve(problem: Problem, key: str) -> ProblemResult:
        result, sessions[key] = solve_problem(
            problem,
            key,
            method,
            session.model,
            budget=budget,
            seed=session.context.seed,
            parallel=workers > 1,
            optimal_length=problems.optimal_lengths.get(key),
            uses_world_model=uses_world_model,
        )
        return result

    results = session.solve_each(evaluation, solve)
    traces = "".join(
        json.dumps({"problem": r.problem, "trace": sessions[r.problem].trace}) + "\n" for r in results
    )
    session.write_text(TRACES_FILE, traces)
    feedback: Counter[str] = Counter()
    for result in results:
        feedback.update(sessions[result.problem].feedback)
    return session.close(
        results,
        feedback=dict(sorted(feedback.items())),
        world_model_queries=sum(r.world_model_queries or 0 for r in results) if uses_world_model else None,
        details={
            "problem_set": problems.selection or "default",
            "budget": budget,
            "workers": workers,
            **(details or {}),
        },
    )
