"""Choosing a backend from a ``--llm`` spec."""

from __future__ import annotations

from pathlib import Path

from genplan.errors import ConfigurationError
from genplan.llm.base import LanguageModel, SamplingSettings
from genplan.llm.cache import CachedModel

BACKENDS = {
    "openai": "the OpenAI API or an OpenAI-compatible server (--base-url)",
    "files:DIR": "write DIR/NNNN.prompt.md, wait for DIR/NNNN.response.md",
    "manual": "print prompts, read pasted answers until a line END",
    "replay:PATH": "answer from a recorded conversation.jsonl",
}


def make_model(
    spec: str,
    settings: SamplingSettings,
    *,
    base_url: str | None = None,
    cache_dir: Path | None = None,
    files_timeout: float = 86_400.0,
) -> LanguageModel:
    """The backend ``spec`` names, behind the on-disk cache when ``cache_dir`` is given (not for replay).

    Raises:
        ConfigurationError: an unknown spec.
        LLMError: the backend cannot start (no key or endpoint, unreadable recording).
    """
    model: LanguageModel
    if spec == "openai":
        from genplan.llm.openai_backend import OpenAIModel

        model = OpenAIModel(settings, base_url=base_url)
    elif spec.startswith("files:") and len(spec) > len("files:"):
        from genplan.llm.files import FilesModel

        model = FilesModel(Path(spec[len("files:") :]), timeout=files_timeout, model=settings.model)
    elif spec == "manual":
        from genplan.llm.manual import ManualModel

        model = ManualModel(model=settings.model)
    elif spec.startswith("replay:") and len(spec) > len("replay:"):
        from genplan.llm.replay import ReplayModel

        return ReplayModel(Path(spec[len("replay:") :]))
    else:
        forms = "; ".join(f"{form} ({what})" for form, what in BACKENDS.items())
        raise ConfigurationError(f"unknown --llm {spec!r}; use one of: {forms}")
    return CachedModel(model, cache_dir, settings) if cache_dir is not None else model
