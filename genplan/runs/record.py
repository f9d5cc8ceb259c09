"""The run record every approach returns, and its files in a run folder.

Whatever an approach does, it reports the same figures (per problem: key, status, plan length,
seconds; per run: LLM calls, tokens, feedback by kind, world-model queries, artifacts), so
every report can put approaches side by side. The record is written to ``metadata.json`` in the
run folder and the per-problem results to ``results.json``; :func:`write_record` does both and
:func:`read_record` reads them back.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.pddl.problem import Problem
from genplan.plans.costs import cost_kind
from genplan.plans.plan_file import FoundPlan, plan_file_name
from genplan.plans.validate import PlanVerdict
from genplan.runs.status import SOLVED, canonical_status, plan_status

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
        plan_cost: the cost of the valid plan found (its length, or its total cost in
            action-cost problems, :mod:`genplan.plans.costs`), else ``None``; ``None`` also in
            records made before costs were kept.
        checked_by: who judged the returned plan: ``"val"``, ``"simulator"`` (genplan's
            STRIPS simulator, which models every domain genplan loads exactly, see
            :mod:`genplan.pddl.fragment`), ``"syntax"`` (the plan-syntax check rejected it before
            either saw it), or ``None`` when no plan came back (and in records made before it
            was kept).
        check_note: why the simulator judged instead of VAL (``"VAL refuses plans of 9,995+
            steps"``), else ``None``.
        plan: the valid plan found, which :func:`write_record` saves as
            ``plans/<key>.plan``; not part of ``results.json``.
    """

    problem: str
    status: str
    plan_length: int | None
    seconds: float
    message: str | None = None
    llm_calls: int | None = None
    world_model_queries: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    plan_cost: float | None = None
    checked_by: str | None = None
    check_note: str | None = None
    plan: FoundPlan | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of_plan(
        cls,
        key: str,
        problem: Problem,
        actions: Sequence[str],
        verdict: PlanVerdict,
        seconds: float,
        *,
        message: str | None = None,
        **fields: Any,
    ) -> ProblemResult:
        """The result of a problem whose approach returned ``actions`` and the checker gave them
        ``verdict``: the status and message of :func:`~genplan.runs.status.plan_status`, the plan
        and its cost when valid (:func:`found_plan`), and who checked it. Every approach builds
        the result of a returned plan here, so every record says the same of it.

        Args:
            message: replaces the checker's message of an invalid plan (e.g. to say where a
                policy's execution stopped); ignored for a valid plan.
            fields: the other fields of :class:`ProblemResult` (``details``, ``llm_calls``, ...).
        """
        status, checker_message = plan_status(verdict)
        found = found_plan(problem, verdict, actions)
        return cls(
            problem=key,
            status=status,
            plan_length=len(actions),
            seconds=seconds,
            message=(message or checker_message) if status != SOLVED else None,
            plan_cost=found.cost if found is not None else None,
            checked_by=verdict.checker_used,
            check_note=verdict.simulator_reason,
            plan=found,
            **fields,
        )

    @property
    def solved(self) -> bool:
        """Whether a valid plan was found."""
        return self.status == SOLVED

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form, ``plan_cost`` beside ``plan_length`` and ``checked_by`` and
        ``check_note`` after ``message`` (``details`` omitted when empty; the plan itself is saved
        apart, see :func:`write_plans`)."""
        data: dict[str, Any] = {}
        for item in dataclasses.fields(self):
            if item.name not in ("plan", "plan_cost", "checked_by", "check_note"):
                data[item.name] = getattr(self, item.name)
            if item.name == "plan_length":
                cost = self.plan_cost
                data["plan_cost"] = int(cost) if cost is not None and cost == int(cost) else cost
            if item.name == "message":
                data["checked_by"] = self.checked_by
                data["check_note"] = self.check_note
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
            status=canonical_status(str(data["status"])),
            plan_length=data.get("plan_length"),
            seconds=float(data.get("seconds", 0.0)),
            message=data.get("message"),
            llm_calls=data.get("llm_calls"),
            world_model_queries=data.get("world_model_queries"),
            details=dict(data.get("details") or {}),
            plan_cost=data.get("plan_cost"),
            checked_by=data.get("checked_by"),
            check_note=data.get("check_note"),
        )


CHECKER_NAMES = {"val": "VAL", "simulator": "simulator", "syntax": "plan-syntax check"}
"""How a person reads each ``checked_by`` value."""


def describe_checkers(results: Sequence[ProblemResult]) -> str:
    """Who checked the returned plans of ``results``: ``"checked by VAL 29, simulator 1 (VAL
    refuses plans of 9,995+ steps)"`` (each reason the simulator judged, once), or ``"no plan
    checked"`` when none was (or the records did not keep it)."""
    counts: dict[str, int] = {}
    reasons: dict[str, None] = {}
    for result in results:
        if result.checked_by is not None:
            counts[result.checked_by] = counts.get(result.checked_by, 0) + 1
        if result.checked_by == "simulator" and result.check_note:
            reasons[result.check_note] = None
    if not counts:
        return "no plan checked"
    parts = [
        f"{CHECKER_NAMES.get(name, name)} {count}" for name, count in sorted(counts.items(), key=_val_first)
    ]
    text = "checked by " + ", ".join(parts)
    return f"{text} ({'; '.join(reasons)})" if reasons else text


