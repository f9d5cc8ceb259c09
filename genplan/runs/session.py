"""A run session: the books of one run, kept once for every approach.

An approach writes only what makes it different (its prompts, its feedback, its per-problem
solving); the session does the rest, the same way for all:

* it opens the run folder, starts the recorded conversation (``conversation.jsonl``, written as
  it happens) and the measured observations (``observations.json``, reused from the replayed
  run's folder on a replay, :mod:`genplan.runs.observations`);
* it keys problems (:func:`~genplan.runs.keys.problem_key`) and reports progress;
* :meth:`RunSession.solve_each` solves every evaluation problem, ``workers`` at once (one default
  for every approach: the usable cores), reporting each as it finishes;
* :meth:`RunSession.close` fills the record's shared fields once (approach, label, settings,
  domain, seed, model, backend, date, LLM calls and tokens, artifacts, isolation, problem set,
  generators) and writes ``metadata.json`` and ``results.json``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from genplan.llm import ConversationRecorder, LanguageModel, RecordingModel
from genplan.pddl.described import ENGLISH, DescribedTask
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems
from genplan.runs.identity import IDENTITY_FILE, check_identity, run_identity
from genplan.runs.keys import problem_key
from genplan.runs.machine import MachineWatch, usable_cpus
from genplan.runs.observations import OBSERVATIONS_FILE, Observations
from genplan.runs.progress import Progress, SilentProgress
from genplan.runs.record import (
    CONVERSATION_FILE,
    METADATA_FILE,
    RESULTS_FILE,
    ProblemResult,
    RunRecord,
    today,
    write_json,
    write_record,
)
from genplan.runs.settings import settings_to_json
from genplan.sandbox import Limits


def default_workers() -> int:
    """Evaluation problems solved at once by default, for every approach: the usable cores."""
    return usable_cpus()


@dataclass(frozen=True)
class RunContext:
    """What every run gets besides its problems, model and settings.

    Attributes:
        folder: the run folder (created by the session if missing); an interrupted run keeps
            what was written there, and the conversation is recorded as it happens.
        seed: the problem seed (the run's identity in grids).
        model_name: the model's name as recorded.
        backend_name: the backend kind as recorded.
        eval_timeout: seconds per evaluation problem, keyword only and with no default here:
            it comes from the run request (:class:`genplan.requests.request.RunRequest`, where
            its default, the paper's 30 s, is written).
        workers: evaluation problems solved at once (default: :func:`default_workers`).
        progress: where to report progress.
        limits: the sandbox handle: limits and isolation for every model-written program the
            run executes, built once from the isolation choice (``Limits(isolation=NONE)`` where
            bubblewrap cannot run).
        recorded: the folder of the run this one replays (``--llm replay:PATH`` gives PATH's
            folder), or ``None``: an approach whose prompts show measured figures (times)
            reuses the measurements recorded there, so the replay asks the same prompts.
    """

    folder: Path
    seed: int = 0
    model_name: str = "unknown"
    backend_name: str = "unknown"
    eval_timeout: float = field(kw_only=True)
    workers: int | None = None
    progress: Progress = field(default_factory=SilentProgress)
    limits: Limits = field(default_factory=Limits)
    recorded: Path | None = None


ProblemT = TypeVar("ProblemT")

Solve = Callable[[Problem, str], ProblemResult]
"""Solves one evaluation problem given its key; returns its result (status from
:mod:`genplan.runs.status` for a returned plan)."""


class RunSession:
    """The books of one run of one approach (see the module's description).

    Args:
        approach: the registered approach name.
        label: the run's label (:func:`~genplan.runs.settings.settings_label`).
        settings: the approach's settings dataclass (recorded as JSON).
        problems: the run's problems (or a task in English).
        model: the run's model; :attr:`model` records every exchange with it.
        context: folder, seed, names, budgets, workers, progress, sandbox handle.
        isolation: what the record says model-written code ran under (``bwrap``, ``none``, or
            an approach's own isolation), ``None`` for a run that runs no model code.

    Raises:
        ConfigurationError: the run folder holds a run made with other values
            (:func:`~genplan.runs.identity.check_identity`).
    """

    def __init__(
        self,
        approach: str,
        label: str,
        settings: Any,
        problems: DomainProblems | DescribedTask,
        model: LanguageModel,
        context: RunContext,
        *,
        isolation: str | None,
    ):
        self.approach, self.label, self.settings = approach, label, settings
        self.problems, self.context, self.isolation = problems, context, isolation
        self.folder = context.folder
        self.identity = run_identity(approach, label, settings, problems, context)
        check_identity(self.folder, self.identity)
        self.folder.mkdir(parents=True, exist_ok=True)
        conversation = self.folder / CONVERSATION_FILE
        conversation.unlink(missing_ok=True)
        self.model = RecordingModel(model, ConversationRecorder(conversation), context.backend_name)
        """The run's model, every exchange recorded (use it for every model call)."""
        earlier = [context.recorded / OBSERVATIONS_FILE] if context.recorded is not None else []
        self.observations = Observations(self.folder / OBSERVATIONS_FILE, earlier)
        """Measurements the prompts depend on, reused by a rerun or a replay."""
        self.date = today()
        self.machine = MachineWatch()
        self.artifacts: list[str] = []
        write_json(self.folder / IDENTITY_FILE, self.identity)
        self.artifacts.append(IDENTITY_FILE)

    @property
    def limits(self) -> Limits:
        """The sandbox handle every model-written program of this run runs under."""
        return self.context.limits

    def note(self, text: str) -> None:
        """A line worth showing a person (a round's outcome, a phase's result)."""
        self.context.progress.note(text)

    def key(self, problem: Problem) -> str:
        """``problem``'s key in the record (:func:`~genplan.runs.keys.problem_key`)."""
        root = self.problems.root if isinstance(self.problems, DomainProblems) else None
        return problem_key(problem, root)

    def write_json(self, name: str, data: object) -> Path:
        """Write ``data`` to the run folder's ``name`` (atomically) and list it as an artifact."""
        path = self.folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json(path, data)
        self.add_artifact(name)
        return path

    def write_text(self, name: str, text: str) -> Path:
        """Write ``text`` to the run folder's ``name`` and list it as an artifact."""
        path = self.folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        self.add_artifact(name)
        return path

    def add_artifact(self, name: str) -> None:
        """List the run folder's file ``name`` in the record (once)."""
        if name not in self.artifacts:
            self.artifacts.append(name)

    def workers(self, problems: int) -> int:
        """Problems solved at once for ``problems`` problems (``context.workers`` or
        :func:`default_workers`, at most one per problem, at least one)."""
        return max(1, min(self.context.workers or default_workers(), problems or 1))

    def solve_each(
        self,
        problems: Sequence[ProblemT],
        solve: Callable[[ProblemT, str], ProblemResult],
        *,
        keys: Sequence[str] | None = None,
    ) -> list[ProblemResult]:
        """``solve`` every problem, :meth:`workers` at once (in this thread when one), each result
        reported to the progress as it finishes; results in the order given.

        Args:
            problems: the problems to solve (usually ``problems.evaluation``; anything else,
                such as a task in English, with ``keys``).
            solve: called with each problem and its key (a :data:`Solve` for PDDL problems).
            keys: the problems' keys when they are not the problems' own (e.g. obfuscated
                copies keyed by their originals).
        """
        problems = list(problems)
        keys = list(keys) if keys is not None else [self.key(p) for p in problems]  # type: ignore[arg-type]
        self.context.progress.start_problems(len(problems))

        def one(pair: tuple[ProblemT, str]) -> ProblemResult:
            result = solve(*pair)
            self.context.progress.problem_done(result)
            return result

        workers = self.workers(len(problems))
        if workers == 1:
            return [one(pair) for pair in zip(problems, keys)]
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(one, zip(problems, keys)))

    def close(
        self,
        results: Sequence[ProblemResult],
        *,
        feedback: Mapping[str, int] | None = None,
        details: Mapping[str, Any] | None = None,
        world_model_queries: int | None = None,
    ) -> RunRecord:
        """The run's record, its shared fields filled here, written to the run folder.

        Args:
            results: one result per evaluation problem, in the problem set's order.
            feedback: feedback messages sent to the model, by kind.
            details: the approach's own figures (JSON-ready).
            world_model_queries: queries over the run, ``None`` for approaches that make none.
        """
        if (self.folder / CONVERSATION_FILE).is_file():  # none when no model was asked (PG3)
            self.artifacts.insert(0, CONVERSATION_FILE)
        if (self.folder / OBSERVATIONS_FILE).is_file():
            self.add_artifact(OBSERVATIONS_FILE)
        described = isinstance(self.problems, DescribedTask)
        record = RunRecord(
            approach=self.approach,
            label=self.label,
            settings=settings_to_json(self.settings),
            domain=self.problems.name,
            seed=self.context.seed,
            model=self.context.model_name,
            backend=self.context.backend_name,
            date=self.date,
            problems=list(results),
            llm_calls=self.model.calls,
            prompt_tokens=self.model.prompt_tokens,
            completion_tokens=self.model.completion_tokens,
            feedback=dict(feedback or {}),
            world_model_queries=world_model_queries,
            artifacts=[*self.artifacts, METADATA_FILE, RESULTS_FILE],
            details=dict(details or {}),
            isolation=self.isolation,
            problem_set=ENGLISH if described else self.problems.problem_set,  # type: ignore[union-attr]
            generators=None if described else self.problems.generators,  # type: ignore[union-attr]
            machine=self.machine.figures(),
        )
        write_record(self.folder, record)
        return record
