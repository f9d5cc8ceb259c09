"""One synthesis run end to end: problems, conversation, training, evaluation, run folder.

A run is named by domain, variant and seed, and lives in ``RUNS/<domain>/<variant>-seed<S>/``:

* ``conversation.jsonl`` — every exchange with the model, appended as it happens;
* ``growing_program.py`` — every answer's code appended in order (updated after each answer);
* ``program.py`` — the final program (Sec. 4.2: used for evaluation whatever its training outcome);
* ``training.json`` — the training check of each program version;
* ``results.json`` — per evaluation problem: key, status, seconds, plan length, message;
* ``metadata.json`` — the run record (:class:`~genplan.approaches.base.RunRecord`): model,
  backend, date, settings, LLM calls, tokens, feedback by kind, figures, and in ``details``
  the variant, training outcome and training problems used;
* ``name_mapping.json`` — for "No Names", the obfuscation mapping.

Rerunning the same command reuses the model cache, so it is free, and a run killed midway
resumes without asking any answered prompt again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genplan.approaches.base import (
    CONVERSATION_FILE,
    METADATA_FILE,
    RESULTS_FILE,
    ProblemResult,
    RunContext,
    RunRecord,
    problem_key,
    settings_to_json,
    today,
    write_json,
    write_record,
)
from genplan.approaches.generalized_plan.checking import ProblemCheck
from genplan.approaches.generalized_plan.evaluate import EvaluationSummary, evaluate_program, summarize
from genplan.approaches.generalized_plan.synthesize import (
    SynthesisResult,
    SynthesisSettings,
    TrainingRound,
    synthesize,
)
from genplan.llm import ConversationRecorder, LanguageModel
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems

PROGRAM_FILE = "program.py"
GROWING_PROGRAM_FILE = "growing_program.py"


@dataclass
class RunReport:
    """Everything a finished run reports.

    Attributes:
        folder: the run folder.
        synthesis: the synthesis result (program, training rounds, tokens).
        checks: per evaluation problem checks, in the problem set's order.
        summary: evaluation figures.
        record: the run record (also in ``metadata.json`` and ``results.json``).
    """

    folder: Path
    synthesis: SynthesisResult
    checks: list[ProblemCheck]
    summary: EvaluationSummary
    record: RunRecord


def run_synthesis(
    problems: DomainProblems,
    model: LanguageModel,
    settings: SynthesisSettings,
    context: RunContext,
    *,
    on_round: Callable[[TrainingRound], None] | None = None,
) -> RunReport:
    """Synthesize a program for ``problems`` with ``model``, evaluate it, write the run folder.

    The conversation is recorded as it happens, so an interrupted run keeps it. For the "No
    Names" variant the domain and every problem are obfuscated before the model or the program
    sees them, and the mapping is saved.

    Raises:
        genplan.llm.LLMError: the backend failed; the folder keeps what was recorded.
    """
    folder = context.folder
    folder.mkdir(parents=True, exist_ok=True)
    domain_pddl = problems.domain.to_pddl()
    training = list(problems.training)
    originals = list(problems.evaluation)
    evaluation = originals
    artifacts = [CONVERSATION_FILE, GROWING_PROGRAM_FILE, PROGRAM_FILE, "training.json"]
    if not settings.names:
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
        write_json(folder / "name_mapping.json", mapping.to_json())
        artifacts.append("name_mapping.json")

    conversation_path = folder / CONVERSATION_FILE
    conversation_path.unlink(missing_ok=True)
    recorder = ConversationRecorder(conversation_path)
    growing_path = folder / GROWING_PROGRAM_FILE
    rounds: list[dict[str, Any]] = []

    def record_round(training_round: TrainingRound) -> None:
        rounds.append(training_round.to_json())
        write_json(folder / "training.json", rounds)
        if on_round is not None:
            on_round(training_round)

    def save_growing_program(program: str) -> None:
        growing_path.write_text(program)

    date = today()
    synthesis = synthesize(
        model,
        domain_pddl,
        training,
        settings,
        on_exchange=lambda messages, completion: recorder.record(
            messages, completion, backend=context.backend_name
        ),
        on_program=save_growing_program,
        on_round=record_round,
        limits=context.limits,
    )
    (folder / PROGRAM_FILE).write_text(synthesis.program)
    context.progress.start_problems(len(evaluation))
    keys = {id(p): problem_key(o, problems.root) for p, o in zip(evaluation, originals)}

    def result_of(check: ProblemCheck, problem: Problem) -> ProblemResult:
        data = check.to_json()
        return ProblemResult(
            problem=keys[id(problem)],
            status=data["status"],
            plan_length=data["plan_length"],
            seconds=check.seconds,
            message=data["message"],
        )

    checks = evaluate_program(
        synthesis.program,
        evaluation,
        timeout=context.eval_timeout,
        workers=context.workers,
        on_result=lambda check, problem: context.progress.problem_done(result_of(check, problem)),
        limits=context.limits,
    )
    summary = summarize(checks)
    feedback_kinds = [r.failure.value for r in synthesis.rounds if r.failure is not None][
        : synthesis.feedback_rounds_used
    ]
    last_failure = synthesis.rounds[-1].failure if synthesis.rounds else None
    record = RunRecord(
        approach="generalized-plan",
        label=settings.variant.name,
        settings=settings_to_json(settings),
        domain=problems.name,
        seed=context.seed,
        model=context.model_name,
        backend=context.backend_name,
        date=date,
        problems=[result_of(check, problem) for check, problem in zip(checks, evaluation)],
        llm_calls=recorder.count,
        prompt_tokens=synthesis.usage.prompt_tokens,
        completion_tokens=synthesis.usage.completion_tokens,
        feedback=dict(Counter(feedback_kinds)),
        world_model_queries=None,
        artifacts=[*artifacts, METADATA_FILE, RESULTS_FILE],
        details={
            "variant": settings.variant.name,
            "feedback_rounds_used": synthesis.feedback_rounds_used,
            "feedback_kinds": feedback_kinds,
            "training_outcome": "solved all training problems"
            if synthesis.solved_training
            else f"failed ({last_failure.value if last_failure else 'unknown'})",
            "rounds": [{k: v for k, v in r.to_json().items() if k != "feedback"} for r in synthesis.rounds],
            "training_problems": len(training),
            "size_check": problems.size_check,
            "training_problems_used": synthesis.training_problems_used,
            "timeout_seconds": settings.timeout,
            "evaluation_timeout_seconds": context.eval_timeout,
        },
        isolation=context.limits.isolation.value,
    )
    write_record(folder, record)
    return RunReport(folder, synthesis, checks, summary, record)
