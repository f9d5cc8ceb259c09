"""Counting the calls and tokens of one part of a run (one problem, one phase).

Approaches that call the model per problem (the LLM-as-planner methods) report LLM calls and
tokens per problem; they wrap the run's recording model in one :class:`CountingModel` per
problem. The run's totals stay with the :class:`~genplan.llm.recording.RecordingModel` below.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from genplan.llm.base import Completion, LanguageModel, Message, Usage


class CountingModel:
    """Passes requests to ``inner`` and counts them; safe to call from several threads.

    Attributes:
        calls: answers received (cached ones included).
        prompt_tokens / completion_tokens: totals, or ``None`` once any answer came without a
            count (the ``files`` and ``manual`` backends report none).
        prompt_characters: characters of every message sent (a size that every backend has).
    """

    def __init__(self, inner: LanguageModel):
        self.inner = inner
        self.name = inner.name
        self.calls = 0
        self.prompt_tokens: int | None = 0
        self.completion_tokens: int | None = 0
        self.prompt_characters = 0
        self._lock = threading.Lock()

    def complete(self, messages: Sequence[Message], *, sample: int = 0) -> Completion:
        """The inner model's answer, counted.

        Raises:
            LLMError: as the inner model (a failed request is not counted).
        """
        completion = self.inner.complete(messages, sample=sample)
        with self._lock:
            self.calls += 1
            self.prompt_characters += sum(len(message.content) for message in messages)
            total = Usage(self.prompt_tokens, self.completion_tokens).plus(completion.usage)
            self.prompt_tokens, self.completion_tokens = total.prompt_tokens, total.completion_tokens
        return completion
