"""One synthesis run end to end: problems, conversation, training, evaluation, run folder.

A run is named by domain, variant and seed, and lives in ``RUNS/<domain>/<variant>-seed<S>/``:

* ``conversation.jsonl`` — every exchange with the model, appended as it happens;
* ``growing_program.py`` — every answer's code appended in order (updated after each answer);
* ``program.py`` — the final program (Sec. 4.2: used for evaluation whatever its training outcome);
* ``training.json`` — the training check of each program version;
* ``results.json`` — per evaluation problem: status, seconds, plan length, message;
* ``metadata.json`` — model, backend, date, variant, seed, feedback rounds, outcomes, figures;
* ``name_mapping.json`` — for "No Names", the obfuscation mapping.

Rerunning the same command reuses the model cache, so it is free, and a run killed midway
resumes without asking any answered prompt again.
"""

from __future__ import annotations

import datetime
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from genplan.errors import ConfigurationError
from genplan.paths import data_folder, source_checkout

if TYPE_CHECKING:  # imported where used, so `genplan --help` and `genplan solve` start fast
    from genplan.approaches.generalized_plan.checking import ProblemCheck
    from genplan.approaches.generalized_plan.evaluate import EvaluationSummary
    from genplan.approaches.generalized_plan.synthesize import (
        SynthesisResult,
        SynthesisSettings,
        TrainingRound,
    )
    from genplan.llm import LanguageModel
    from genplan.pddl.problem import Problem
    from genplan.pddl.problem_sets import DomainProblems

CONVERSATION_FILE = "conversation.jsonl"
PROGRAM_FILE = "program.py"
GROWING_PROGRAM_FILE = "growing_program.py"


def run_folder(runs_dir: Path, domain_name: str, variant_name: str, seed: int) -> Path:
    """``runs_dir/<domain>/<variant>-seed<S>``."""
    return runs_dir / domain_name / f"{variant_name}-seed{seed}"


def saved_run_folder(domain_name: str, variant_name: str, seed: int) -> Path:
    """Where ``--save`` puts a run and where replay looks for one: ``synthesized/<domain>/<variant>-seed<S>``."""
    return data_folder("synthesized") / domain_name / f"{variant_name}-seed{seed}"


@dataclass
class RunReport:
    """Everything a finished run reports.

    Attributes:
        folder: the run folder.
        synthesis: the synthesis result (program, training rounds, tokens).
        checks: per evaluation problem checks.
        summary: evaluation figures.
        metadata: the content of ``metadata.json``.
    """

    folder: Path
    synthesis: SynthesisResult
    checks: list[ProblemCheck]
    summary: EvaluationSummary
    metadata: dict[str, Any] = field(default_factory=dict)


def _write_json(path: Path, data: object) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")
    tmp.replace(path)


def run_synthesis(
    problems: DomainProblems,
    model: LanguageModel,
    settings: SynthesisSettings,
    *,
    seed: int,
    folder: Path,
    model_name: str,
    backend_name: str,
    eval_timeout: float = 30.0,
    workers: int | None = None,
    on_round: Callable[[TrainingRound], None] | None = None,
    on_result: Callable[[ProblemCheck], None] | None = None,
    on_evaluation_start: Callable[[int], None] | None = None,
) -> RunReport:
    """Synthesize a program for ``problems`` with ``model``, evaluate it, write the run folder.

    The conversation is recorded as it happens, so an interrupted run keeps it. For the "No
    Names" variant the domain and every problem are obfuscated before the model or the program
    sees them, and the mapping is saved.

    Raises:
        genplan.llm.LLMError: the backend failed; the folder keeps what was recorded.
    """
    from genplan.approaches.generalized_plan.evaluate import evaluate_program, summarize
    from genplan.approaches.generalized_plan.synthesize import synthesize
    from genplan.llm import ConversationRecorder

    folder.mkdir(parents=True, exist_ok=True)
    domain_pddl = problems.domain.to_pddl()
    training = list(problems.training)
    evaluation: list[Problem] | None = None
    if not settings.variant.names:
        evaluation = list(problems.evaluation)
        from genplan.pddl.obfuscate import (
            build_mapping,
            domain_to_pddl,
            extend_mapping,
            obfuscate_domain,
            obfuscate_problem,
        )

        # Training names first, so what the model sees does not depend on the evaluation set.
        mapping = extend_mapping(build_mapping(problems.domain, training), evaluation)
        obfuscated_domain, mapping = obfuscate_domain(problems.domain, mapping)
        domain_pddl = domain_to_pddl(obfuscated_domain)
        training = [obfuscate_problem(p, mapping, obfuscated_domain) for p in training]
        evaluation = [obfuscate_problem(p, mapping, obfuscated_domain) for p in evaluation]
        _write_json(folder / "name_mapping.json", mapping.to_json())

    conversation_path = folder / CONVERSATION_FILE
    conversation_path.unlink(missing_ok=True)
    recorder = ConversationRecorder(conversation_path)
    growing_path = folder / GROWING_PROGRAM_FILE
    rounds: list[dict[str, Any]] = []

    def record_round(training_round: TrainingRound) -> None:
        rounds.append(training_round.to_json())
        _write_json(folder / "training.json", rounds)
        if on_round is not None:
            on_round(training_round)

    def save_growing_program(program: str) -> None:
        growing_path.write_text(program)

    started = datetime.datetime.now(datetime.timezone.utc)
    synthesis = synthesize(
        model,
        domain_pddl,
        training,
        settings,
        on_exchange=lambda messages, completion: recorder.record(messages, completion, backend=backend_name),
        on_program=save_growing_program,
        on_round=record_round,
    )
    (folder / PROGRAM_FILE).write_text(synthesis.program)
    if evaluation is None:
        evaluation = list(problems.evaluation)
    if on_evaluation_start is not None:
        on_evaluation_start(len(evaluation))
    checks = evaluate_program(
        synthesis.program, evaluation, timeout=eval_timeout, workers=workers, on_result=on_result
    )
    summary = summarize(checks)
    _write_json(folder / "results.json", [c.to_json() for c in checks])
    metadata = {
        "domain": problems.name,
        "variant": settings.variant.name,
        "seed": seed,
        "model": model_name,
        "backend": backend_name,
        "date": started.date().isoformat(),
        "feedback_rounds_used": synthesis.feedback_rounds_used,
        "feedback_kinds": [r.failure.value for r in synthesis.rounds if r.failure is not None][
            : synthesis.feedback_rounds_used
        ],
        "training_outcome": "solved all training problems"
        if synthesis.solved_training
        else f"failed ({synthesis.rounds[-1].failure.value if synthesis.rounds[-1].failure else 'unknown'})",
        "training_problems": len(training),
        "size_check": problems.size_check,
        "training_problems_used": synthesis.training_problems_used,
        "evaluation_problems": summary.total,
        "fraction_solved": summary.fraction_solved,
        "median_seconds": summary.median_seconds,
        "statuses": summary.statuses,
        "prompt_tokens": synthesis.usage.prompt_tokens,
        "completion_tokens": synthesis.usage.completion_tokens,
        "timeout_seconds": settings.timeout,
        "evaluation_timeout_seconds": eval_timeout,
    }
    _write_json(folder / "metadata.json", metadata)
    return RunReport(folder, synthesis, checks, summary, metadata)


