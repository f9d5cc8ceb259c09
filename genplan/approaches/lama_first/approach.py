"""LAMA-first behind the :class:`~genplan.approaches.base.Approach` seam: no model, Fast Downward's
``--alias lama-first`` on each evaluation problem within the run's ``--eval-timeout``, each plan
checked like every approach's.

A run lives in ``RUNS/<domain>/lama-first-seed<S>/``: the run record only (no conversation).
Statuses besides ``solved`` (and the checker's ``plan-syntax``, ``plan-semantics``):
``timeout`` (the budget ran out; the planner and every process it started were killed) and
``no-plan`` (the planner stopped without a plan: out of memory, or the problem unsolvable; the
message holds its last lines).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from genplan.approaches.base import Approach, ProblemResult, RunRecord, RunSession
from genplan.errors import ConfigurationError
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems
from genplan.plans.fast_downward import INSTALL_HINT, find_driver, run_planner
from genplan.plans.validate import check_plan

ALIAS = "lama-first"


@dataclass(frozen=True)
class LamaFirstSettings:
    """Settings of the LAMA-first approach.

    Attributes:
        memory_limit: Fast Downward's ``--overall-memory-limit`` per problem (``"8G"``, the
            IPC 2023 learning track's limit).
    """

    memory_limit: str = field(default="8G", metadata={"help": "Fast Downward's memory limit per problem"})


class LamaFirst(Approach[DomainProblems, LamaFirstSettings]):
    """Fast Downward's LAMA-first on each evaluation problem; asks no model, runs no model code."""

    name: ClassVar[str] = "lama-first"
    summary: ClassVar[str] = "no model: Fast Downward's LAMA-first on each problem (the planner baseline)"
    settings_type: ClassVar[type] = LamaFirstSettings
    asks_model: ClassVar[bool] = False

    def solve(self, session: RunSession, problems: DomainProblems, settings: LamaFirstSettings) -> RunRecord:
        """Plan each evaluation problem and check each plan.

        Raises:
            ConfigurationError: Fast Downward is not installed (says how to install it).
        """
        driver = find_driver()
        if driver is None:
            raise ConfigurationError(f"the lama-first approach needs Fast Downward: {INSTALL_HINT}")
        budget = session.context.eval_timeout

        def one(problem: Problem, key: str) -> ProblemResult:
            run = run_planner(
                problem,
                driver,
                options=["--alias", ALIAS],
                timeout=budget,
                memory_limit=settings.memory_limit,
            )
            if run.plan is None:
                status = "timeout" if run.timed_out else "no-plan"
                return ProblemResult(key, status, None, run.seconds, run.message or None)
            return ProblemResult.of_plan(key, problem, run.plan, check_plan(problem, run.plan), run.seconds)

        results = session.solve_each(problems.evaluation, one)
        return session.close(results, details={"planner": ALIAS, "seconds_per_problem": budget})
