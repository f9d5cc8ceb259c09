"""Running an LLM-as-planner approach on hand-written Blocksworld problems with a scripted model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from genplan.approaches import get_approach
from genplan.approaches.base import RunContext, RunRecord
from genplan.llm import FakeLanguageModel, Message
from genplan.pddl.problem_sets import DomainProblems


def run(
    name: str,
    model: FakeLanguageModel,
    folder: Path,
    problems: DomainProblems,
    workers: int = 1,
    **settings: Any,
) -> RunRecord:
    """Run approach ``name`` with ``settings`` (by field name) on ``problems``."""
    approach = get_approach(name)
    return approach.run(
        problems,
        model,
        approach.settings_type(**settings),
        RunContext(folder=folder, model_name="fake", backend_name="fake", workers=workers, eval_timeout=30.0),
    )


def user_texts(model: FakeLanguageModel, request: int) -> str:
    """Every user message of request ``request``, joined."""
    return "\n".join(m.content for m in model.history[request] if m.role == "user")


def last_user(model: FakeLanguageModel, request: int) -> str:
    """The last user message of request ``request``."""
    return [m.content for m in model.history[request] if m.role == "user"][-1]


def option_holding(
    action: str, conclusion: str = '"Conclusion": "Option {k}"', *, exact: bool = False
) -> Any:
    """A scripted answer choosing the option whose actions end with ``action`` (are ``action``,
    comma-separated, when ``exact``)."""

    def answer(messages: list[Message]) -> str:
        lines = [line for line in messages[-1].content.splitlines() if line.startswith('"Option ')]
        for line in lines:
            actions = line.split('"Actions": "', 1)[1].split('"', 1)[0]
            if actions == action if exact else actions.endswith(action):
                k = line.split('"Option ', 1)[1].split('"', 1)[0]
                return '"Comparison": "..."\n' + conclusion.format(k=k)
        raise AssertionError(f"no option ends with {action}: {lines}")

    return answer
