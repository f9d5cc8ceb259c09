"""One synthesis run end to end: problems, conversations, training, evaluation, run folder.

A run is named by domain, label and seed (:attr:`SynthesisSettings.label`), and lives in
``RUNS/<domain>/<label>-seed<S>/``:

* ``conversation.jsonl`` — every exchange with the model, appended as it happens (with several
  candidates, every candidate's conversation, each request keyed by its sample);
* ``growing_program.py`` — every answer's code appended in order (updated after each answer);
* ``program.py`` — the final program (Sec. 4.2: used for evaluation whatever its training outcome);
* ``training.json`` — the training check of each program version;
* ``results.json`` — per evaluation problem: key, status, seconds, plan length, message;
* ``metadata.json`` — the run record (:class:`~genplan.approaches.base.RunRecord`): model,
  backend, date, settings, LLM calls, tokens, feedback by kind, figures, and in ``details``
  the variant, training outcome and training problems used;
* ``name_mapping.json`` — for "No Names", the obfuscation mapping;
* ``observations.json`` — measured times the prompts or the choice of candidate depend on
  (scaling feedback, validation), reused by a rerun or a replay (:mod:`genplan.runs.observations`);
* ``candidates/<k>/`` — with several candidates, each candidate's ``growing_program.py``,
  ``program.py`` and ``training.json``; the top-level files are the selected candidate's, and
  ``candidates.json`` sums every candidate up (its rounds, strategy checks, validation).

Rerunning the same command reuses the model cache and the observations, so it is free, and a
run killed midway resumes without asking any answered prompt again.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.approaches.base import (
    SOLVED,
    ProblemResult,
    RunRecord,
    RunSession,
    write_json,
)
from genplan.approaches.generalized_plan.candidates import Candidate, select, split_validation, validate
from genplan.approaches.generalized_plan.checking import ProblemCheck, check_program
from genplan.approaches.generalized_plan.evaluate import EvaluationSummary
from genplan.approaches.generalized_plan.renaming import plan_to_original
from genplan.approaches.generalized_plan.robustness import check_shuffled
from genplan.approaches.generalized_plan.scaling import ProblemSize, ScalingTarget
from genplan.approaches.generalized_plan.synthesize import (
    SynthesisResult,
    SynthesisSettings,
    TrainingRound,
    synthesize,
)
from genplan.llm import LanguageModel
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems
from genplan.runs.keys import ProblemNames, names_by_key
from genplan.runs.observations import Observations
from genplan.sandbox import Limits

PROGRAM_FILE = "program.py"
GROWING_PROGRAM_FILE = "growing_program.py"
TRAINING_FILE = "training.json"
CANDIDATES_FOLDER = "candidates"
CANDIDATES_SUMMARY = "candidates.json"
_CANDIDATE_FILES = (GROWING_PROGRAM_FILE, PROGRAM_FILE, TRAINING_FILE)


@dataclass
class RunReport:
    """Everything a finished run reports.

    Attributes:
        folder: the run folder.
        synthesis: the selected candidate's synthesis result (program, training rounds, tokens).
        record: the run record (also in ``metadata.json`` and ``results.json``).
        candidates: every candidate (one unless ``candidates`` > 1), in order.
        selected: the index of the candidate whose program was evaluated.
    """

    folder: Path
    synthesis: SynthesisResult
    record: RunRecord
    candidates: list[Candidate] = field(default_factory=list)
    selected: int = 0

    @property
    def summary(self) -> EvaluationSummary:
        """The evaluation's figures (from the record)."""
        return EvaluationSummary.of_results(self.record.problems)


def _candidate_note(settings: SynthesisSettings, candidate: int) -> str | None:
    if settings.candidates == 1:
        return None
    return f"candidate {candidate} (sample {candidate}; candidates 0 to {settings.candidates - 1})"