def _val_first(item: tuple[str, int]) -> tuple[int, str]:
    return (list(CHECKER_NAMES).index(item[0]) if item[0] in CHECKER_NAMES else len(CHECKER_NAMES), item[0])


def found_plan(problem: Problem, verdict: PlanVerdict, actions: Sequence[str] | None) -> FoundPlan | None:
    """What a :class:`ProblemResult` keeps of a checked plan: the plan, its cost and cost kind
    when ``verdict`` found it valid, else ``None``. Every approach calls this where it checks a
    plan, so every run saves its plans the same way (:func:`write_record`)."""
    if not verdict.valid or verdict.cost is None or actions is None:
        return None
    return FoundPlan(tuple(str(action) for action in actions), verdict.cost, cost_kind(problem))


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
        scores: the IPC quality and agile scores summed per level (``{"quality": {"all": ...,
            "easy": ...}, "agile": {...}, "problems": {...}, "time_limit_seconds": T,
            "references": source}``, :mod:`genplan.runs.quality`), or ``None``.
        machine: the machine the run's seconds were measured on (:func:`~genplan.runs.machine.
            machine_figures`): ``{"cpus": 2, "load_average": {"start": [1m, 5m, 15m], "end":
            [...]}}``; ``None`` in records made before it was kept.
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
    scores: dict[str, Any] | None = None
    machine: dict[str, Any] | None = None

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
    def checkers(self) -> dict[str, int]:
        """Problems per checker that judged their returned plan (``val``, ``simulator``,
        ``syntax``), sorted; problems with no plan (or from records that did not keep it) are
        not counted."""
        counts: dict[str, int] = {}
        for result in self.problems:
            if result.checked_by is not None:
                counts[result.checked_by] = counts.get(result.checked_by, 0) + 1
        return dict(sorted(counts.items()))

    def describe_checkers(self) -> str:
        """Who checked the returned plans, for a person: ``"checked by VAL 29, simulator 1 (VAL
        refuses plans of 9,995+ steps)"``, or ``"no plan checked"``."""
        return describe_checkers(self.problems)

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
        ``statuses``, ``checked_by``)."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "problems"}
        data.update(
            evaluation_problems=len(self.problems),
            solved=self.solved,
            fraction_solved=self.fraction_solved,
            median_seconds=self.median_seconds,
            statuses=self.statuses,
            checked_by=self.checkers,
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


PLANS_FOLDER = "plans"
"""The run folder's subfolder of saved plans, ``plans/<problem key>.plan``."""


def write_plans(folder: Path, results: Sequence[ProblemResult]) -> list[str]:
    """Save every result's found plan as ``folder/<key>.plan`` (Fast Downward's ``sas_plan``
    format, :mod:`genplan.plans.plan_file`); returns the files written, relative to
    ``folder``, in the results' order.

    Raises:
        OSError: a file cannot be written.
    """
    written = []
    for result in results:
        if result.plan is None:
            continue
        relative = plan_file_name(result.problem)
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(result.plan.to_text(), encoding="utf-8")
        written.append(relative)
    return written


def write_record(folder: Path, record: RunRecord) -> None:
    """Write ``record`` as ``metadata.json`` and its problems as ``results.json`` in ``folder``,
    and its found plans as ``plans/<key>.plan`` (added to the record's artifacts)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in write_plans(folder / PLANS_FOLDER, record.problems):
        relative = f"{PLANS_FOLDER}/{name}"
        if relative not in record.artifacts:
            record.artifacts.append(relative)
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


def today() -> str:
    """Today's date in UTC, ISO 8601 (``2026-11-25``)."""
    return datetime.datetime.now(datetime.timezone.utc).date().isoformat()
