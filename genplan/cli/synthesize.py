"""``genplan synthesize``: synthesize a generalized plan for a domain, evaluate it, save it."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from genplan.approaches.generalized_plan.runs import CONVERSATION_FILE, saved_run_folder
from genplan.approaches.generalized_plan.variants import Variant
from genplan.cli.arguments import non_negative_int, positive_int, positive_seconds
from genplan.errors import ConfigurationError

if TYPE_CHECKING:
    from genplan.approaches.generalized_plan.synthesize import TrainingRound

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
        help="seconds to wait for each answer with --llm files:DIR",
    )
    group.add_argument(
        "--cache-dir", type=Path, default=None, help="model answer cache (default RUNS_DIR/cache)"
    )


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``synthesize`` subcommand and its flags to ``subparsers``; return its parser."""
    parser = subparsers.add_parser(
        "synthesize",
        help="synthesize a generalized plan (get_plan) for a domain and evaluate it",
        description="Prompt a language model for a Python get_plan program (chain of thought), debug it on the "
        "training problems with automated feedback, and evaluate it (Silver et al. 2024, Sec. 4-5).",
    )
    parser.add_argument("--domain", required=True, help="built-in domain name or a folder with domain.pddl")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="problem seed (default 0)")
    parser.add_argument(
        "--no-cot", action="store_true", help="ablation: no domain summary or strategy prompts"
    )
    parser.add_argument(
        "--no-debug", action="store_true", help="ablation: use the first program, no feedback"
    )
    parser.add_argument("--no-names", action="store_true", help="ablation: obfuscate every name")
    parser.add_argument(
        "--no-size-check",
        action="store_true",
        help="train on the training problems only, as the paper did (default: also check one evaluation-sized "
        "problem last, which catches correct but slow programs)",
    )
    parser.add_argument(
        "--feedback-rounds", type=non_negative_int, default=4, help="feedback rounds at most (default 4)"
    )
    parser.add_argument(
        "--timeout", type=positive_seconds, default=30.0, help="seconds per training run (default 30)"
    )
    parser.add_argument("--n", type=positive_int, default=30, help="evaluation problems (default 30)")
    parser.add_argument(
        "--eval-timeout",
        type=positive_seconds,
        default=30.0,
        help="seconds per evaluation problem (default 30)",
    )
    parser.add_argument(
        "--workers", type=positive_int, default=None, help="parallel evaluation runs (default: cores)"
    )
    parser.add_argument(
        "--runs-dir", type=Path, default=Path("runs"), help="where run folders go (default ./runs)"
    )
    parser.add_argument(
        "--save",
        action="store_true",
        help="copy the program, conversation and results beside the saved runs: synthesized/<domain>/ of the "
        "source checkout genplan runs from, else ./synthesized/<domain>/; a new run never replaces a saved one "
        "(it gets the next free <variant>-seed<S>-<N>), and a replay of a saved run is not saved again",
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="with --save: replace the saved run of this variant and seed"
    )
    add_model_arguments(parser)
    return parser


def choose_backend(args: argparse.Namespace, domain_name: str, variant: Variant) -> tuple[str, str | None]:
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
    saved = saved_run_folder(domain_name, variant.name, args.seed) / CONVERSATION_FILE
    if saved.is_file():
        return f"replay:{saved}", f"No model set up: replaying the recorded conversation {saved}."
    raise ConfigurationError(SETUP_HELP)


DEFAULT_OPENAI_MODEL = "gpt-4o"


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


def _print_round(training_round: TrainingRound) -> None:
    if training_round.failure is None:
        state = f"solved all training problems ({training_round.passed})"
    else:
        where = f" on {training_round.failed_problem}" if training_round.failed_problem else ""
        state = f"{training_round.failure.value}{where} after {training_round.passed} solved"
    print(f"  round {training_round.round}: {state}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan synthesize``; return the exit code (errors surface as GenplanError)."""
    from tqdm import tqdm

    from genplan.approaches.generalized_plan.runs import run_folder, run_synthesis, save_run
    from genplan.approaches.generalized_plan.synthesize import SynthesisSettings
    from genplan.llm import SamplingSettings, make_model
    from genplan.pddl.problem_sets import load_domain_problems, resolve_domain

    variant = Variant(chain_of_thought=not args.no_cot, debugging=not args.no_debug, names=not args.no_names)
    runs_dir: Path = args.runs_dir
    folder = resolve_domain(args.domain)  # first: a misspelt domain is the error to report
    domain_name = args.domain if folder is None else folder.resolve().name
    spec, note = choose_backend(args, domain_name, variant)  # before the problems: fail fast
    model_name, model_note = model_to_record(args, spec)
    problems = load_domain_problems(
        args.domain, args.seed, args.n, runs_dir, size_check=not args.no_size_check
    )
    for line in (note, model_note):
        if line:
            print(line)
    sampling = SamplingSettings(
        model=model_name,
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
    settings = SynthesisSettings(
        variant=variant, max_feedback_rounds=args.feedback_rounds, timeout=args.timeout
    )
    folder = run_folder(runs_dir, problems.name, variant.name, args.seed)
    print(
        f"genplan: {problems.name}, variant {variant.name}, seed {args.seed}, model {model_name} via {spec.split(':')[0]}; "
        f"{len(problems.training)} training and {len(problems.evaluation_sources)} evaluation problems; run folder {folder}",
        file=sys.stderr,
    )
    bar: list[tqdm] = []  # type: ignore[valid-type]

    def start_bar(total: int) -> None:
        bar.append(tqdm(total=total, desc="evaluating", unit="problem", file=sys.stderr, disable=None))

    report = run_synthesis(
        problems,
        model,
        settings,
        seed=args.seed,
        folder=folder,
        model_name=model_name,
        backend_name=spec.split(":")[0],
        eval_timeout=args.eval_timeout,
        workers=args.workers,
        on_round=_print_round,
        on_result=lambda _check: bar[0].update(1),
        on_evaluation_start=start_bar,
    )
    if bar:
        bar[0].close()
    meta = report.metadata
    print(f"Domain {meta['domain']}, variant {meta['variant']}, seed {meta['seed']}, model {meta['model']}")
    for training_round in report.synthesis.rounds:
        outcome = (
            "solved all training problems" if training_round.failure is None else training_round.failure.value
        )
        print(f"  training round {training_round.round}: {outcome} ({training_round.passed} passed)")
    kinds = ", ".join(meta["feedback_kinds"]) or "none"
    print(f"Feedback rounds used: {meta['feedback_rounds_used']} ({kinds})")
    print(f"Training outcome: {meta['training_outcome']}")
    median = f"{meta['median_seconds']:.4f} s" if meta["median_seconds"] is not None else "n/a"
    print(
        f"Evaluation: {report.summary.solved}/{report.summary.total} solved "
        f"(fraction {report.summary.fraction_solved:.2f}); median runtime {median}; statuses {meta['statuses']}"
    )
    if meta["prompt_tokens"] is None or meta["completion_tokens"] is None:
        print("Tokens: not reported (the answers came without token counts)")
    else:
        print(f"Tokens: {meta['prompt_tokens']} prompt, {meta['completion_tokens']} completion")
    print(f"Run folder: {report.folder}")
    if args.save:
        saved = save_run(report.folder, problems.name, variant.name, args.seed, overwrite=args.overwrite)
        print(saved.note)
    return 0


def build_parser_for_tests() -> argparse.ArgumentParser:
    """A stand-alone parser with this command's flags (for tests and embedding)."""
    parser = argparse.ArgumentParser(prog="genplan")
    subparsers = parser.add_subparsers()
    return register(subparsers)
