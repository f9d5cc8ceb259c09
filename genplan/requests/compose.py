"""The one composer: a :class:`~genplan.requests.request.RunRequest` put together into a run.

:func:`compose` is the only place a run is assembled and an approach is run, for ``genplan
run``, ``genplan synthesize``, ``genplan evaluate`` and every cell of an experiment grid:
capabilities checked, backend chosen (a saved run replayed when no model is set up), generators
chosen, the sandbox handle, the model built, problems loaded, the run folder and
:class:`~genplan.runs.session.RunContext`, references, the approach run, scores, the record
written, and (when asked) Figure 4's steps and the copy beside the saved runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.approaches import get_approach
from genplan.approaches.base import (
    Approach,
    RunContext,
    SaveOutcome,
    asks_model,
    check_capabilities,
    problem_key,
    recorded_generators,
    run_folder,
    save_run,
    uses_sandbox,
    write_record,
)
from genplan.llm import LanguageModel
from genplan.pddl.described import DescribedTask
from genplan.pddl.domain import load_domain
from genplan.pddl.generate import CURRENT_GENERATORS
from genplan.pddl.problem_sets import DomainProblems, described_folder, domain_short_name, resolve_domain
from genplan.pddl.selection import load_chosen_problems
from genplan.plans.optimal import optimal_lengths_under
from genplan.plans.references import References, load_references
from genplan.requests.models import ChosenModel, build_model, choose_backend, no_model
from genplan.requests.request import RunRequest
from genplan.runs.progress import Progress, SilentProgress
from genplan.runs.quality import score_records, scores_json
from genplan.runs.record import RunRecord
from genplan.sandbox import Limits, isolation_report


@dataclass(frozen=True)
class RunStart:
    """What a run is about to do, for a person (``genplan run`` prints it before the run starts).

    Attributes:
        request: the run's request.
        approach: the approach; label: its run label.
        problems: the run's problems (or a task in English).
        model: the model chosen (names as recorded).
        folder: the run folder.
        notes: lines on the choices made (a replayed recording, generators taken from it, a
            model recorded as ``unknown``).
    """

    request: RunRequest
    approach: Approach[Any, Any]
    label: str
    problems: DomainProblems | DescribedTask
    model: ChosenModel
    folder: Path
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class ComposedRun:
    """A finished run.

    Attributes:
        request: the run's request.
        record: the run record (also in the run folder's ``metadata.json`` and ``results.json``),
            with its scores for PDDL problems.
        approach: the approach that ran.
        folder: the run folder.
        problems: the run's problems (or a task in English).
        references: the reference costs its quality was scored against, or ``None``.
        steps: Figure 4's fraction solved after each step (``per_step``), or ``None``.
        saved: what ``save`` did, or ``None`` when not asked.
    """

    request: RunRequest
    record: RunRecord
    approach: Approach[Any, Any]
    folder: Path
    problems: DomainProblems | DescribedTask
    references: References | None = None
    steps: list[dict[str, Any]] | None = None
    saved: SaveOutcome | None = field(default=None)


def chosen_generators(request: RunRequest, backend: Any = None) -> tuple[str, str | None]:
    """The generator version a run uses and, when it was taken from a recording, a note.

    The request's ``generators`` wins; else a replay (``backend`` with a recording) uses the
    version the recorded run used, since its prompts show that version's training problems;
    else the current version.
    """
    if request.generators is not None:
        return request.generators, None
    if backend is not None and backend.recording is not None:
        recorded = recorded_generators(backend.recording)
        if recorded is not None and recorded != CURRENT_GENERATORS:
            return recorded, (
                f"The recording was made on problems of the generators {recorded}; using them "
                f"(--generators {CURRENT_GENERATORS} for the current ones)."
            )
    return CURRENT_GENERATORS, None


def sandbox_limits(request: RunRequest) -> Limits:
    """The sandbox handle of a run, after checking its isolation works here (a worker starts
    now, so a missing bubblewrap stops the run before any model is asked).

    Raises:
        IsolationUnavailable: the sandbox cannot start; the message says how to enable it.
    """
    limits = Limits(isolation=request.isolation)
    isolation_report(limits.isolation)
    return limits


def load_request_problems(request: RunRequest, generators: str) -> DomainProblems | DescribedTask:
    """The problems ``request`` asks for, generated by version ``generators`` under its runs
    folder (optimal lengths cached in ``runs_dir/cache/optimal``), or its task in English
    (:func:`~genplan.pddl.selection.load_chosen_problems`).

    Raises:
        ConfigurationError, PddlError: a bad domain or selection.
    """
    return load_chosen_problems(
        request.domain,
        request.seed,
        request.n,
        request.selection,
        request.runs_dir,
        labeller=optimal_lengths_under(request.runs_dir),
        size_check=request.size_check,
        generators=generators,
    )


def request_references(request: RunRequest, problems: DomainProblems) -> References | None:
    """The reference costs ``request`` asks for on ``problems``' evaluation problems.

    Raises:
        ConfigurationError: a bad reference file (names it and the key) or no Fast Downward.
    """
    keyed = [(problem_key(problem, problems.root), problem) for problem in problems.evaluation]
    return load_references(
        request.references,
        keyed,
        folder=problems.root,
        cache_dir=request.runs_dir / "cache" / "references",
        timeout=request.reference_timeout,
        prefix=problems.name,
    )


def compose(
    request: RunRequest,
    *,
    progress: Progress | None = None,
    on_start: Callable[[RunStart], None] | None = None,
    approach: Approach[Any, Any] | None = None,
    model: LanguageModel | None = None,
    check_sandbox: bool = True,
) -> ComposedRun:
    """Put the run ``request`` asks for together, run it and return it: the one way a run is
    composed (``genplan run``, ``synthesize``, ``evaluate`` and every grid cell).

    Args:
        request: the run's values.
        progress: where the run reports progress (default: nowhere).
        on_start: called once everything is chosen and loaded, before the approach runs (the
            command line prints what will run).
        approach: the approach object when it is not the registry's entry (a grid's, sent
            with its task to another process).
        model: the model to use instead of building the backend's (tests' scripted models);
            recorded under the backend's names.
        check_sandbox: start a sandbox worker first, so a missing bubblewrap stops the run
            before any model is asked (a grid checks once, before its cells).

    Raises:
        GenplanError: a domain or selection genplan cannot read or model, an input kind or
            isolation the approach cannot take (:func:`~genplan.approaches.base.check_capabilities`),
            no model set up and no saved run to replay, a bad reference file, or a backend failure.
    """
    chosen_approach = approach if approach is not None else get_approach(request.approach)
    settings = request.settings if request.settings is not None else chosen_approach.settings_type()
    label = chosen_approach.label(settings)
    domain_name = request.domain_name  # first: a misspelt domain is the error to report
    english = described_folder(request.domain) is not None
    check_capabilities(chosen_approach, domain=request.domain, english=english, isolation=request.isolation)
    domain_folder = None if english else resolve_domain(request.domain)
    if domain_folder is not None:  # a domain genplan cannot read or model stops the run before any model
        load_domain(domain_folder / "domain.pddl")
    notes: list[str] = []
    backend = None
    if asks_model(chosen_approach):  # pg3, pe and pc ask none
        backend, note = choose_backend(
            request.backend,
            chosen_approach.name,
            domain_short_name(request.domain),
            domain_name,
            label,
            request.seed,
            request.selection,
        )
        notes += [note] if note else []
    generators, note = chosen_generators(request, backend)
    notes += [note] if note else []
    # The sandbox handle, built once; checked only for an approach that runs model code in it.
    sandboxed = uses_sandbox(chosen_approach)
    limits = sandbox_limits(request) if sandboxed and check_sandbox else Limits(isolation=request.isolation)
    chosen = build_model(backend, request.answer_cache, model) if backend is not None else no_model()
    notes += [chosen.note] if chosen.note else []
    problems = load_request_problems(request, generators)
    folder = request.folder or run_folder(request.runs_dir, domain_name, label, request.seed)
    if on_start is not None:
        on_start(RunStart(request, chosen_approach, label, problems, chosen, folder, tuple(notes)))
    # before the run: a bad reference file stops it first
    references = request_references(request, problems) if isinstance(problems, DomainProblems) else None
    context = RunContext(
        folder=folder,
        seed=request.seed,
        model_name=chosen.name,
        backend_name=chosen.backend,
        eval_timeout=request.eval_timeout,
        workers=request.workers,
        progress=progress or SilentProgress(),
        limits=limits,
        recorded=chosen.recorded,
    )
    record = chosen_approach.run(problems, chosen.model, settings, context)
    steps = None
    if isinstance(problems, DomainProblems):
        if record.problems:
            sums = score_records({record.approach: record}, references, request.eval_timeout)
            record.scores = scores_json(sums[record.approach], references, request.eval_timeout)
            write_record(folder, record)
        if request.per_step:  # Figure 4: the approach's own measurement
            steps = chosen_approach.per_step(folder, problems, context)
    saved = (
        save_run(folder, domain_name, label, request.seed, overwrite=request.overwrite)
        if request.save
        else None
    )
    return ComposedRun(request, record, chosen_approach, folder, problems, references, steps, saved)
