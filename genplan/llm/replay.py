"""Answering from a recorded conversation (``--llm replay:PATH``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from genplan.llm.base import Completion, LLMError, Message
from genplan.llm.recording import read_recording


def _excerpt(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + " ..."


class ReplayModel:
    """Answers each request with the recorded response to the identical message list (and sample).

    Raises (from :meth:`complete`):
        LLMError: the request is not in the recording; the message names the first message
            that differs from the closest recorded request.
    """

    name = "replay"

    def __init__(self, path: Path):
        self.path = Path(path)
        self.exchanges = read_recording(self.path)
        self._answers = {(exchange.messages, exchange.sample): exchange for exchange in self.exchanges}

    def complete(self, messages: Sequence[Message], *, sample: int = 0) -> Completion:
        """The recorded answer to exactly ``messages`` (and ``sample``).

        Raises:
            LLMError: no recorded exchange has these messages (names the first difference).
        """
        key = tuple(messages)
        exchange = self._answers.get((key, sample))
        if exchange is not None:
            return Completion(exchange.response, exchange.usage, exchange.model)
        if any(k == key for k, _ in self._answers):
            raise LLMError(f"the recording {self.path} has these messages but not sample {sample}")
        raise LLMError(self._mismatch(key))

    def _mismatch(self, messages: tuple[Message, ...]) -> str:
        if not self.exchanges:
            return f"the recording {self.path} is empty"

        def shared_prefix(exchange_messages: tuple[Message, ...]) -> int:
            count = 0
            for recorded, asked in zip(exchange_messages, messages):
                if recorded != asked:
                    break
                count += 1
            return count

        closest = max(
            self.exchanges, key=lambda e: (shared_prefix(e.messages), -abs(len(e.messages) - len(messages)))
        )
        index = shared_prefix(closest.messages)
        if index < len(messages) and index < len(closest.messages):
            asked, recorded = messages[index], closest.messages[index]
            return (
                f"the request is not in the recording {self.path}: message {index} ({asked.role}) differs from "
                f"recorded exchange {closest.index}.\n  asked:    {_excerpt(asked.content)}\n"
                f"  recorded: {_excerpt(recorded.content)}"
            )
        return (
            f"the request is not in the recording {self.path}: it has {len(messages)} messages; the closest "
            f"recorded exchange ({closest.index}) has {len(closest.messages)} and agrees on the first {index}"
        )
