"""The language-model flags every model-using command shares, and choosing the backend.

With no backend given and none configured, a command replays the run saved for the same
domain, approach label and seed in ``synthesized/``, offline (``genplan synthesize --domain
heavy`` on a fresh machine), or stops and lists the ways to set up a model.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from genplan.cli.arguments import positive_int, positive_seconds
from genplan.errors import ConfigurationError

if TYPE_CHECKING:  # imported where used, so `genplan --help` and `genplan solve` start fast
    from genplan.llm import LanguageModel

DEFAULT_OPENAI_MODEL = "gpt-4o"

SETUP_HELP = (
    "no language model is set up. Choose one of:\n"
    "  * OpenAI: export OPENAI_API_KEY=... (and optionally --model gpt-4o)\n"
    "  * any OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio): --base-url http://localhost:8000/v1 --model NAME\n"
    "  * answer prompts yourself or with another tool: --llm files:DIR (writes DIR/NNNN.prompt.md, waits for NNNN.response.md)\n"
    "  * copy and paste, as in the paper: --llm manual\n"
    "  * a recorded conversation: --llm replay:PATH/conversation.jsonl"
)


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags that choose and configure the language model backend."""
    group = parser.add_argument_group("language model")
    group.add_argument(
        "--llm",
        metavar="BACKEND",
        help="openai | files:DIR | manual | replay:PATH (default: openai if a key or --base-url is set, else a saved recording)",
    )
    group.add_argument(
        "--model",
        default=None,
        help="model name, recorded in the run's metadata (default: gpt-4o for openai, the recording's "
        "model for replay, 'unknown' for files and manual)",
    )
    group.add_argument(
        "--base-url", default=None, help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1"
    )
    group.add_argument("--temperature", type=float, default=0.0)
    group.add_argument("--llm-seed", type=int, default=0, help="sampling seed sent to the model")
    group.add_argument("--max-tokens", type=positive_int, default=None)
    group.add_argument(
        "--request-timeout", type=positive_seconds, default=600.0, help="seconds per model request"
    )
    group.add_argument(
        "--files-timeout",
        type=positive_seconds,
        default=86_400.0,
        help="seconds to wait for each answer with --llm files:DIR (default 86400, a day)",
    )
    group.add_argument(
        "--cache-dir", type=Path, default=None, help="model answer cache (default RUNS_DIR/cache)"
    )


def choose_backend(args: argparse.Namespace, domain_name: str, label: str) -> tuple[str, str | None]:
    """The backend spec to use and, for a saved replay, a note to print.

    Raises:
        ConfigurationError: no backend given, none configured and no saved recording.
    """
    if args.llm:
        return args.llm, None
    if (
        args.base_url
        or os.environ.get("OPENAI_API_KEY")
        or os.environ.get("OPENAI_BASE_URL")
        or os.environ.get("GENPLAN_API_KEY")
    ):
        return "openai", None
    from genplan.approaches.base import CONVERSATION_FILE, saved_run_folder

    saved = saved_run_folder(domain_name, label, args.seed) / CONVERSATION_FILE
    if saved.is_file():
        return f"replay:{saved}", f"No model set up: replaying the recorded conversation {saved}."
    raise ConfigurationError(SETUP_HELP)


def model_to_record(args: argparse.Namespace, spec: str) -> tuple[str, str | None]:
    """The model name a run records (and sends, for ``openai``), and a note to print if any.

    ``--model`` wins. Otherwise: ``openai`` asks for gpt-4o; a replay records the model of the
    recording it answers from; ``files`` and ``manual`` cannot know who answers, so they record
    ``unknown`` and the note says how to name it.

    Raises:
        LLMError: the recording of a replay cannot be read.
    """
    if args.model:
        return args.model, None
    backend = spec.split(":", 1)[0]
    if backend == "replay":
        from genplan.llm import read_recording

        models = sorted({e.model for e in read_recording(Path(spec[len("replay:") :])) if e.model})
        return (", ".join(models) or "unknown"), None
    if backend in ("files", "manual"):
        return (
            "unknown",
            f"The model is recorded as 'unknown': pass --model NAME to record who answers ({backend}).",
        )
    return DEFAULT_OPENAI_MODEL, None


@dataclass(frozen=True)
class ChosenModel:
    """The backend a command uses: the model, its recorded name, backend kind and a note if any."""

    model: LanguageModel
    name: str
    backend: str
    note: str | None = None


def no_model() -> ChosenModel:
    """What an approach that asks no model (``pg3``, ``pe``, ``pc``) gets: a scripted model with
    no answers (asking it raises), recorded as model ``none`` via ``none``."""
    from genplan.llm import FakeLanguageModel

    return ChosenModel(FakeLanguageModel(model="none"), "none", "none", None)


def build_model(args: argparse.Namespace, spec: str, runs_dir: Path) -> ChosenModel:
    """The model ``spec`` names, configured from the flags, behind the answer cache.

    Raises:
        ConfigurationError, LLMError: as :func:`genplan.llm.make_model`.
    """
    from genplan.llm import SamplingSettings, make_model

    name, note = model_to_record(args, spec)
    sampling = SamplingSettings(
        model=name,
        temperature=args.temperature,
        seed=args.llm_seed,
        max_tokens=args.max_tokens,
        request_timeout=args.request_timeout,
    )
    model = make_model(
        spec,
        sampling,
        base_url=args.base_url,
        cache_dir=args.cache_dir or runs_dir / "cache",
        files_timeout=args.files_timeout,
    )
    return ChosenModel(model, name, spec.split(":")[0], note)
