"""The language-model flags every model-using command shares, parsed once into a backend spec.

``genplan run``, ``genplan synthesize`` and ``genplan experiments`` declare the same flags
(:func:`add_model_arguments`), checked by argparse; :func:`backend_from_arguments` turns them
into one :class:`~genplan.llm.spec.BackendSpec` that travels as an object from there on (in a
:class:`~genplan.requests.request.RunRequest`). With no backend given and none configured, a run
replays the run saved for the same domain, approach label and seed in ``synthesized/``, offline
(:mod:`genplan.requests.models`).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from genplan.cli.arguments import integer, positive_int, positive_seconds, temperature
from genplan.errors import ConfigurationError

if TYPE_CHECKING:  # imported where used, so `genplan --help` and `genplan solve` start fast
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
    parser: argparse.ArgumentParser | argparse._ArgumentGroup, *, title: str = "language model"
) -> None:
    """Flags that choose and configure the language model backend (dests in :data:`MODEL_FLAGS`).

    Every flag defaults to ``None``: a value not given takes :class:`~genplan.llm.spec.BackendSpec`'s
    default (its one place), or a grid file's value (``genplan experiments``).
    """
    from genplan.llm.spec import BackendSpec

    defaults = BackendSpec()
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
        help="model name, recorded in the run's metadata (default: gpt-4o for openai, 'unknown' for files and "
        "manual; a replay records the recording's model, and another --model is an error)",
    )
    group.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1")
    group.add_argument(
        "--temperature",
        type=temperature,
        help=f"sampling temperature, 0 to 2 (default {defaults.temperature:g})",
    )
    group.add_argument(
        "--llm-seed", type=integer, help=f"sampling seed sent to the model (default {defaults.llm_seed})"
    )
    group.add_argument("--max-tokens", type=positive_int, help="answer length cap in tokens (default: none)")
    group.add_argument(
        "--request-timeout",
        type=positive_seconds,
        help=f"seconds per model request (default {defaults.request_timeout:g})",
    )
    group.add_argument(
        "--files-timeout",
        type=positive_seconds,
        help=f"seconds to wait for each answer with --llm files:DIR (default {defaults.files_timeout:g}, a day)",
    )
    group.add_argument(
        "--cache-dir",
        type=Path,
        help="model answer cache (default RUNS_DIR/cache; for a grid, every worker must reach it)",
    )


def model_configured() -> bool:
    """An OpenAI key or endpoint is set in the environment."""
    return any(os.environ.get(name) for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"))


def backend_from_arguments(args: argparse.Namespace) -> BackendSpec:
    """The backend the flags choose, parsed once: ``--llm`` as given; else ``openai`` when
    ``--base-url`` or a key is set; else a replay of the run's saved recording (``path`` ``None``,
    chosen by :func:`~genplan.requests.models.choose_backend`); options not given keep
    :class:`~genplan.llm.spec.BackendSpec`'s defaults.

    Raises:
        ConfigurationError: an option out of range (as :class:`BackendSpec`).
    """
    from genplan.llm.spec import BackendKind, BackendSpec

    given: BackendSpec | None = args.llm
    if given is None:
        kind = BackendKind.OPENAI if args.base_url or model_configured() else BackendKind.REPLAY
        given = BackendSpec(kind)
    options = {
        name: getattr(args, name)
        for name in BackendSpec.option_names()
        if getattr(args, name, None) is not None
    }
    return BackendSpec(given.kind, given.path, **options)
