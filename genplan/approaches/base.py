"""The seam every approach plugs into: one entry point, one settings dataclass, one run record.

An approach answers "how should a language model help solve every problem of a PDDL domain?"
in its own way: a generalized plan written once per domain (Silver et al., AAAI 2024), search
components written once per domain (AutoToS, Cao et al., AAAI 2025), the model as a planner
per problem (Boomerang, SymPlanner, ...), a declarative action model solved by clingo (LLM+AL).
Whatever it does, it takes the domain's problems, a :class:`~genplan.llm.LanguageModel`, its
frozen settings and a run folder, and returns a :class:`RunRecord`, so that every report can
put approaches side by side on the same problems (per problem: key, status, plan length,
seconds; per run: LLM calls, tokens, feedback by kind, world-model queries, artifacts).

The record is written to ``metadata.json`` in the run folder and the per-problem results to
``results.json``; :func:`write_record` does both.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import shutil
import statistics
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

from genplan.errors import ConfigurationError
from genplan.llm import LanguageModel
from genplan.paths import data_folder, source_checkout
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems
from genplan.sandbox import Limits

SOLVED = "solved"
"""The status of a problem whose plan was checked and found valid. Any other status names the
failure: the generalized plan's :class:`~genplan.plans.failures.FailureKind` values
(``python-exception``, ``timeout``, ``plan-syntax``, ``plan-semantics``, ``crashed``,
``no-code``), or an approach's own (e.g. ``search-timeout``, ``no-plan``, ``budget-exhausted``),
documented by that approach."""

METADATA_FILE = "metadata.json"
RESULTS_FILE = "results.json"
CONVERSATION_FILE = "conversation.jsonl"
"""The recorded conversation of a run folder (every approach that asks a model records one)."""


@dataclass(frozen=True)
class ProblemResult:
    """How an approach did on one evaluation problem.

    Attributes:
        problem: the problem's key: its file path relative to the problem set's folder, with
            ``/`` separators (``testing/hard/p03.pddl``), since IPC problem names repeat across
            difficulty levels; the problem's name when it has no file.
        status: :data:`SOLVED` or the failure's name (see :data:`SOLVED`).
        plan_length: actions in the returned plan, or ``None`` when no plan came back.
        seconds: wall-clock seconds spent on this problem (a time-out counts as the budget).
        message: the checker's or the failure's message, or ``None``.
        llm_calls: model calls made for this problem alone (approaches that plan per
            problem), else ``None``.
        world_model_queries: world-model queries made for this problem, else ``None``.
        details: approach-specific figures (JSON-ready), e.g. the optimal plan length.
    """

    problem: str
    status: str
    plan_length: int | None
    seconds: float
    message: str | None = None
    llm_calls: int | None = None
    world_model_queries: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        """Whether a valid plan was found."""
        return self.status == SOLVED

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``details`` omitted when empty)."""
        data = dataclasses.asdict(self)
        data["seconds"] = round(self.seconds, 6)
        data["details"] = dict(self.details)
        if not data["details"]:
            del data["details"]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ProblemResult:
        """Inverse of :meth:`to_json`.

        Raises:
            KeyError: ``problem`` or ``status`` is missing.
        """
        return cls(
            problem=str(data["problem"]),
            status=str(data["status"]),
            plan_length=data.get("plan_length"),
            seconds=float(data.get("seconds", 0.0)),
            message=data.get("message"),
            llm_calls=data.get("llm_calls"),
            world_model_queries=data.get("world_model_queries"),
            details=dict(data.get("details") or {}),
        )


