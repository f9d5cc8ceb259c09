"""A scripted language model for tests: canned answers in order, every request kept.

A test double, never a result: nothing it produces is a model's output.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence

from genplan.llm.base import Completion, LLMError, Message, Usage

Scripted = str | Callable[[list[Message]], str]
"""A scripted answer: a text, or a function of the request's messages that returns the text
(for answers that depend on what the prompt shows, e.g. which option holds an action)."""


class FakeLanguageModel:
    """Answers each request with the next scripted answer (see :data:`Scripted`).

    Attributes:
        history: the message list of every request, in order.
        samples: the ``sample`` of every request, in order (answers follow the script
            whatever the sample).
    """

    name = "fake"

    def __init__(self, responses: Iterable[Scripted] = (), model: str = "fake"):
        self.model = model
        self._responses: deque[Scripted] = deque(responses)
        self._scripted = len(self._responses)
        self.history: list[list[Message]] = []
        self.samples: list[int] = []

    def enqueue(self, *texts: Scripted) -> None:
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
        scripted = self._responses.popleft()
        text = scripted if isinstance(scripted, str) else scripted(list(messages))
        prompt_tokens = sum(len(m.content.split()) for m in messages)
        return Completion(text, Usage(prompt_tokens, len(text.split())), self.model)
