"""PG3, PE and PC as approaches: the adapter between the policy search and a run's books.

The three baselines of Silver et al. (AAAI 2024, Sec. 5.1), from Yang et al., *PG3: Policy-Guided
Planning for Generalized Policy Generation* (IJCAI 2022): a lifted decision list is learned from
the training problems by greedy best-first search in policy space, scored by policy-guided
planning (``pg3``), by the training problems solved by execution (``pe``) or by agreement with a
planner's plans (``pc``, Fast Downward). No model is asked: records show 0 LLM calls and 0
tokens. The learned policy is saved as ``policy.txt`` (``genplan evaluate --policy`` replays
it) and executed on every evaluation problem; each plan is checked like every other plan.

Statuses besides ``solved``: ``plan-semantics`` (the policy's plan does not reach the goal: it
stopped acting, chose an inapplicable action, looped or hit the step bound; the message says
which) and ``timeout`` (execution outlasted the per-problem budget).

Time: ``max_seconds`` bounds the learning from the moment the run starts, set-up included
(:mod:`~genplan.approaches.pg3.learning`); the learned policy is then executed on each training
problem (how many it solves) and each evaluation problem, each execution within the run's
``eval_timeout``. A progress line goes to the run's notes at least every
:data:`~genplan.runs.progress.PROGRESS_SECONDS` seconds while the policy is learned and checked.
The record's details give the seconds of each part (:meth:`PolicySearchApproach.solve`).
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from genplan.approaches.base import (
    Approach,
    ModelCode,
    ProblemResult,
    RunRecord,
    RunSession,
)
from genplan.approaches.pg3.budget import Budget
from genplan.approaches.pg3.execution import Execution, Stop, execute_policy
from genplan.approaches.pg3.learning import SETUP, Learned, learn_policy
from genplan.approaches.pg3.policy import DecisionList, policy_to_text
from genplan.approaches.pg3.settings import PolicySearchSettings
from genplan.errors import ConfigurationError
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems
from genplan.plans.validate import check_plan
from genplan.runs.progress import heartbeat

POLICY_FILE = "policy.txt"
EVALUATION_STEPS = 100_000
"""Step bound when executing the learned policy on an evaluation problem (the time budget is the
run's ``eval_timeout``)."""


def fast_downward_planner(settings: PolicySearchSettings) -> Any:
    """PC's planner from the settings: Fast Downward's LAMA-first or A* with LM-cut, called with
    a problem and the seconds it may take (:data:`~genplan.approaches.pg3.learning.Planner`).

    Raises:
        ConfigurationError: an unknown planner, or Fast Downward is not installed.
    """
    from genplan.plans.fast_downward import INSTALL_HINT, find_driver, run_planner

    options = {"lama-first": (["--alias", "lama-first"], []), "astar": ([], ["--search", "astar(lmcut())"])}
    if settings.planner not in options:
        raise ConfigurationError(f"unknown planner {settings.planner!r}; use lama-first or astar")
    driver = find_driver()
    if driver is None:
        raise ConfigurationError(f"PC's example plans need Fast Downward: {INSTALL_HINT}")
    before, after = options[settings.planner]

    def plan(problem: Problem, seconds: float) -> list[Atom] | None:
        run = run_planner(problem, driver, options=before, search=after, timeout=seconds)
        if run.plan is None:
            return None
        return [tuple(line.strip().strip("()").lower().split()) for line in run.plan]

    return plan


def evaluate_policy(policy: DecisionList, problem: Problem, key: str, timeout: float) -> ProblemResult:
    """Execute ``policy`` on ``problem`` and check the plan it gives (the run's per-problem result)."""
    start = time.perf_counter()
    execution: Execution = execute_policy(policy, problem, EVALUATION_STEPS, deadline=start + timeout)
    seconds = time.perf_counter() - start
    if execution.stop is Stop.TIMEOUT:
        return ProblemResult(key, "timeout", None, seconds, f"execution outlasted {timeout:g} s")
    verdict = check_plan(problem, execution.plan)
    details = {"plan": execution.plan, "stop": execution.stop.value}
    message = f"policy execution stopped ({execution.stop.value}): {verdict.message}"
    return ProblemResult.of_plan(
        key, problem, execution.plan, verdict, seconds, message=message, llm_calls=0, details=details
    )


class PolicySearchApproach(Approach[DomainProblems, PolicySearchSettings]):
    """What PG3, PE and PC share; each subclass names its score. The run session keeps the books
    (folder, record, progress, the parallel loop over evaluation problems); no model is asked."""

    settings_type: ClassVar[type] = PolicySearchSettings
    asks_model: ClassVar[bool] = False
    model_code: ClassVar[ModelCode] = ModelCode.NONE  # policy search is genplan's own code

    def describe(self, record: RunRecord) -> list[str]:
        """The search's figures: candidates scored, seconds (set-up included), why it stopped,
        the policy's size."""
        d = record.details
        seconds = d.get("learning_seconds", d.get("search_seconds", 0))
        setup = f" (set-up {d['setup_seconds']:.1f} s)" if "setup_seconds" in d else ""
        stopped = d.get("search_stop")
        if stopped == SETUP:
            stopped = f"the budget ran out during set-up ({d.get('setup_stopped')}), no search"
        best = d.get("score")
        return [
            f"Policy search ({self.name} score): {d.get('policies_scored')} candidates scored, "
            f"{seconds:.1f} s{setup}, stopped: {stopped}"
            + (f"; best score {best}" if best is not None else ""),
            f"Policy: {d.get('rules')} rules; training problems solved by execution: "
            f"{d.get('training_solved')} of {d.get('training_problems')}",
        ]

    def solve(
        self,
        session: RunSession,
        problems: DomainProblems,
        settings: PolicySearchSettings,
    ) -> RunRecord:
        """Learn a policy from the training problems, save it, evaluate it; close the record.

        The record's details give the seconds the person waited, part by part:
        ``learning_seconds`` (what ``max_seconds`` bounds: set-up and search), of which
        ``setup_seconds`` the set-up and ``search_seconds`` the search, and ``run_seconds``
        (the whole run: learning, the training check and the evaluation). ``search_stop`` is
        ``setup`` when the budget ran out during set-up, and ``setup_stopped`` says where.

        Raises:
            ConfigurationError: a task in English, PC without Fast Downward, or no training problems.
        """
        budget = Budget(settings.max_seconds)  # the run's start: the set-up counts against it
        if not isinstance(problems, DomainProblems):
            raise ConfigurationError(f"{self.name} learns from PDDL training problems, not a task in English")
        training = list(problems.training[:-1] if problems.size_check else problems.training)
        if not training:
            raise ConfigurationError(f"{problems.name}: the policy search needs training problems")
        planner = fast_downward_planner(settings) if self.name == "pc" else None
        session.note(
            f"{self.name}: learning a policy from {len(training)} training problems within "
            f"{settings.max_seconds:g} s, set-up included"
        )
        learned: Learned = learn_policy(
            self.name, training, settings, planner, budget=budget, note=session.note
        )
        search = learned.result
        policy = search.policy
        session.write_text(POLICY_FILE, policy_to_text(policy, problems.domain.name))
        if search.stop == SETUP:
            session.note(
                f"{self.name}: the {settings.max_seconds:g} s budget ran out during set-up "
                f"({learned.setup_stopped}) after {learned.seconds:.1f} s: no search was made, the empty "
                "policy is kept (raise --max-seconds, or train on fewer problems)"
            )
        else:
            session.note(
                f"{self.name}: {len(policy.rules)} rules after {learned.seconds:.1f} s "
                f"(set-up {learned.setup_seconds:.1f} s), stopped: {search.stop}"
            )
        timeout = session.context.eval_timeout
        training_solved = self._training_check(session, policy, training, settings.max_steps, timeout)
        results = session.solve_each(
            list(problems.evaluation), lambda problem, key: evaluate_policy(policy, problem, key, timeout)
        )
        details = {
            "score": search.score,
            "policies_scored": search.scored,
            "policies_expanded": search.expanded,
            "learning_seconds": round(learned.seconds, 3),
            "setup_seconds": round(learned.setup_seconds, 3),
            "search_seconds": round(search.seconds, 3),
            "search_stop": search.stop,
            **({"setup_stopped": learned.setup_stopped} if learned.setup_stopped else {}),
            "rules": len(policy.rules),
            "training_problems": len(training),
            "training_solved": training_solved,
            **({"planner_plans": sum(learned.training_plans)} if learned.training_plans else {}),
            "run_seconds": round(budget.elapsed(), 3),
        }
        return session.close(results, details=details)

    def _training_check(
        self,
        session: RunSession,
        policy: DecisionList,
        training: list[Problem],
        max_steps: int,
        timeout: float,
    ) -> int:
        """Training problems ``policy`` solves by execution, each within ``timeout`` seconds."""
        done = 0

        def status() -> str:
            return (
                f"{self.name}: executing the policy on the training problems, {done} of {len(training)} done"
            )

        solved = 0
        with heartbeat(session.note, status):
            for problem in training:
                deadline = time.perf_counter() + timeout
                solved += execute_policy(policy, problem, max_steps, deadline=deadline).reached_goal
                done += 1
        return solved


class PG3(PolicySearchApproach):
    """PG3: policy search scored by policy-guided planning."""

    name: ClassVar[str] = "pg3"
    summary: ClassVar[str] = "lifted decision list by policy search scored by policy-guided planning (PG3)"


class PE(PolicySearchApproach):
    """PE: policy search scored by the training problems solved by execution."""

    name: ClassVar[str] = "pe"
    summary: ClassVar[str] = "lifted decision list by policy search scored by policy evaluation (PE)"


class PC(PolicySearchApproach):
    """PC: policy search scored by agreement with a planner's plans."""

    name: ClassVar[str] = "pc"
    summary: ClassVar[str] = "lifted decision list by policy search scored by plan comparison (PC)"
