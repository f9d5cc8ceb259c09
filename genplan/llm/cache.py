"""An on-disk answer cache in front of any backend.

Keyed by a SHA-256 of (backend name, model, messages, sampling settings); one JSON file per
entry, written atomically (a temporary file, then a rename). A rerun is free, and a run
killed midway resumes without asking any answered prompt again.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from genplan.llm.base import Completion, LanguageModel, Message, SamplingSettings, Usage


def cache_key(backend: str, messages: Sequence[Message], settings: SamplingSettings, sample: int = 0) -> str:
    """The hex SHA-256 that names a request's cache entry (``sample`` keys it when not 0)."""
    fields: dict[str, object] = {
        "backend": backend,
        "settings": settings.cache_key_fields(),
        "messages": [m.to_json() for m in messages],
    }
    if sample:
        fields["sample"] = sample
    payload = json.dumps(fields, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class CachedModel:
    """Wraps ``inner``; answers from ``cache_dir`` when the same request was answered before."""

    def __init__(self, inner: LanguageModel, cache_dir: Path, settings: SamplingSettings):
        self.inner = inner
        self.name = inner.name
        self.cache_dir = Path(cache_dir)
        self.settings = settings

    def _path(self, messages: Sequence[Message], sample: int) -> Path:
        key = cache_key(self.inner.name, messages, self.settings, sample)
        return self.cache_dir / key[:2] / f"{key}.json"

    def complete(self, messages: Sequence[Message], *, sample: int = 0) -> Completion:
        """The cached answer, or the inner backend's (then stored)."""
        path = self._path(messages, sample)
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                usage = data.get("usage") or {}
                return Completion(
                    data["text"],
                    Usage(usage.get("prompt_tokens"), usage.get("completion_tokens")),
                    data["model"],
                    True,
                )
            except (ValueError, KeyError):
                pass  # a damaged entry is asked again and overwritten
        completion = self.inner.complete(messages, sample=sample)
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {
            "text": completion.text,
            "model": completion.model,
            "usage": {
                "prompt_tokens": completion.usage.prompt_tokens,
                "completion_tokens": completion.usage.completion_tokens,
            },
            "messages": [m.to_json() for m in messages],
        }
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            json.dump(entry, stream, ensure_ascii=False)
        os.replace(temporary, path)
        return completion
