"""A scripted language model for tests: canned answers in order, every request kept.

A test double, never a result: nothing it produces is a model's output.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from genplan.llm.base import Completion, LLMError, Message, Usage


class FakeLanguageModel:
    """Answers each request with the next scripted text.

    Attributes:
        history: the message list of every request, in order.
        samples: the ``sample`` of every request, in order (answers follow the script
            whatever the sample).
    """

    name = "fake"

    def __init__(self, responses: Iterable[str] = (), model: str = "fake"):
        self.model = model
        self._responses: deque[str] = deque(responses)
        self._scripted = len(self._responses)
        self.history: list[list[Message]] = []
        self.samples: list[int] = []

    def enqueue(self, *texts: str) -> None:
        """Add answers to the script."""
        self._responses.extend(texts)
        self._scripted += len(texts)

    def complete(self, messages: Sequence[Message], *, sample: int = 0) -> Completion:
        """The next scripted answer.

        Raises:
            LLMError: the script is used up.
        """
        self.history.append(list(messages))
        self.samples.append(sample)
        if not self._responses:
            raise LLMError(f"the fake model ran out of answers after {self._scripted} scripted ones")
        text = self._responses.popleft()
        prompt_tokens = sum(len(m.content.split()) for m in messages)
        return Completion(text, Usage(prompt_tokens, len(text.split())), self.model)
