"""Running a program on one problem and judging the result: the checks of Sec. 4.2.

Used both by automated debugging (training problems) and by evaluation. A program is run in
the sandbox with a time budget; its output, if any, goes through the plan checker (syntax
first, then VAL or the simulator). The plan check runs *outside* the program's time budget
(the paper's code ran VAL inside it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from genplan.approaches.generalized_plan import prompts
from genplan.pddl.problem import Problem
from genplan.plans.failures import FailureKind
from genplan.plans.untrusted_text import shown_block
from genplan.plans.validate import PlanVerdict, check_plan
from genplan.runs.record import ProblemResult, found_plan
from genplan.sandbox import IsolationUnavailable, Limits, RunOutcome, RunStatus, run_program

_STATUS_KIND = {
    RunStatus.RAISED: FailureKind.PYTHON_EXCEPTION,
    RunStatus.TIMED_OUT: FailureKind.TIMEOUT,
    RunStatus.CRASHED: FailureKind.CRASHED,
}


@dataclass(frozen=True)
class ProblemCheck:
    """How a program did on one problem.

    Attributes:
        problem: the problem's name.
        failure: ``None`` when the program returned a valid plan, else the kind of failure.
        outcome: the sandbox's :class:`~genplan.sandbox.RunOutcome`.
        verdict: the plan checker's verdict when the program returned something, else ``None``.
    """

    problem: str
    failure: FailureKind | None
    outcome: RunOutcome
    verdict: PlanVerdict | None

    @property
    def solved(self) -> bool:
        """Whether the program returned a valid plan."""
        return self.failure is None

    @property
    def seconds(self) -> float:
        """Wall-clock seconds ``get_plan`` ran (up to the budget for a time-out)."""
        return self.outcome.seconds

    @property
    def plan_length(self) -> int | None:
        """Number of actions returned, or ``None`` when no list of strings came back."""
        return len(self.outcome.plan) if self.outcome.plan is not None else None

    def to_result(self, key: str, problem: Problem, plan: Sequence[str] | None = None) -> ProblemResult:
        """This check as a record's result for the problem keyed ``key``: status, seconds (the
        worker's clock), plan length, message, who checked the plan, and a valid plan kept for
        ``problem`` as ``plan`` (default: the plan as returned; give a No Names program's plan
        in ``problem``'s own names)."""
        data = self.to_json()
        actions = plan if plan is not None else self.outcome.plan
        return ProblemResult(
            problem=key,
            status=data["status"],
            plan_length=data["plan_length"],
            seconds=self.seconds,
            message=data["message"],
            plan_cost=data["plan_cost"],
            checked_by=data["checked_by"],
            check_note=data["check_note"],
            plan=found_plan(problem, self.verdict, actions) if self.verdict is not None else None,
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (no plan text): status, seconds, plan length, plan cost, message,
        and who checked the plan (``checked_by``, ``check_note``: see
        :class:`~genplan.runs.record.ProblemResult`)."""
        message = None
        if self.verdict is not None and not self.verdict.valid:
            message = self.verdict.message
        elif self.outcome.status is not RunStatus.SUCCESS:
            message = self.outcome.reason or self.outcome.traceback
        return {
            "problem": self.problem,
            "status": "solved" if self.failure is None else self.failure.value,
            "seconds": round(self.seconds, 6),
            "plan_length": self.plan_length,
            "plan_cost": self.verdict.cost if self.verdict is not None else None,
            "message": message,
            "checked_by": self.verdict.checker_used if self.verdict is not None else None,
            "check_note": self.verdict.simulator_reason if self.verdict is not None else None,
        }


def check_program(
    program: str,
    problem: Problem,
    *,
    timeout: float,
    limits: Limits,
    order_seed: int | None = None,
) -> ProblemCheck:
    """Run ``program``'s ``get_plan`` on ``problem`` in the sandbox and check the plan.

    Args:
        program: Python source defining ``get_plan(objects, init, goal)``.
        problem: the problem to solve.
        timeout: the program's budget in seconds (the paper's 30 s, Sec. 4.2).
        limits: the sandbox's limits and isolation (default: :class:`~genplan.sandbox.Limits`).
        order_seed: shuffle the order the program's sets are built in (robustness checks;
            see :func:`genplan.sandbox.run_program`).

    Returns:
        A :class:`ProblemCheck`; a failure kind of ``PLAN_SYNTAX`` also covers output that is
        not a list of strings. This is the error boundary of running a model's program: any
        other error raised while the program is run or its plan checked (by the worker, the
        guards, the plan checker, anticipated or not) is a ``PYTHON_EXCEPTION`` failure whose
        message (capped and escaped) becomes the model's feedback, never a traceback that ends
        the run.

    Raises:
        IsolationUnavailable: the sandbox cannot start (the message says how to enable it).
    """
    try:
        return _check_program(program, problem, timeout, limits, order_seed)
    except IsolationUnavailable:
        raise  # the machine's set-up, not the program: the run stops with the message
    except Exception as error:
        return ProblemCheck(problem.name, FailureKind.PYTHON_EXCEPTION, _failed_run(error), None)


def _failed_run(error: Exception) -> RunOutcome:
    """An error genplan raised while running or checking a program, as a ``RAISED`` outcome."""
    try:
        detail = str(error)
    except Exception:
        detail = "(its message could not be read)"
    text = f"{type(error).__name__}: {detail}" if detail else type(error).__name__
    message = shown_block(
        f"genplan could not run this program or check its plan: {text}\n"
        "(an error in running the program, not a traceback of the program itself)"
    )
    return RunOutcome(RunStatus.RAISED, traceback=message, reason=message)


def _check_program(
    program: str, problem: Problem, timeout: float, limits: Limits, order_seed: int | None
) -> ProblemCheck:
    outcome = run_program(
        program,
        problem.objects,
        problem.init,
        problem.goal,
        timeout=timeout,
        limits=limits,
        order_seed=order_seed,
        reuse_for=problem,  # packed once per problem, for every program run on it
    )
    if outcome.status in _STATUS_KIND:
        return ProblemCheck(problem.name, _STATUS_KIND[outcome.status], outcome, None)
    if outcome.status is RunStatus.BAD_OUTPUT:
        # The child already judged the shape (only a repr of the output came back).
        reason = outcome.reason or "the plan must be a list of strings"
        verdict = PlanVerdict(False, FailureKind.PLAN_SYNTAX, reason, None, "syntax")
        return ProblemCheck(problem.name, FailureKind.PLAN_SYNTAX, outcome, verdict)
    verdict = check_plan(problem, outcome.plan, seconds=timeout)  # its own deadline: the budget
    return ProblemCheck(problem.name, None if verdict.valid else verdict.kind, outcome, verdict)


def feedback_for(check: ProblemCheck, problem: Problem) -> str:
    """The paper's feedback message for a failed check (Sec. 4.2), showing the problem."""
    verdict = check.verdict
    keep: set[str] = set()
    plan = check.outcome.plan
    if (
        verdict is not None
        and plan
        and verdict.failing_step is not None
        and 0 <= verdict.failing_step < len(plan)
    ):
        keep = set(plan[verdict.failing_step].strip("() ").lower().split()[1:])
    task = prompts.task_text_for_feedback(problem, keep)
    outcome = check.outcome
    if check.failure is FailureKind.PYTHON_EXCEPTION:
        return prompts.exception_feedback(task, outcome.traceback or outcome.reason or "")
    if check.failure is FailureKind.TIMEOUT:
        return prompts.timeout_feedback(task, outcome.traceback, outcome.seconds)
    if check.failure is FailureKind.CRASHED:
        return prompts.crash_feedback(task, outcome.reason or "the process died")
    assert verdict is not None
    if check.failure is FailureKind.PLAN_SYNTAX:
        shown = prompts.plan_display(outcome.plan) if outcome.plan is not None else (outcome.output or "")
        return prompts.syntax_feedback(task, shown, verdict.message, problem.domain.valid_operators_text())
    return prompts.semantics_feedback(task, outcome.plan or [], verdict.message)


def check_training(
    program: str, problems: Sequence[Problem], timeout: float, limits: Limits
) -> tuple[int, ProblemCheck | None, Problem | None]:
    """Run ``program`` on ``problems`` in order until the first failure.

    Returns:
        ``(passed, failed check or None, failed problem or None)``.
    """
    for index, problem in enumerate(problems):
        check = check_program(program, problem, timeout=timeout, limits=limits)
        if not check.solved:
            return index, check, problem
    return len(problems), None, None