SAVED_FILES = (
    CONVERSATION_FILE,
    GROWING_PROGRAM_FILE,
    PROGRAM_FILE,
    "training.json",
    "results.json",
    "metadata.json",
    "name_mapping.json",
)


def save_root() -> Path:
    """Where ``--save`` writes: the checkout's ``synthesized/`` when genplan runs from a source
    checkout, else ``./synthesized`` in the working directory (never into an installed package)."""
    return data_folder("synthesized") if source_checkout() is not None else Path.cwd() / "synthesized"


@dataclass(frozen=True)
class SaveOutcome:
    """What ``--save`` did.

    Attributes:
        destination: the folder written, or ``None`` when nothing was written.
        note: one line for the user: where the run went, or why it was not saved.
    """

    destination: Path | None
    note: str


def _exchanges(path: Path) -> list[tuple[object, str]] | None:
    from genplan.llm import LLMError, read_recording

    try:
        return [(e.messages, e.response) for e in read_recording(path)]
    except LLMError:
        return None


def save_run(
    folder: Path,
    domain_name: str,
    variant_name: str,
    seed: int,
    *,
    root: Path | None = None,
    overwrite: bool = False,
) -> SaveOutcome:
    """Copy a run's conversation, programs, results and metadata beside the saved runs (``--save``).

    The run goes to ``ROOT/<domain>/<variant>-seed<S>`` (``ROOT`` from :func:`save_root`
    unless given). Saved runs are real model output and never overwritten by accident: a run
    whose conversation is already saved there (a replay of that saved run) is not written
    again; a new run goes to the first free ``<variant>-seed<S>-<N>`` beside the saved one,
    unless ``overwrite`` replaces it.

    Raises:
        ConfigurationError: the destination cannot be written (names it).
    """
    base = (root or save_root()) / domain_name
    destination = base / f"{variant_name}-seed{seed}"
    ours = _exchanges(folder / CONVERSATION_FILE)
    siblings = [destination, *sorted(base.glob(f"{variant_name}-seed{seed}-*"))]
    for saved in siblings:
        if ours is not None and saved.is_dir() and ours == _exchanges(saved / CONVERSATION_FILE):
            return SaveOutcome(
                None, f"Not saved: {saved} already holds this conversation (this run replays it)."
            )
    if destination.is_dir() and any(destination.iterdir()) and not overwrite:
        number = 2
        while (base / f"{variant_name}-seed{seed}-{number}").exists():
            number += 1
        destination = base / f"{variant_name}-seed{seed}-{number}"
    try:
        destination.mkdir(parents=True, exist_ok=True)
        for name in SAVED_FILES:
            (destination / name).unlink(missing_ok=True)
            if (folder / name).exists():
                shutil.copy2(folder / name, destination / name)
    except OSError as error:
        where = error.filename or destination
        raise ConfigurationError(f"cannot save the run to {where}: {error.strerror or error}") from error
    return SaveOutcome(destination, f"Saved to {destination.resolve()}")