def run_synthesis(
    session: RunSession,
    problems: DomainProblems,
    settings: SynthesisSettings,
    *,
    on_round: Callable[[TrainingRound], None] | None = None,
) -> RunReport:
    """Synthesize a program for ``problems`` with ``session.model``, evaluate it, write the run
    folder (``session`` keeps the books: :meth:`GeneralizedPlan.solve
    <genplan.approaches.generalized_plan.approach.GeneralizedPlan.solve>` opens it).

    The conversation is recorded as it happens, so an interrupted run keeps it. For the "No
    Names" variant the domain and every problem are obfuscated before the model or the program
    sees them, and the mapping is saved. With several candidates each is synthesized in turn
    and validated; the selected one is evaluated (:mod:`.candidates`). With shuffles, every
    evaluation problem is also run in shuffled orders (:mod:`.robustness`).

    Raises:
        genplan.llm.LLMError: the backend failed; the folder keeps what was recorded.
    """
    context = session.context
    folder = session.folder
    domain_pddl = problems.domain.to_pddl()
    training = list(problems.training_with_size_check)  # debugged on the size check too
    validation = list(problems.validation)
    originals = list(problems.evaluation)
    evaluation = originals
    for name in (GROWING_PROGRAM_FILE, PROGRAM_FILE, TRAINING_FILE):
        session.add_artifact(name)
    if not settings.names:
        from genplan.pddl.obfuscate import (
            build_mapping,
            domain_to_pddl,
            extend_mapping,
            obfuscate_domain,
            obfuscate_problem,
        )

        # Training names first, so what the model sees does not depend on the evaluation set.
        mapping = extend_mapping(build_mapping(problems.domain, training), [*validation, *evaluation])
        obfuscated_domain, mapping = obfuscate_domain(problems.domain, mapping)
        domain_pddl = domain_to_pddl(obfuscated_domain)
        training = [obfuscate_problem(p, mapping, obfuscated_domain) for p in training]
        validation = [obfuscate_problem(p, mapping, obfuscated_domain) for p in validation]
        evaluation = [obfuscate_problem(p, mapping, obfuscated_domain) for p in evaluation]
        session.write_json("name_mapping.json", mapping.to_json())

    # A folder's problems are named by file, as results name them (IPC names repeat across levels).
    names = names_by_key(training, problems.training, problems.root) if problems.generators is None else None
    recording, observations = session.model, session.observations
    # Scaling feedback projects to the largest evaluation problem; so does quality feedback, which
    # keeps a cheaper revision only if its projected time there stays within the time limit.
    target = (
        ScalingTarget(ProblemSize.largest(evaluation), context.eval_timeout)
        if (settings.scaling_feedback or settings.quality_feedback) and evaluation
        else None
    )
    several = settings.candidates > 1
    debugging, validation = (
        split_validation(training, validation, settings.prompt_problems, problems.size_check)
        if several
        else (training, [])
    )
    candidates: list[Candidate] = []
    for index in range(settings.candidates):
        note = _candidate_note(settings, index)
        if note is not None:
            session.note(note)
        place = folder / CANDIDATES_FOLDER / str(index) if several else folder
        synthesis = _synthesize_into(
            place,
            recording,
            domain_pddl,
            debugging,
            settings,
            session.limits,
            index,
            target,
            observations,
            on_round,
            names,
            session.note,
        )
        candidate = Candidate(index, synthesis)
        if several:
            candidate.validation = validate(
                synthesis.program,
                validation,
                timeout=settings.timeout,
                limits=session.limits,
                observations=observations,
            )
            session.note(
                f"candidate {index}: {candidate.validation_solved}/{len(validation)} validation problems "
                f"solved in {candidate.validation_seconds:.3g} s"
            )
            for name in _CANDIDATE_FILES:
                session.add_artifact(f"{CANDIDATES_FOLDER}/{index}/{name}")
        candidates.append(candidate)
    chosen = select(candidates)
    synthesis = chosen.synthesis
    if several:
        for name in _CANDIDATE_FILES:
            shutil.copyfile(folder / CANDIDATES_FOLDER / str(chosen.index) / name, folder / name)
        session.write_json(CANDIDATES_SUMMARY, [c.to_json(c is chosen) for c in candidates])

    keys = [session.key(original) for original in originals]
    # A No-Names program's plans are saved in the problems' own names, so each can be rechecked
    # against its problem file.
    to_original = (lambda plan: plan_to_original(plan, mapping)) if not settings.names else None
    results = _evaluate(synthesis.program, evaluation, keys, settings, session, originals, to_original)
    feedback = Counter(kind for c in candidates for kind in c.synthesis.feedback_kinds)
    strategy_feedback = sum(c.synthesis.strategy_feedback for c in candidates)
    if strategy_feedback:
        feedback["strategy"] = strategy_feedback
    last_failure = synthesis.rounds[-1].failure if synthesis.rounds else None
    details: dict[str, Any] = {
        "variant": settings.variant.name,
        "feedback_rounds_used": synthesis.feedback_rounds_used,
        "feedback_kinds": [kind for c in candidates for kind in c.synthesis.feedback_kinds],
        "training_outcome": "solved all training problems"
        if synthesis.solved_training
        else f"failed ({last_failure.value if last_failure else 'unknown'})",
        "rounds": [{k: v for k, v in r.to_json().items() if k != "feedback"} for r in synthesis.rounds],
        "training_problems": len(debugging),
        "size_check": problems.size_check,
        "training_problems_used": synthesis.training_problems_used,
        "timeout_seconds": settings.timeout,
        "evaluation_timeout_seconds": context.eval_timeout,
        "hash_seed": context.limits.hash_seed,
    }
    if settings.check_strategy:
        details["strategy_checks"] = [check.to_json() for check in synthesis.strategy_checks]
    if several:
        details["selected_candidate"] = chosen.index
        details["validation_problems"] = [p.name for p in validation]
        details["candidates"] = [
            {k: v for k, v in c.to_json(c is chosen).items() if k != "validation"} for c in candidates
        ]
    if settings.shuffles:
        sensitive = sum(bool(r.details.get("order_sensitive")) for r in results)
        details.update(
            shuffles=settings.shuffles, order_sensitive_problems=sensitive, order_sensitive=sensitive > 0
        )
    record = session.close(results, feedback=dict(feedback), details=details)
    return RunReport(folder, synthesis, record, candidates, chosen.index)


