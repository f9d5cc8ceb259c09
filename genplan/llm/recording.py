"""Recording every exchange of a run as JSON Lines, and reading recordings back.

One record per completion::

    {"index": 0, "messages": [{"role": "user", "content": "..."}], "response": "...",
     "model": "gpt-4o", "backend": "openai", "usage": {"prompt_tokens": 812, "completion_tokens": 240},
     "timestamp": "2026-11-24T16:20:00+00:00", "cached": false}

A request for sample ``k > 0`` of the same messages (see
:class:`~genplan.llm.base.LanguageModel`) also records ``"sample": k``.

Each record is written and flushed at once, so an interrupted run keeps its conversation.
"""

from __future__ import annotations

import datetime
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from genplan.llm.base import Completion, LanguageModel, LLMError, Message, Usage


@dataclass(frozen=True)
class RecordedExchange:
    """One recorded request and its answer."""

    index: int
    messages: tuple[Message, ...]
    response: str
    model: str
    backend: str
    usage: Usage
    timestamp: str
    cached: bool
    sample: int = 0


class ConversationRecorder:
    """Appends one JSON line per exchange to ``path`` (created with its folder)."""

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.count = len(read_recording(path)) if path.exists() else 0
        self._lock = threading.Lock()

    def record(
        self, messages: Sequence[Message], completion: Completion, *, backend: str, sample: int = 0
    ) -> None:
        """Append the exchange ``messages`` -> ``completion`` and flush it to disk."""
        record: dict[str, object] = {
            "index": self.count,
            "messages": [m.to_json() for m in messages],
            "response": completion.text,
            "model": completion.model,
            "backend": backend,
            "usage": {
                "prompt_tokens": completion.usage.prompt_tokens,
                "completion_tokens": completion.usage.completion_tokens,
            },
            "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "cached": completion.cached,
        }
        if sample:
            record["sample"] = sample
        with self._lock:
            record["index"] = self.count
            with self.path.open("a", encoding="utf-8") as stream:
                stream.write(json.dumps(record, ensure_ascii=False) + "\n")
                stream.flush()
            self.count += 1


class RecordingModel:
    """A model that records every exchange and counts calls and tokens, for any approach.

    Wraps ``inner`` (any backend, usually behind the cache): each answer is appended to
    ``recorder`` at once (so an interrupted run keeps its conversation), with the backend kind
    ``backend``. Safe to call from several threads (approaches that solve problems in parallel).

    Attributes:
        calls: answers received (cached ones included).
        prompt_tokens / completion_tokens: totals, or ``None`` once any answer came without a
            count (the ``files`` and ``manual`` backends report none).
    """

    def __init__(self, inner: LanguageModel, recorder: ConversationRecorder, backend: str):
        self.inner = inner
        self.name = inner.name
        self.recorder = recorder
        self.backend = backend
        self.calls = 0
        self.prompt_tokens: int | None = 0
        self.completion_tokens: int | None = 0
        self._lock = threading.Lock()

    def complete(self, messages: Sequence[Message], *, sample: int = 0) -> Completion:
        """The inner model's answer, recorded and counted.

        Raises:
            LLMError: as the inner backend (nothing is recorded for a failed request).
        """
        completion = self.inner.complete(messages, sample=sample)
        self.recorder.record(messages, completion, backend=self.backend, sample=sample)
        with self._lock:
            self.calls += 1
            total = Usage(self.prompt_tokens, self.completion_tokens).plus(completion.usage)
            self.prompt_tokens, self.completion_tokens = total.prompt_tokens, total.completion_tokens
        return completion


def read_recording(path: Path) -> list[RecordedExchange]:
    """Every exchange of a recording.

    Raises:
        LLMError: the file is missing or not UTF-8, or a line is not a valid record (names file and line).
    """
    try:
        data = path.read_bytes()
    except OSError as error:
        raise LLMError(f"cannot read recording {path}: {error.strerror}") from error
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise LLMError(
            f"{path}:{line}: the recording is not UTF-8 text (byte 0x{data[error.start]:02x})"
        ) from error
    exchanges: list[RecordedExchange] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
            usage = record.get("usage") or {}
            exchanges.append(
                RecordedExchange(
                    index=int(record.get("index", len(exchanges))),
                    messages=tuple(Message.from_json(m) for m in record["messages"]),
                    response=record["response"],
                    model=record.get("model", ""),
                    backend=record.get("backend", ""),
                    usage=Usage(usage.get("prompt_tokens"), usage.get("completion_tokens")),
                    timestamp=record.get("timestamp", ""),
                    cached=bool(record.get("cached", False)),
                    sample=int(record.get("sample", 0)),
                )
            )
        except (ValueError, KeyError, TypeError) as error:
            raise LLMError(f"{path}:{number}: not a valid recorded exchange ({error})") from error
    return exchanges
