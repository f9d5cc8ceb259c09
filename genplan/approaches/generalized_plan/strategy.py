"""The strategy check before code (``--check-strategy``): the model follows its own strategy by hand.

After the strategy proposal (Silver et al. 2024, Sec. 4.1) and before any code, the model is
shown one training problem in full and asked to follow its strategy step by step and write the
plan it produces. The plan is checked like a program's (:func:`genplan.plans.validate.check_plan`:
syntax, then VAL); an invalid plan comes back with VAL's advice and a request to revise the
strategy and write the plan again, up to a number of revisions (strategy refinement, Stein et
al. 2025). A malformed answer (no plan in it) is feedback too, never a crash. The problem
checked is the largest prompt problem small enough to show in full (else the smallest).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from genplan.approaches.generalized_plan import prompts
from genplan.approaches.generalized_plan import refinement_prompts as texts
from genplan.pddl.problem import Problem
from genplan.plans.failures import FailureKind
from genplan.plans.validate import check_plan

_FENCE = re.compile(r"```([^\n`]*)\n(.*?)```", re.DOTALL)
_ACTION = re.compile(r"\(\s*[^()\s][^()]*\)")
_INLINE_CODE = re.compile(r"`([^`\n]*)`")
MESSAGE_LIMIT = 2000
"""Characters of VAL's advice kept in a revision request."""


def extract_plan(answer: str) -> list[str] | None:
    """The plan in a model's answer: the actions of its last ```plan block, else of its last
    fenced block that holds actions, else of the whole text; one action per line (the first
    parenthesised group of each line, so numbering and comments around it are ignored).

    Returns:
        The actions, or ``None`` when the answer holds none.
    """
    blocks = _FENCE.findall(answer)
    plan_blocks = [body for info, body in blocks if info.strip().lower() == "plan"]
    action_blocks = [body for _, body in blocks if _ACTION.search(body)]
    text = (plan_blocks or action_blocks or [answer])[-1]
    actions = []
    for line in text.splitlines():
        found = _ACTION.search(_INLINE_CODE.sub(r"\1", line).split(";", 1)[0])
        if found:
            actions.append("(" + " ".join(found.group(0)[1:-1].split()) + ")")
    return actions or None


def checked_problem(examples: Sequence[Problem]) -> Problem:
    """The prompt problem the strategy is followed on: the largest shown in full, else the smallest."""
    small = [p for p in examples if len(p.init) + len(p.goal) <= prompts.FULL_TASK_ATOM_LIMIT]
    if small:
        return max(small, key=lambda p: (len(p.init) + len(p.goal), len(p.objects)))
    return min(examples, key=lambda p: (len(p.init) + len(p.goal), len(p.objects)))


@dataclass(frozen=True)
class StrategyCheck:
    """One plan the model wrote by following its strategy.

    Attributes:
        round: 0 for the first plan, ``k`` after ``k`` revisions.
        problem: the problem followed.
        plan_length: actions in the plan, or ``None`` when the answer held no plan.
        valid: whether VAL found the plan valid.
        failure: ``PLAN_SYNTAX``/``PLAN_SEMANTICS`` for an invalid plan, ``NO_CODE`` is never
            used; ``None`` when valid or when no plan was found.
        message: VAL's advice or the syntax error (empty when valid).
    """

    round: int
    problem: str
    plan_length: int | None
    valid: bool
    failure: FailureKind | None
    message: str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "round": self.round,
            "problem": self.problem,
            "plan_length": self.plan_length,
            "valid": self.valid,
            "failure": self.failure.value if self.failure else None,
            "message": self.message,
        }


def check_strategy(
    ask: Callable[[str], str], examples: Sequence[Problem], revisions: int
) -> list[StrategyCheck]:
    """Ask for the plan the strategy gives, check it, and ask for revisions while it is invalid.

    Args:
        ask: sends a user message in the conversation and returns the answer.
        examples: the problems shown in the first prompt (one of them is followed).
        revisions: revision requests at most (each asks for a revised strategy and its plan).

    Returns:
        One :class:`StrategyCheck` per plan asked for, in order; the last is valid unless the
        revisions ran out.

    Raises:
        genplan.llm.LLMError: the backend failed.
    """
    problem = checked_problem(examples)
    request = texts.strategy_check_prompt(prompts.problem_text(problem, limit=None))
    checks: list[StrategyCheck] = []
    for round_index in range(revisions + 1):
        plan = extract_plan(ask(request))
        if plan is None:
            checks.append(
                StrategyCheck(round_index, problem.name, None, False, None, "no plan in the answer")
            )
            request = texts.strategy_no_plan_prompt()
            continue
        verdict = check_plan(problem, plan)
        message = verdict.message.strip()[:MESSAGE_LIMIT]
        checks.append(
            StrategyCheck(round_index, problem.name, len(plan), verdict.valid, verdict.kind, message)
        )
        if verdict.valid:
            break
        operators = problem.domain.valid_operators_text() if verdict.kind is FailureKind.PLAN_SYNTAX else None
        request = texts.strategy_revision_prompt(message, operators)
    return checks