def _synthesize_into(
    place: Path,
    model: LanguageModel,
    domain_pddl: str,
    training: list[Problem],
    settings: SynthesisSettings,
    limits: Limits,
    index: int,
    target: ScalingTarget | None,
    observations: Observations,
    on_round: Callable[[TrainingRound], None] | None,
    names: ProblemNames | None,
    note: Callable[[str], None] | None = None,
) -> SynthesisResult:
    """One conversation (candidate ``index``), its files written in ``place`` as it goes;
    ``names`` name training problems in its rounds (see :func:`synthesize`)."""
    place.mkdir(parents=True, exist_ok=True)
    rounds: list[dict[str, Any]] = []

    def record_round(training_round: TrainingRound) -> None:
        rounds.append(training_round.to_json())
        write_json(place / TRAINING_FILE, rounds)
        if on_round is not None:
            on_round(training_round)

    synthesis = synthesize(
        model,
        domain_pddl,
        training,
        settings,
        on_program=lambda program: _write(place / GROWING_PROGRAM_FILE, program),
        on_round=record_round,
        limits=limits,
        sample=index,
        scaling_target=target,
        observations=observations,
        names=names,
        note=note,
    )
    (place / PROGRAM_FILE).write_text(synthesis.program)
    if not (place / GROWING_PROGRAM_FILE).is_file():
        (place / GROWING_PROGRAM_FILE).write_text(synthesis.program)
    return synthesis


def _write(path: Path, text: str) -> None:
    path.write_text(text)


def _evaluate(
    program: str,
    evaluation: list[Problem],
    keys: list[str],
    settings: SynthesisSettings,
    session: RunSession,
    originals: list[Problem],
    to_original: Callable[[list[str]], list[str]] | None,
) -> list[ProblemResult]:
    """Evaluate ``program`` on every problem (in shuffled orders too with ``shuffles``); each
    valid plan is kept for ``originals`` (the problems in their own names), translated by
    ``to_original`` when the program saw them renamed (No Names)."""
    timeout, limits = session.context.eval_timeout, session.limits
    original_of = {id(shown): original for shown, original in zip(evaluation, originals)}

    def result_of(check: ProblemCheck, key: str, problem: Problem) -> ProblemResult:
        plan = check.outcome.plan
        return check.to_result(
            key,
            original_of.get(id(problem), problem),
            to_original(list(plan)) if to_original is not None and plan is not None else None,
        )

    def solve(problem: Problem, key: str) -> ProblemResult:
        return result_of(check_program(program, problem, timeout=timeout, limits=limits), key, problem)

    def solve_shuffled(problem: Problem, key: str) -> ProblemResult:
        check = check_shuffled(program, problem, settings.shuffles, timeout=timeout, limits=limits)
        base = result_of(check.base, key, problem)
        run = check.first_failed_run
        status, message = base.status, base.message
        checked_by, check_note = base.checked_by, base.check_note
        if run:  # the usual order was solved; a shuffled order failed
            failed = check.shuffled[run - 1].to_json()
            status, checked_by, check_note = failed["status"], failed["checked_by"], failed["check_note"]
            message = (
                f"with objects and atoms shuffled (run {run}, hash seed {check.hash_seeds[run - 1]}): "
                f"{failed['message']}"
            )
        statuses = [c.failure.value if c.failure is not None else SOLVED for c in check.shuffled]
        details = {"shuffled": statuses, "order_sensitive": check.order_sensitive}
        return dataclasses.replace(
            base,
            status=status,
            message=message,
            details=details,
            checked_by=checked_by,
            check_note=check_note,
        )

    return session.solve_each(evaluation, solve_shuffled if settings.shuffles else solve, keys=keys)