@dataclass
class RunRecord:
    """Everything one run of one approach reports, the same for every approach.

    Attributes:
        approach: the registered approach name (``generalized-plan``, ``autotos``, ...).
        label: the run's name within the approach: the settings that differ from the
            approach's defaults (``main`` for the generalized plan's main variant); the run
            folder is ``<domain>/<label>-seed<S>``.
        settings: the approach's settings as JSON.
        domain: the domain's short name.
        seed: the problem seed.
        model: the model that answered (as the backend reported it or the user named it).
        backend: the backend kind (``openai``, ``files``, ``manual``, ``replay``, ``fake``).
        date: the day the run started (ISO 8601, UTC).
        problems: one result per evaluation problem, in the problem set's order.
        llm_calls: model calls over the whole run (answers from the cache included).
        prompt_tokens / completion_tokens: totals, or ``None`` when any answer came without
            counts (the ``files`` and ``manual`` backends report none).
        feedback: feedback messages sent to the model, by kind (e.g. ``{"plan-semantics": 1}``).
        world_model_queries: world-model queries over the run, or ``None`` for approaches that
            make none.
        artifacts: files written in the run folder, relative to it.
        details: approach-specific figures (JSON-ready).
        isolation: the sandbox isolation model-written code ran under (``bwrap``, or ``none``
            with ``--isolation none``); ``None`` for a run that ran no model code.
        problem_set: the evaluation problems (:attr:`~genplan.pddl.problem_sets.DomainProblems.problem_set`):
            ``generated``, ``paper`` (the paper's own files), ``by-length:4,8,12 x2``,
            ``small x30``, or ``folder`` (a user's); ``None`` in records made before it was kept.
        generators: the generator version of a built-in domain's generated problems
            (``v2``; ``v1`` for the saved runs); ``None`` for a user's folder.
    """

    approach: str
    label: str
    settings: dict[str, Any]
    domain: str
    seed: int
    model: str
    backend: str
    date: str
    problems: list[ProblemResult] = field(default_factory=list)
    llm_calls: int = 0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    feedback: dict[str, int] = field(default_factory=dict)
    world_model_queries: int | None = None
    artifacts: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    isolation: str | None = None
    problem_set: str | None = None
    generators: str | None = None

    @property
    def solved(self) -> int:
        """Evaluation problems solved."""
        return sum(p.solved for p in self.problems)

    @property
    def fraction_solved(self) -> float:
        """``solved / problems`` (0.0 when there were none)."""
        return self.solved / len(self.problems) if self.problems else 0.0

    @property
    def median_seconds(self) -> float | None:
        """Median seconds over solved problems, or ``None`` when none was solved."""
        times = [p.seconds for p in self.problems if p.solved]
        return statistics.median(times) if times else None

    @property
    def statuses(self) -> dict[str, int]:
        """Problems per status, sorted by status."""
        counts: dict[str, int] = {}
        for result in self.problems:
            counts[result.status] = counts.get(result.status, 0) + 1
        return dict(sorted(counts.items()))

    def to_json(self) -> dict[str, Any]:
        """The ``metadata.json`` form: every field but ``problems``, plus the summary figures
        (``evaluation_problems``, ``solved``, ``fraction_solved``, ``median_seconds``,
        ``statuses``)."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "problems"}
        data.update(
            evaluation_problems=len(self.problems),
            solved=self.solved,
            fraction_solved=self.fraction_solved,
            median_seconds=self.median_seconds,
            statuses=self.statuses,
        )
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], problems: Sequence[Mapping[str, Any]] = ()) -> RunRecord:
        """Inverse of :meth:`to_json` (with ``results.json``'s list as ``problems``).

        Raises:
            KeyError: a required field is missing.
        """
        names = {f.name for f in dataclasses.fields(cls)} - {"problems"}
        record = cls(**{k: v for k, v in data.items() if k in names})
        record.problems = [ProblemResult.from_json(p) for p in problems]
        return record


def write_json(path: Path, data: object) -> None:
    """Write ``data`` as indented JSON, atomically (a temporary file, then a rename)."""
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    temporary.replace(path)


def write_record(folder: Path, record: RunRecord) -> None:
    """Write ``record`` as ``metadata.json`` and its problems as ``results.json`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    write_json(folder / RESULTS_FILE, [p.to_json() for p in record.problems])
    write_json(folder / METADATA_FILE, record.to_json())


def read_record(folder: Path) -> RunRecord:
    """The record of a finished run folder.

    Raises:
        OSError: ``metadata.json`` cannot be read; ValueError, KeyError: it is not a run record.
    """
    metadata = json.loads((folder / METADATA_FILE).read_text(encoding="utf-8"))
    results_path = folder / RESULTS_FILE
    results = json.loads(results_path.read_text(encoding="utf-8")) if results_path.is_file() else []
    return RunRecord.from_json(metadata, results)


def run_folder(runs_dir: Path, domain_name: str, label: str, seed: int) -> Path:
    """``runs_dir/<domain>/<label>-seed<S>``: where a run writes its files."""
    return runs_dir / domain_name / f"{label}-seed{seed}"


def saved_run_folder(domain_name: str, label: str, seed: int) -> Path:
    """Where replay looks for a saved run: ``<root>/<domain>/<label>-seed<S>`` in the first of
    :func:`~genplan.paths.saved_run_roots` that holds it (the user's ``./synthesized/`` before
    genplan's own), else genplan's own (which may not exist)."""
    from genplan.paths import saved_run_roots

    roots = saved_run_roots()
    for root in roots:
        if (root / domain_name / f"{label}-seed{seed}").is_dir():
            return root / domain_name / f"{label}-seed{seed}"
    return roots[-1] / domain_name / f"{label}-seed{seed}"


def saved_replay_folder(domain_name: str, label: str, seed: int) -> Path:
    """The saved run whose conversation replays a run labelled ``label``: its own
    (:func:`saved_run_folder`), else, for a label with ``no-debug``, the same run with debugging
    on (No Debug uses the first program, the first one that conversation asks for: Silver et al.
    2024, Sec. 5.1), else its own place (which may not exist)."""
    own = saved_run_folder(domain_name, label, seed)
    parts = label.split("+")
    if not (own / CONVERSATION_FILE).is_file() and "no-debug" in parts:
        debugged = saved_run_folder(
            domain_name, "+".join(p for p in parts if p != "no-debug") or "main", seed
        )
        if (debugged / CONVERSATION_FILE).is_file():
            return debugged
    return own


def recorded_generators(conversation: Path) -> str | None:
    """The generator version of the run that recorded ``conversation``, from the ``metadata.json``
    beside it (``"v1"`` for the saved runs), or ``None`` when there is none or it records none.

    A replay must run on the problems its recording was made on, since the first prompt shows
    two training problems; the CLI and the experiment grid use this to pick them."""
    try:
        value = json.loads((conversation.parent / METADATA_FILE).read_text(encoding="utf-8")).get(
            "generators"
        )
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


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


def _exchanges(path: Path) -> list[tuple[object, str, int]] | None:
    """The recorded exchanges of a conversation file, or ``None`` if there is none readable."""
    from genplan.llm import LLMError, read_recording

    if not path.is_file():
        return None
    try:
        return [(e.messages, e.response, e.sample) for e in read_recording(path)]
    except LLMError:
        return None


def save_run(
    folder: Path,
    domain_name: str,
    label: str,
    seed: int,
    *,
    root: Path | None = None,
    overwrite: bool = False,
) -> SaveOutcome:
    """Copy a finished run's artifacts (those its record lists) beside the saved runs (``--save``).

    The run goes to ``ROOT/<domain>/<label>-seed<S>`` (``ROOT`` from :func:`save_root`
    unless given). Saved runs are real model output and never overwritten by accident: a run
    whose conversation is already saved there (a replay of that saved run) is not written
    again; a new run goes to the first free ``<label>-seed<S>-<N>`` beside the saved one,
    unless ``overwrite`` replaces it.

    Raises:
        ConfigurationError: the run folder has no readable record, or the destination cannot
            be written (names it).
    """
    try:
        record = read_record(folder)
    except (OSError, ValueError, KeyError) as error:
        raise ConfigurationError(f"cannot save {folder}: it holds no finished run ({error})") from error
    base = (root or save_root()) / domain_name
    destination = base / f"{label}-seed{seed}"
    ours = _exchanges(folder / CONVERSATION_FILE)
    for saved in [destination, *sorted(base.glob(f"{label}-seed{seed}-*"))]:
        if ours is not None and ours == _exchanges(saved / CONVERSATION_FILE):
            return SaveOutcome(
                None, f"Not saved: {saved} already holds this conversation (this run replays it)."
            )
    if destination.is_dir() and any(destination.iterdir()) and not overwrite:
        number = 2
        while (base / f"{label}-seed{seed}-{number}").exists():
            number += 1
        destination = base / f"{label}-seed{seed}-{number}"
    try:
        if destination.is_dir() and overwrite:
            shutil.rmtree(destination)
        destination.mkdir(parents=True, exist_ok=True)
        for name in record.artifacts:
            source = folder / name
            if source.is_file():
                target = destination / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
    except OSError as error:
        where = error.filename or destination
        raise ConfigurationError(f"cannot save the run to {where}: {error.strerror or error}") from error
    return SaveOutcome(destination, f"Saved to {destination.resolve()}")


def today() -> str:
    """Today's date in UTC, ISO 8601 (``2026-11-25``)."""
    return datetime.datetime.now(datetime.timezone.utc).date().isoformat()


def problem_key(problem: Problem, root: Path | None) -> str:
    """A problem's key in records: its file relative to ``root`` (``/`` separators), else its name."""
    source = problem.source
    if source is not None and root is not None:
        try:
            return Path(source).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return problem.name


class Progress(Protocol):
    """Where an approach reports progress while it runs (the CLI draws bars; tests record)."""

    def note(self, text: str) -> None:
        """A line worth showing a person (a training round's outcome, a phase's result)."""
        ...

    def start_problems(self, total: int) -> None:
        """Solving ``total`` evaluation problems starts."""
        ...

    def problem_done(self, result: ProblemResult) -> None:
        """One evaluation problem finished."""
        ...


class SilentProgress:
    """A :class:`Progress` that shows nothing."""

    def note(self, text: str) -> None:
        """Ignore ``text``."""

    def start_problems(self, total: int) -> None:
        """Ignore the start."""

    def problem_done(self, result: ProblemResult) -> None:
        """Ignore the result."""


@dataclass(frozen=True)
class RunContext:
    """What every run gets besides its problems, model and settings.

    Attributes:
        folder: the run folder (created by the approach if missing); an interrupted run keeps
            what was written there, and the conversation is recorded as it happens.
        seed: the problem seed (the run's identity in grids).
        model_name: the model's name as recorded.
        backend_name: the backend kind as recorded.
        eval_timeout: seconds per evaluation problem (the paper's 30).
        workers: evaluation problems solved at once (default: the usable cores).
        progress: where to report progress.
        limits: the sandbox's limits and isolation for every model-written program the run
            executes (``Limits(isolation="none")`` where bubblewrap cannot run).
        recorded: the folder of the run this one replays (``--llm replay:PATH`` gives PATH's
            folder), or ``None``: an approach whose prompts show measured figures (times)
            reuses the measurements recorded there, so the replay asks the same prompts.
    """

    folder: Path
    seed: int = 0
    model_name: str = "unknown"
    backend_name: str = "unknown"
    eval_timeout: float = 30.0
    workers: int | None = None
    progress: Progress = field(default_factory=SilentProgress)
    limits: Limits = field(default_factory=Limits)
    recorded: Path | None = None


class Approach(Protocol):
    """One way a language model helps solve a PDDL domain; registered by name in
    :mod:`genplan.approaches`.

    Attributes:
        name: the registry name, e.g. ``autotos``.
        summary: one line for ``genplan run --help``.
        settings_type: the frozen dataclass of the approach's settings; every field has a
            default (the paper's value) and ``metadata={"help": ...}``, so the command line and
            experiment files can set it by name.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    settings_type: ClassVar[type]

    def label(self, settings: Any) -> str:
        """The run's name within the approach (see :attr:`RunRecord.label`)."""
        ...

    def describe(self, record: RunRecord) -> list[str]:
        """Lines for a person on what this approach did in ``record`` (its ``details``), printed
        between the run's heading and its evaluation figures."""
        ...

    def run(
        self, problems: DomainProblems, model: LanguageModel, settings: Any, context: RunContext
    ) -> RunRecord:
        """Run the approach on ``problems`` with ``model`` and return its record (also written
        to the run folder).

        Raises:
            genplan.llm.LLMError: the backend failed; the run folder keeps what was recorded.
        """
        ...


def reads_descriptions(approach: Approach) -> bool:
    """Whether ``approach`` also takes tasks given in English (a folder with ``description.md``,
    :class:`~genplan.pddl.described.DescribedTask`) in place of a PDDL problem set: an approach
    that does sets the class attribute ``reads_descriptions = True`` and accepts either in
    :meth:`Approach.run` (LLM+AL's input, Ishay and Lee, AAAI 2025, Sec. 3.1)."""
    return bool(getattr(approach, "reads_descriptions", False))


def changed_settings(settings: Any) -> dict[str, Any]:
    """The fields of a settings dataclass that differ from their defaults, in field order."""
    default = type(settings)()
    return {
        f.name: getattr(settings, f.name)
        for f in dataclasses.fields(settings)
        if getattr(settings, f.name) != getattr(default, f.name)
    }


def settings_to_json(settings: Any) -> dict[str, Any]:
    """A settings dataclass as JSON-ready fields."""
    return {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings)}


def settings_from_mapping(settings_type: type, values: Mapping[str, Any], *, where: str = "settings") -> Any:
    """Build ``settings_type`` from a mapping of field names to values (experiment files).

    Values are converted to the field's declared type (``"3"`` to 3 for an int field, etc.).

    Raises:
        ValueError: an unknown field name, or a value that does not convert; the message
            names ``where``, the field and the known fields.
    """
    fields = {f.name: f for f in dataclasses.fields(settings_type)}
    hints = typing.get_type_hints(settings_type)
    converted: dict[str, Any] = {}
    for name, value in values.items():
        key = name.replace("-", "_")
        if key not in fields:
            raise ValueError(f"{where}: unknown setting {name!r}; known: {', '.join(fields)}")
        try:
            converted[key] = convert_value(hints[key], value)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{where}: setting {name!r}: {error}") from error
    return settings_type(**converted)


def convert_value(hint: Any, value: Any) -> Any:
    """``value`` converted to the type ``hint`` (bool, int, float, str, or ``X | None``).

    Raises:
        ValueError: the value does not convert.
    """
    args = typing.get_args(hint)
    if args and type(None) in args:
        if value is None or (isinstance(value, str) and value.lower() in ("none", "null")):
            return None
        hint = next(a for a in args if a is not type(None))
    if hint is bool:
        if isinstance(value, bool):
            return value
        text = str(value).lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got {value!r}")
    if hint in (int, float, str):
        if hint is int and isinstance(value, float) and not value.is_integer():
            raise ValueError(f"expected an integer, got {value!r}")
        return hint(value)
    if typing.get_origin(hint) is typing.Literal:
        if value not in typing.get_args(hint):
            raise ValueError(f"expected one of {typing.get_args(hint)}, got {value!r}")
        return value
    return value
