"""The model backend as one typed value, parsed once from ``--llm`` and the model flags.

``--llm replay:PATH`` and its siblings are parsed here into a :class:`BackendSpec` right after
the command line (or a grid file) is read; everything downstream (the backend factory, the
recorded model name, the generator version and measurements a replay reuses, the grid's
workers) reads the object's fields and never slices the text again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from enum import Enum
from pathlib import Path
from typing import Any

from genplan.errors import ConfigurationError

DEFAULT_OPENAI_MODEL = "gpt-4o"
UNKNOWN_MODEL = "unknown"

MODEL_SETUP = (
    "  * OpenAI: export OPENAI_API_KEY=... (and optionally --model gpt-4o)\n"
    "  * any OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio): --base-url http://localhost:8000/v1 --model NAME\n"
    "  * answer prompts yourself or with another tool: --llm files:DIR (writes DIR/NNNN.prompt.md, waits for NNNN.response.md)\n"
    "  * copy and paste, as in the paper: --llm manual"
)
"""The ways to set up a model that answers, one per line (for error messages)."""

SETUP_HELP = MODEL_SETUP + "\n  * a recorded conversation: --llm replay:PATH/conversation.jsonl"
"""The ways to set up a backend, one per line (for error messages)."""


class BackendKind(str, Enum):
    """Where answers come from.

    ``fake`` is the scripted :class:`~genplan.llm.FakeLanguageModel` of the tests: it is never
    built from a spec (a grid test passes its own model factory) and the command line refuses it.
    """

    OPENAI = "openai"
    FILES = "files"
    MANUAL = "manual"
    REPLAY = "replay"
    FAKE = "fake"


FORMS = {
    "openai": "the OpenAI API or an OpenAI-compatible server (--base-url)",
    "files:DIR": "write DIR/NNNN.prompt.md, wait for DIR/NNNN.response.md",
    "manual": "print prompts, read pasted answers until a line END",
    "replay:PATH": "answer from a recorded conversation.jsonl",
}
"""The ``--llm`` forms a user may give, with what each does."""


@dataclass(frozen=True)
class BackendSpec:
    """A model backend and the options sent with every request.

    Attributes:
        kind: the backend kind.
        path: the folder of ``files:DIR`` or the ``conversation.jsonl`` of ``replay:PATH``;
            ``None`` for the other kinds, and for a replay of the run saved for each domain,
            label and seed (resolved per run with :meth:`replaying`).
        model: the model name the user asked for (``--model``), or ``None``.
        base_url: an OpenAI-compatible endpoint (``openai`` only), or ``None``.
        temperature: sampling temperature, 0 to 2 (the OpenAI API's range).
        llm_seed: the sampling seed sent to the model.
        max_tokens: answer length cap in tokens (at least 1), or ``None``.
        request_timeout: seconds per model request (above 0).
        files_timeout: seconds to wait for each answer with ``files:DIR`` (above 0).

    Raises (when built):
        ConfigurationError: a path where the kind takes none or none where it needs one, or an
            option out of range (the message names the flag).
    """

    kind: BackendKind = BackendKind.REPLAY
    path: Path | None = None
    model: str | None = None
    base_url: str | None = None
    temperature: float = 0.0
    llm_seed: int = 0
    max_tokens: int | None = None
    request_timeout: float = 600.0
    files_timeout: float = 86_400.0

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """The names of the options sent with every request (every field but ``kind`` and
        ``path``), as the command line's and a grid file's ``[model]`` keys name them."""
        return tuple(f.name for f in fields(cls) if f.name not in ("kind", "path"))

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", BackendKind(self.kind))
        if self.path is not None:
            object.__setattr__(self, "path", Path(self.path))
        if self.kind is BackendKind.FILES and self.path is None:
            raise ConfigurationError("--llm files:DIR needs a folder (e.g. files:answers)")
        if self.path is not None and self.kind not in (BackendKind.FILES, BackendKind.REPLAY):
            raise ConfigurationError(f"--llm {self.kind.value} takes no path")
        if not (math.isfinite(self.temperature) and 0.0 <= self.temperature <= 2.0):
            raise ConfigurationError(f"--temperature must be between 0 and 2, got {self.temperature}")
        if self.max_tokens is not None and (isinstance(self.max_tokens, bool) or self.max_tokens < 1):
            raise ConfigurationError(f"--max-tokens must be a positive integer, got {self.max_tokens}")
        for flag, seconds in (
            ("--request-timeout", self.request_timeout),
            ("--files-timeout", self.files_timeout),
        ):
            if not (math.isfinite(seconds) and seconds > 0):
                raise ConfigurationError(f"{flag} must be a positive number of seconds, got {seconds}")

    @classmethod
    def parse(cls, text: str | None, **options: Any) -> BackendSpec:
        """The spec of ``--llm`` text (``openai``, ``files:DIR``, ``manual``, ``replay:PATH``,
        ``fake``), or of ``None`` (replay each run's saved recording), with ``options`` (the
        other fields by name).

        Raises:
            ConfigurationError: an unknown form (the message lists the known ones), or as when built.
        """
        kind_text, colon, rest = (text or "replay").partition(":")
        try:
            kind = BackendKind(kind_text)
        except ValueError:
            kind = None
        needs_path = kind in (BackendKind.FILES, BackendKind.REPLAY) and text is not None
        if kind is None or (needs_path and not rest) or (colon and not needs_path):
            forms = "; ".join(f"{form} ({what})" for form, what in FORMS.items())
            raise ConfigurationError(f"unknown --llm {text!r}; use one of: {forms}")
        return cls(kind, Path(rest) if rest else None, **options)

    def __str__(self) -> str:
        """The ``--llm`` form (``replay:PATH``, ``openai``, ...)."""
        return self.kind.value if self.path is None else f"{self.kind.value}:{self.path}"

    @property
    def is_replay(self) -> bool:
        """Answers come from a recording (the given one or each run's saved one)."""
        return self.kind is BackendKind.REPLAY

    @property
    def recording(self) -> Path | None:
        """The ``conversation.jsonl`` a replay answers from, or ``None``."""
        return self.path if self.is_replay else None

    @property
    def recorded_folder(self) -> Path | None:
        """The folder of the run a replay answers from (its recorded measurements are reused),
        or ``None``."""
        return None if self.recording is None else self.recording.parent

    def replaying(self, recording: Path) -> BackendSpec:
        """This spec answering from ``recording`` (the options kept)."""
        return replace(self, kind=BackendKind.REPLAY, path=recording)

    def recorded_model(self) -> tuple[str, str | None]:
        """The model name a run records (and sends, for ``openai``) and a note to print, if any.

        ``openai`` asks for ``--model`` or gpt-4o; a replay records the model of the recording
        it answers from; ``files`` and ``manual`` record ``--model`` if given, else
        ``unknown`` (the note says how to name it).

        Raises:
            ConfigurationError: a replay whose ``--model`` is not the recording's model (the
                message says how to set that model up), or a replay with no recording chosen yet.
            LLMError: the recording cannot be read.
        """
        if self.kind is BackendKind.REPLAY:
            if self.path is None:
                raise ConfigurationError("a replay of the saved runs names its recording per run")
            from genplan.llm.recording import read_recording

            models = sorted({e.model for e in read_recording(self.path) if e.model})
            recorded = ", ".join(models) or UNKNOWN_MODEL
            if self.model is not None and models and self.model not in models:
                raise ConfigurationError(
                    f"--model {self.model}: the recording {self.path} holds answers of {recorded}, "
                    f"and a replay records the model that answered. To run {self.model}, set it up:\n"
                    + MODEL_SETUP
                    + f"\n(or leave out --model {self.model} to replay {recorded})"
                )
            return recorded, None
        if self.model:
            return self.model, None
        if self.kind in (BackendKind.FILES, BackendKind.MANUAL):
            return UNKNOWN_MODEL, (
                f"The model is recorded as '{UNKNOWN_MODEL}': pass --model NAME to record who answers "
                f"({self.kind.value})."
            )
        return (DEFAULT_OPENAI_MODEL if self.kind is BackendKind.OPENAI else self.kind.value), None
