"""The language model interface: messages in, text and token usage out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from genplan.errors import GenplanError

ROLES = ("system", "user", "assistant")


class LLMError(GenplanError):
    """A language model backend failed; the message says what to do next."""


@dataclass(frozen=True)
class Message:
    """One chat message: ``role`` is ``"system"``, ``"user"`` or ``"assistant"``."""

    role: str
    content: str

    def to_json(self) -> dict[str, str]:
        """``{"role": ..., "content": ...}``."""
        return {"role": self.role, "content": self.content}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Message:
        """Inverse of :meth:`to_json`.

        Raises:
            ValueError: a missing field or an unknown role.
        """
        role, content = data["role"], data["content"]
        if role not in ROLES or not isinstance(content, str):
            raise ValueError(f"bad message {data!r}")
        return cls(role, content)


@dataclass(frozen=True)
class Usage:
    """Tokens of one completion (or a sum); ``None`` when the backend does not know."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def plus(self, other: Usage) -> Usage:
        """The sum of two counts, each ``None`` (unknown) where either side's is unknown."""
        return Usage(
            _add_tokens(self.prompt_tokens, other.prompt_tokens),
            _add_tokens(self.completion_tokens, other.completion_tokens),
        )


def _add_tokens(total: int | None, count: int | None) -> int | None:
    return None if total is None or count is None else total + count


@dataclass(frozen=True)
class Completion:
    """A model's answer.

    Attributes:
        text: the assistant message.
        usage: token counts.
        model: the model that answered.
        cached: whether the answer came from the on-disk cache.
    """

    text: str
    usage: Usage
    model: str
    cached: bool = False


@dataclass(frozen=True)
class SamplingSettings:
    """What is sent with every request (and keys the cache).

    Attributes:
        model: model name.
        temperature: sampling temperature.
        seed: sampling seed where the server supports one.
        max_tokens: answer length cap, or ``None``.
        request_timeout: seconds per request.
    """

    model: str = "gpt-4o"
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int | None = None
    request_timeout: float = 600.0

    def cache_key_fields(self) -> dict[str, Any]:
        """The fields that change an answer (not the time-out)."""
        fields = asdict(self)
        fields.pop("request_timeout")
        return fields


class LanguageModel(Protocol):
    """A chat model: ``complete(messages) -> Completion``; ``name`` is the backend's name.

    ``sample`` asks for an independent sample of the answer to the same messages: approaches
    that draw several candidates (several initial programs, k proposed actions) ask with
    ``sample=0, 1, ...``. Backends that sample send a different seed per sample
    (``seed + sample``), the cache and recordings key answers by it, and replay returns the
    answer recorded for that sample. ``sample=0`` is an ordinary request.
    """

    name: str

    def complete(self, messages: Sequence[Message], *, sample: int = 0) -> Completion:
        """Answer the conversation ``messages`` (the last one is the user's)."""
        ...
