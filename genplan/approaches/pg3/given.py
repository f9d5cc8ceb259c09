"""Evaluating a given policy: ``genplan evaluate --policy`` as an approach on the run seam.

A lifted decision list learned before (``policy.txt`` of a ``pg3``, ``pe`` or ``pc`` run) is
executed on every evaluation problem and every plan is checked, as PG3's own evaluation does
(:func:`~genplan.approaches.pg3.approach.evaluate_policy`), the books kept by the run session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from genplan.approaches.base import Approach, ModelCode, ProblemResult, RunRecord, RunSession
from genplan.approaches.pg3.approach import evaluate_policy
from genplan.approaches.pg3.policy import parse_policy
from genplan.errors import ConfigurationError
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems


@dataclass(frozen=True)
class GivenPolicySettings:
    """What to evaluate.

    Attributes:
        policy: the decision list's file (``policy.txt``).
    """

    policy: Path | None = field(
        default=None,
        metadata={"help": "a lifted decision list (policy.txt of a pg3, pe or pc run) to execute"},
    )


class GivenPolicy(Approach[DomainProblems, GivenPolicySettings]):
    """A given decision list, executed on every evaluation problem (``genplan evaluate
    --policy``): no model is asked and no model code runs."""

    name: ClassVar[str] = "evaluate-policy"
    summary: ClassVar[str] = "a given lifted decision list, executed on the evaluation problems"
    settings_type: ClassVar[type] = GivenPolicySettings
    model_code: ClassVar[ModelCode] = ModelCode.NONE
    asks_model: ClassVar[bool] = False

    def label(self, settings: GivenPolicySettings) -> str:
        """``evaluate-policy``: the policy's path is a setting, not a name."""
        return self.name

    def solve(
        self, session: RunSession, problems: DomainProblems, settings: GivenPolicySettings
    ) -> RunRecord:
        """Execute the policy on every evaluation problem, ``workers`` at once, and check every plan.

        Raises:
            ConfigurationError: no policy given, or the file cannot be read or is not a decision
                list for the domain.
        """
        if settings.policy is None:
            raise ConfigurationError("evaluate-policy needs a policy (--policy FILE)")
        try:
            text = settings.policy.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ConfigurationError(f"cannot read the policy {settings.policy}: {error}") from error
        policy = parse_policy(text, problems.domain, str(settings.policy))
        timeout = session.context.eval_timeout

        def solve(problem: Problem, key: str) -> ProblemResult:
            return evaluate_policy(policy, problem, key, timeout)

        results = session.solve_each(problems.evaluation, solve)
        return session.close(results, details={"policy": str(settings.policy)})
