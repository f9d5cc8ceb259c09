"""The model of a run that asks none (PG3, PE and PC learn a policy without a language model)."""

from __future__ import annotations

from collections.abc import Sequence

from genplan.llm.base import Completion, LLMError, Message

NO_MODEL = "none"
"""The model and backend name recorded for a run that asks no model."""


class NoModel:
    """A language model that is never asked: a run of an approach that declares it asks no model
    (:attr:`genplan.approaches.base.Approach.asks_model` false) gets this one, and its record
    shows model and backend ``none``, 0 calls and 0 tokens."""

    name = NO_MODEL
    model = NO_MODEL

    def complete(self, messages: Sequence[Message], *, sample: int = 0) -> Completion:
        """Never answers.

        Raises:
            LLMError: always (an approach that asks no model asked one).
        """
        raise LLMError("this run has no language model: its approach declares that it asks none")
