"""Building the backend a :class:`~genplan.llm.spec.BackendSpec` names."""

from __future__ import annotations

from pathlib import Path

from genplan.errors import ConfigurationError
from genplan.llm.base import LanguageModel, SamplingSettings
from genplan.llm.cache import CachedModel
from genplan.llm.spec import FORMS, BackendKind, BackendSpec

BACKENDS = FORMS


def make_model(spec: BackendSpec, *, cache_dir: Path | None = None) -> LanguageModel:
    """The backend ``spec`` names, behind the on-disk cache when ``cache_dir`` is given (not for replay).

    Raises:
        ConfigurationError: ``fake`` (tests build their scripted model themselves), a replay with
            no recording chosen, or as :meth:`BackendSpec.recorded_model`.
        LLMError: the backend cannot start (no key or endpoint, unreadable recording).
    """
    if spec.kind is BackendKind.REPLAY:
        if spec.path is None:
            raise ConfigurationError("a replay of the saved runs names its recording per run")
        from genplan.llm.replay import ReplayModel

        return ReplayModel(spec.path)
    if spec.kind is BackendKind.FAKE:
        raise ConfigurationError("the fake backend answers from a script: build a FakeLanguageModel")
    name, _ = spec.recorded_model()
    settings = SamplingSettings(
        model=name,
        temperature=spec.temperature,
        seed=spec.llm_seed,
        max_tokens=spec.max_tokens,
        request_timeout=spec.request_timeout,
    )
    model: LanguageModel
    if spec.kind is BackendKind.OPENAI:
        from genplan.llm.openai_backend import OpenAIModel

        model = OpenAIModel(settings, base_url=spec.base_url)
    elif spec.kind is BackendKind.FILES:
        from genplan.llm.files import FilesModel

        assert spec.path is not None  # BackendSpec refuses files without a folder
        model = FilesModel(spec.path, timeout=spec.files_timeout, model=name)
    else:
        from genplan.llm.manual import ManualModel

        model = ManualModel(model=name)
    return CachedModel(model, cache_dir, settings) if cache_dir is not None else model
