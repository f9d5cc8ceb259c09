"""One problem's session: the world model, the counted model, and what the method records.

Every LLM-as-planner method is a function ``method(session) -> Outcome``; the session gives it
the problem's world model (:class:`~genplan.plans.world_model.WorldModel`, with its meter), the
model behind a per-problem counter, a seeded random source, the task's prompt text, and where
to note feedback and trace events. :func:`~genplan.approaches.planners.runner.run_planner` makes
one session per problem.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from genplan.approaches.planners.prompts import Task
from genplan.llm import CountingModel, Message
from genplan.pddl.problem import Problem
from genplan.plans.world_model import WorldModel

T = TypeVar("T")
R = TypeVar("R")

SOLVED_BY_METHOD = "solved"
BUDGET_EXHAUSTED = "budget-exhausted"
"""The world-model query budget ran out before the goal was reached (Gonzalez-Pumariaga et al., Sec. 4.1)."""
STEP_LIMIT = "step-limit"
"""The method's decisions (LLM steps, iterations) ran out before the goal was reached."""
NO_PLAN = "no-plan"
"""The method stopped without a plan: its frontier emptied, every branch was pruned, or the
model's answer held no plan (I/O)."""


@dataclass
class Outcome:
    """What a method returns for one problem.

    Attributes:
        plan: the plan found (PDDL action strings), or ``None``; it is checked like any other
            plan before the problem counts as solved.
        status: :data:`SOLVED_BY_METHOD` when the method believes ``plan`` reaches the goal, else
            the failure (:data:`BUDGET_EXHAUSTED`, :data:`STEP_LIMIT`, :data:`NO_PLAN`).
        message: a line on why, for failures.
    """

    plan: list[str] | None
    status: str
    message: str | None = None


@dataclass
class Session:
    """What a method has for one problem.

    Attributes:
        problem: the problem.
        key: the problem's key in records.
        world: its world model (budget set by the method's settings).
        model: the run's model behind this problem's counter.
        task: the problem's prompt text.
        rng: a random source seeded by the run's seed and the problem's key.
        parallel: whether independent requests may be sent at once.
        feedback: feedback messages sent to the model, by kind.
        trace: events (JSON-ready dicts) written to ``traces.jsonl``.
        details: method-specific figures for the problem's result.
    """

    problem: Problem
    key: str
    world: WorldModel
    model: CountingModel
    task: Task
    rng: random.Random
    parallel: bool = False
    feedback: Counter[str] = field(default_factory=Counter)
    trace: list[dict[str, Any]] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def ask(self, messages: Sequence[Message], sample: int = 0) -> str:
        """The model's answer to ``messages`` (independent sample ``sample``).

        Raises:
            LLMError: the backend failed.
        """
        return self.model.complete(messages, sample=sample).text

    def prompt(self, text: str, sample: int = 0) -> str:
        """The answer to a one-message conversation ``text``."""
        return self.ask([Message("user", text)], sample)

    def gather(self, function: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """``[function(item) for item in items]``, at once when :attr:`parallel` (results keep
        the order of ``items``; with the ``files`` backend the prompts are pending together)."""
        if not self.parallel or len(items) < 2:
            return [function(item) for item in items]
        with ThreadPoolExecutor(max_workers=len(items)) as pool:
            return list(pool.map(function, items))

    def note(self, event: str, **fields: Any) -> None:
        """Append a trace event."""
        self.trace.append({"event": event, **fields})
