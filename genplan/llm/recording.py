"""Recording every exchange of a run as JSON Lines, and reading recordings back.

One record per completion::

    {"index": 0, "messages": [{"role": "user", "content": "..."}], "response": "...",
     "model": "gpt-4o", "backend": "openai", "usage": {"prompt_tokens": 812, "completion_tokens": 240},
     "timestamp": "2026-11-24T16:20:00+00:00", "cached": false}

Each record is written and flushed at once, so an interrupted run keeps its conversation.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from genplan.llm.base import Completion, LLMError, Message, Usage


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


class ConversationRecorder:
    """Appends one JSON line per exchange to ``path`` (created with its folder)."""

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.count = len(read_recording(path)) if path.exists() else 0

    def record(self, messages: Sequence[Message], completion: Completion, *, backend: str) -> None:
        """Append the exchange ``messages`` -> ``completion`` and flush it to disk."""
        record = {
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
        with self.path.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(record, ensure_ascii=False) + "\n")
            stream.flush()
        self.count += 1


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
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            usage = data.get("usage") or {}
            exchanges.append(
                RecordedExchange(
                    index=int(data.get("index", len(exchanges))),
                    messages=tuple(Message.from_json(m) for m in data["messages"]),
                    response=data["response"],
                    model=data.get("model", ""),
                    backend=data.get("backend", ""),
                    usage=Usage(usage.get("prompt_tokens"), usage.get("completion_tokens")),
                    timestamp=data.get("timestamp", ""),
                    cached=bool(data.get("cached", False)),
                )
            )
        except (ValueError, KeyError, TypeError) as error:
            raise LLMError(f"{path}:{number}: not a valid recorded exchange ({error})") from error
    return exchanges
