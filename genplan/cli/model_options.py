"""The language-model flags every model-using command shares, parsed once into a backend spec.

``genplan run``, ``genplan synthesize`` and ``genplan experiments`` declare the same flags
(:func:`add_model_arguments`), checked by argparse; :func:`backend_from_arguments` turns them
into one :class:`~genplan.llm.spec.BackendSpec` that travels as an object from there on. With no
backend given and none configured, a command replays the run saved for the same domain,
approach label and seed in ``synthesized/``, offline (``genplan synthesize --domain heavy`` on a
fresh machine), or stops and lists the ways to set up a model.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from genplan.cli.arguments import integer, positive_int, positive_seconds, temperature
from genplan.errors import ConfigurationError

if TYPE_CHECKING:  # imported where used, so `genplan --help` and `genplan solve` start fast
    from genplan.llm import LanguageModel
    from genplan.llm.spec import BackendSpec

MODEL_FLAGS = (
    "llm", "model", "base_url", "temperature", "llm_seed", "max_tokens", "request_timeout", "files_timeout", "cache_dir"
)  # fmt: skip
"""The destinations of the flags :func:`add_model_arguments` declares."""


def backend_form(text: str) -> BackendSpec:
    """An ``--llm`` value as a spec without options (argparse type; refuses ``fake``)."""
    from genplan.llm.spec import BackendKind, BackendSpec

    try:
        spec = BackendSpec.parse(text)
    except ConfigurationError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix(f"unknown --llm {text!r}; ")) from None
    if spec.kind is BackendKind.FAKE:
        raise argparse.ArgumentTypeError(
            "fake is the tests' scripted model; use openai, files:DIR, manual or replay:PATH"
        )
    return spec


def add_model_arguments(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    *,
    title: str = "language model",
    defaults: bool = True,
) -> None:
    """Flags that choose and configure the language model backend (dests in :data:`MODEL_FLAGS`).

    With ``defaults=False`` every flag defaults to ``None``, so a grid file's values show
    through where a flag is not given (``genplan experiments``).
    """

    def default(value: object) -> object:
        return value if defaults else None

    group = parser.add_argument_group(title) if isinstance(parser, argparse.ArgumentParser) else parser
    group.add_argument(
        "--llm",
        metavar="BACKEND",
        type=backend_form,
        help="openai | files:DIR | manual | replay:PATH (default: openai if a key or --base-url is set, else the "
        "saved recording of the run)",
    )
    group.add_argument(
        "--model",
        default=None,
        help="model name, recorded in the run's metadata (default: gpt-4o for openai, 'unknown' for files and "
        "manual; a replay records the recording's model, and another --model is an error)",
    )
    group.add_argument(
        "--base-url", default=None, help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1"
    )
    group.add_argument(
        "--temperature",
        type=temperature,
        default=default(0.0),
        help="sampling temperature, 0 to 2 (default 0)",
    )
    group.add_argument(
        "--llm-seed", type=integer, default=default(0), help="sampling seed sent to the model (default 0)"
    )
    group.add_argument(
        "--max-tokens", type=positive_int, default=None, help="answer length cap in tokens (default: none)"
    )
    group.add_argument(
        "--request-timeout",
        type=positive_seconds,
        default=default(600.0),
        help="seconds per model request (default 600)",
    )
    group.add_argument(
        "--files-timeout",
        type=positive_seconds,
        default=default(86_400.0),
        help="seconds to wait for each answer with --llm files:DIR (default 86400, a day)",
    )
    group.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="model answer cache (default RUNS_DIR/cache; for a grid, every worker must reach it)",
    )


def model_configured() -> bool:
    """An OpenAI key or endpoint is set in the environment."""
    return any(os.environ.get(name) for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"))


def backend_from_arguments(args: argparse.Namespace) -> BackendSpec:
    """The backend the flags choose, parsed once: ``--llm`` as given; else ``openai`` when
    ``--base-url`` or a key is set; else a replay of the run's saved recording (``path`` ``None``,
    chosen by :func:`choose_backend`).

    Raises:
        ConfigurationError: an option out of range (as :class:`BackendSpec`).
    """
    from genplan.llm.spec import BackendKind, BackendSpec

    given: BackendSpec | None = args.llm
    if given is None:
        kind = BackendKind.OPENAI if args.base_url or model_configured() else BackendKind.REPLAY
        given = BackendSpec(kind)
    return BackendSpec(
        given.kind,
        given.path,
        model=args.model,
        base_url=args.base_url,
        temperature=args.temperature,
        llm_seed=args.llm_seed,
        max_tokens=args.max_tokens,
        request_timeout=args.request_timeout,
        files_timeout=args.files_timeout,
    )


def choose_backend(
    backend: BackendSpec, domain_name: str, label: str, seed: int
) -> tuple[BackendSpec, str | None]:
    """``backend``, or for a replay of the saved run, that run's recording, and a note to print.

    Raises:
        ConfigurationError: a replay of the saved run where none is saved (lists the ways to set
            up a model).
    """
    if not (backend.is_replay and backend.path is None):
        return backend, None
    from genplan.approaches.base import CONVERSATION_FILE, saved_replay_folder
    from genplan.llm.spec import SETUP_HELP

    saved = saved_replay_folder(domain_name, label, seed) / CONVERSATION_FILE
    if saved.is_file():
        whose = (
            "" if saved.parent.name == f"{label}-seed{seed}" else f" (its first program is the {label} run's)"
        )
        return backend.replaying(
            saved
        ), f"No model set up: replaying the recorded conversation {saved}{whose}."
    raise ConfigurationError("no language model is set up. Choose one of:\n" + SETUP_HELP)


@dataclass(frozen=True)
class ChosenModel:
    """The backend a command uses: the model, its recorded name, backend kind and a note if any."""

    model: LanguageModel
    name: str
    backend: str
    note: str | None = None


def no_model() -> ChosenModel:
    """What an approach that asks no model (``pg3``, ``pe``, ``pc``) gets: a model that is never
    asked (asking it raises), recorded as model ``none`` via ``none``."""
    from genplan.llm import NO_MODEL, NoModel

    return ChosenModel(NoModel(), NO_MODEL, NO_MODEL, None)


def build_model(backend: BackendSpec, cache_dir: Path) -> ChosenModel:
    """The model ``backend`` names, behind the answer cache in ``cache_dir`` (not for replays).

    Raises:
        ConfigurationError, LLMError: as :func:`genplan.llm.make_model` and
            :meth:`~genplan.llm.spec.BackendSpec.recorded_model` (a replay's ``--model`` that is
            not the recording's).
    """
    from genplan.llm import make_model

    name, note = backend.recorded_model()
    model = make_model(backend, cache_dir=cache_dir)
    return ChosenModel(model, name, backend.kind.value, note)
