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
import os
import random
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from genplan.approaches.base import (
    CONVERSATION_FILE,
    METADATA_FILE,
    RESULTS_FILE,
    SOLVED,
    ProblemResult,
    RunContext,
    RunRecord,
    found_plan,
    problem_key,
    settings_to_json,
    today,
    write_record,
)
from genplan.approaches.planners.prompts import Task
from genplan.approaches.planners.session import BUDGET_EXHAUSTED, NO_PLAN, SOLVED_BY_METHOD, Outcome, Session
from genplan.llm import ConversationRecorder, CountingModel, LanguageModel, RecordingModel
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems
from genplan.plans.validate import check_plan
from genplan.plans.world_model import BudgetExhausted, WorldModel

TRACES_FILE = "traces.jsonl"

Method = Callable[[Session], Outcome]


def default_workers() -> int:
    """Problems solved at once by default: the usable cores."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _sum(values: list[int | None]) -> int | None:
    return None if any(v is None for v in values) else sum(v for v in values if v is not None)


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
    found = None
    if outcome.plan is not None:
        verdict = check_plan(problem, outcome.plan)
        found = found_plan(problem, verdict, outcome.plan)
        if verdict.valid:
            status, message = SOLVED, None
        else:
            status, message = (verdict.kind.value if verdict.kind else "invalid-plan"), verdict.message
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
    result = ProblemResult(
        problem=key,
        status=status,
        plan_length=plan_length,
        seconds=time.perf_counter() - start,
        message=message,
        llm_calls=session.model.calls,
        world_model_queries=session.world.queries if uses_world_model else None,
        details=details,
        plan_cost=found.cost if found else None,
        plan=found,
    )
    return result, session


def run_planner(
    approach: str,
    label: str,
    problems: DomainProblems,
    model: LanguageModel,
    settings: Any,
    context: RunContext,
    method: Method,
    *,
    budget: int | None,
    uses_world_model: bool = True,
    details: dict[str, Any] | None = None,
) -> RunRecord:
    """Run ``method`` on every evaluation problem of ``problems``; write and return the record.

    Args:
        approach: the registered approach name.
        label: the run's label.
        problems: the problem set (optimal lengths, where known, go into each result).
        model: the run's model (recorded here).
        settings: the approach's settings (recorded).
        context: run folder, seed, names, workers, progress.
        method: the method, called once per problem.
        budget: world-model queries per problem, or ``None``.
        uses_world_model: ``False`` for methods that never query it (I/O): their results and
            record say ``None`` queries.
        details: run-level figures for the record's ``details``.

    Raises:
        LLMError: the backend failed; the run folder keeps the conversation recorded so far.
    """
    folder = context.folder
    folder.mkdir(parents=True, exist_ok=True)
    conversation = folder / CONVERSATION_FILE
    conversation.unlink(missing_ok=True)
    recording = RecordingModel(model, ConversationRecorder(conversation), context.backend_name)
    evaluation = list(problems.evaluation)
    workers = max(1, min(context.workers or default_workers(), len(evaluation) or 1))
    date = today()
    context.progress.start_problems(len(evaluation))

    def solve(problem: Problem) -> tuple[ProblemResult, Session]:
        key = problem_key(problem, problems.root)
        outcome = solve_problem(
            problem,
            key,
            method,
            recording,
            budget=budget,
            seed=context.seed,
            parallel=workers > 1,
            optimal_length=problems.optimal_lengths.get(key),
            uses_world_model=uses_world_model,
        )
        context.progress.problem_done(outcome[0])
        return outcome

    if workers == 1:
        solved = [solve(problem) for problem in evaluation]
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            solved = list(pool.map(solve, evaluation))
    results = [result for result, _ in solved]
    with (folder / TRACES_FILE).open("w", encoding="utf-8") as stream:
        for result, session in solved:
            stream.write(json.dumps({"problem": result.problem, "trace": session.trace}) + "\n")
    feedback: Counter[str] = Counter()
    for _, session in solved:
        feedback.update(session.feedback)
    record = RunRecord(
        approach=approach,
        label=label,
        settings=settings_to_json(settings),
        domain=problems.name,
        seed=context.seed,
        model=context.model_name,
        backend=context.backend_name,
        date=date,
        problems=results,
        llm_calls=sum(r.llm_calls or 0 for r in results),
        prompt_tokens=_sum([r.details.get("prompt_tokens") for r in results]),
        completion_tokens=_sum([r.details.get("completion_tokens") for r in results]),
        feedback=dict(sorted(feedback.items())),
        world_model_queries=sum(r.world_model_queries or 0 for r in results) if uses_world_model else None,
        artifacts=[CONVERSATION_FILE, TRACES_FILE, METADATA_FILE, RESULTS_FILE],
        details={
            "problem_set": problems.selection or "default",
            "budget": budget,
            "workers": workers,
            **(details or {}),
        },
        problem_set=problems.problem_set,
        generators=problems.generators,
    )
    write_record(folder, record)
    return record
