"""The seam every approach plugs into: one entry point, one settings dataclass, one run record.

An approach answers "how should a language model help solve every problem of a PDDL domain?"
in its own way: a generalized plan written once per domain (Silver et al., AAAI 2024), search
components written once per domain (AutoToS, Cao et al., AAAI 2025), the model as a planner
per problem (Boomerang, SymPlanner, ...), a declarative action model solved by clingo (LLM+AL).
Whatever it does, it takes the domain's problems, a :class:`~genplan.llm.LanguageModel`, its
frozen settings and a run context, and returns a :class:`RunRecord`, so that every report can
put approaches side by side on the same problems.

The books every approach shares (the run record, its files, saving, observations, problem keys,
progress) live one stage lower, in :mod:`genplan.runs`; this module re-exports their names so
``from genplan.approaches.base import RunRecord`` keeps working.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from genplan.errors import ConfigurationError
from genplan.llm import LanguageModel
from genplan.pddl.described import DescribedTask
from genplan.pddl.problem_sets import DomainProblems
from genplan.runs.folders import (
    SaveOutcome,
    recorded_generators,
    run_folder,
    save_root,
    save_run,
    saved_replay_folder,
    saved_run_folder,
)
from genplan.runs.keys import problem_key
from genplan.runs.progress import Progress, SilentProgress
from genplan.runs.record import (
    CONVERSATION_FILE,
    METADATA_FILE,
    PLANS_FOLDER,
    RESULTS_FILE,
    ProblemResult,
    RunRecord,
    found_plan,
    read_record,
    today,
    write_json,
    write_plans,
    write_record,
)
from genplan.runs.session import RunContext, RunSession, default_workers
from genplan.runs.settings import (
    changed_settings,
    convert_value,
    settings_from_mapping,
    settings_label,
    settings_to_json,
)
from genplan.runs.status import SOLVED
from genplan.sandbox import Isolation

__all__ = [
    "CONVERSATION_FILE",
    "METADATA_FILE",
    "PLANS_FOLDER",
    "RESULTS_FILE",
    "SOLVED",
    "Approach",
    "InputKind",
    "ModelCode",
    "ProblemResult",
    "Progress",
    "RunContext",
    "RunRecord",
    "RunSession",
    "SaveOutcome",
    "SilentProgress",
    "asks_model",
    "changed_settings",
    "check_capabilities",
    "convert_value",
    "default_workers",
    "found_plan",
    "problem_key",
    "read_record",
    "reads_descriptions",
    "recorded_generators",
    "run_folder",
    "save_root",
    "save_run",
    "saved_replay_folder",
    "saved_run_folder",
    "settings_from_mapping",
    "settings_label",
    "settings_to_json",
    "today",
    "uses_sandbox",
    "write_json",
    "write_plans",
    "write_record",
]


class InputKind(str, Enum):
    """What an approach can take as its problems."""

    PDDL = "pddl"
    """A PDDL domain and its problems (:class:`~genplan.pddl.problem_sets.DomainProblems`)."""
    ENGLISH = "english"
    """A task in English (a folder with ``description.md``,
    :class:`~genplan.pddl.described.DescribedTask`; LLM+AL's input, Ishay and Lee, AAAI 2025, Sec. 3.1)."""


class ModelCode(str, Enum):
    """Whether an approach runs code the model wrote, and where."""

    NONE = "none"
    """It runs no model-written code (the model plans; genplan checks the plans)."""
    SANDBOX = "sandbox"
    """Model-written Python runs in genplan's sandbox, under the run's isolation (``--isolation``)."""
    OWN = "own"
    """Model-written code runs under the approach's own isolation (ASP: clingo in a limited
    child process), never genplan's sandbox, so ``--isolation`` does not apply."""


InputT = TypeVar("InputT", bound=DomainProblems | DescribedTask)
"""What an approach takes as its problems: :class:`~genplan.pddl.problem_sets.DomainProblems`,
:class:`~genplan.pddl.described.DescribedTask`, or either (as :attr:`Approach.inputs` declares)."""

SettingsT = TypeVar("SettingsT")
"""The approach's frozen settings dataclass."""


class Approach(Generic[InputT, SettingsT]):
    """One way a language model helps solve a PDDL domain; registered by name in
    :mod:`genplan.approaches`.

    Generic in what it takes (``InputT``: ``DomainProblems``, ``DescribedTask`` or either) and
    in its settings (``SettingsT``), so a subclass's :meth:`solve` names its own types:
    ``class Ask(Approach[DomainProblems, AskSettings])``.

    A subclass names itself and its settings, declares what it can take and whether it runs
    model code, and writes only its own logic in :meth:`solve`: the run session
    (:class:`~genplan.runs.session.RunSession`) opened by :meth:`run` keeps the books (the run
    folder, the recorded conversation, observations, problem keys, progress, the parallel loop
    over evaluation problems and the record's shared fields). The manual: docs/adding-an-approach.md.

    Attributes:
        name: the registry name, e.g. ``autotos``.
        summary: one line for ``genplan run --help``.
        settings_type: the frozen dataclass of the approach's settings; every field has a
            default (the paper's value) and ``metadata={"help": ...}`` (and optionally
            ``"label"``, its short name in run labels), so the command line, experiment files
            and labels use it by name.
        inputs: what the approach can take (:class:`InputKind`); PDDL unless it says more.
        model_code: whether it runs model-written code, and where (:class:`ModelCode`); the
            sandbox is checked before a run only for :attr:`ModelCode.SANDBOX`.
        own_isolation: for :attr:`ModelCode.OWN`, what the record's ``isolation`` says.
        label_prefix: whether labels start with the approach's name (``autotos``,
            ``symplanner+rollouts-4``); the generalized plan's do not (``main``, ``no-cot``).
        asks_model: whether the approach asks a language model at all; one that does not
            (PG3, PE, PC) needs no backend in ``genplan run`` or a grid, and its runs record
            model and backend ``none`` (:class:`~genplan.llm.NoModel`).
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    settings_type: ClassVar[type[Any]]
    inputs: ClassVar[frozenset[InputKind]] = frozenset({InputKind.PDDL})
    model_code: ClassVar[ModelCode] = ModelCode.NONE
    own_isolation: ClassVar[str | None] = None
    label_prefix: ClassVar[bool] = True
    asks_model: ClassVar[bool] = True

    def label(self, settings: SettingsT) -> str:
        """The run's name within the approach: every setting that differs from its default
        (:func:`~genplan.runs.settings.settings_label`; see :attr:`RunRecord.label`)."""
        return settings_label(settings, self.name if self.label_prefix else None)

    def describe(self, record: RunRecord) -> list[str]:
        """Lines for a person on what this approach did in ``record`` (its ``details``), printed
        between the run's heading and its evaluation figures (none by default)."""
        return []

    def per_step(
        self, folder: Path, problems: DomainProblems, context: RunContext
    ) -> list[dict[str, Any]] | None:  # a grid measures steps of PDDL problems only
        """The hook for a grid's extra measurement (``genplan experiments --per-step``): the
        fraction of ``problems``' evaluation problems solved after each step of the finished
        run in ``folder``, as ``[{"step": 0, "fraction_solved": 0.4}, ...]`` (``None`` where a
        step cannot be measured), drawn by the reports as Figure 4. ``None`` (the default): the
        approach has no steps to measure.

        Raises:
            GenplanError: the run folder cannot be read.
        """
        return None

    def isolation(self, context: RunContext) -> str | None:
        """What the record's ``isolation`` says for a run with ``context``: the sandbox's
        isolation for :attr:`ModelCode.SANDBOX`, :attr:`own_isolation` for
        :attr:`ModelCode.OWN`, ``None`` for an approach that runs no model code."""
        if self.model_code is ModelCode.SANDBOX:
            return context.limits.isolation.value
        return self.own_isolation if self.model_code is ModelCode.OWN else None

    def open_session(
        self,
        problems: InputT,
        model: LanguageModel,
        settings: SettingsT,
        context: RunContext,
    ) -> RunSession:
        """The run session of a run of this approach (opens the run folder and the recording).

        Raises:
            ConfigurationError: the run folder holds a run made with other values.
        """
        return RunSession(
            self.name,
            self.label(settings),
            settings,
            problems,
            model,
            context,
            isolation=self.isolation(context),
        )

    def run(
        self,
        problems: InputT,
        model: LanguageModel,
        settings: SettingsT,
        context: RunContext,
    ) -> RunRecord:
        """Run the approach on ``problems`` with ``model`` and return its record (also written
        to the run folder): opens the session and calls :meth:`solve`. Runs are composed by
        :func:`genplan.requests.compose.compose`, which checks the approach's capabilities
        first; a subclass defines :meth:`solve`, never this.

        Raises:
            genplan.llm.LLMError: the backend failed; the run folder keeps what was recorded.
        """
        return self.solve(self.open_session(problems, model, settings, context), problems, settings)

    def solve(self, session: RunSession, problems: InputT, settings: SettingsT) -> RunRecord:
        """The approach's own logic: ask ``session.model``, solve the evaluation problems (usually
        with ``session.solve_each``) and return ``session.close(results, ...)``.

        Raises:
            genplan.llm.LLMError: the backend failed.
        """
        raise NotImplementedError(f"{type(self).__name__} defines neither solve nor run")


def reads_descriptions(approach: Approach[Any, Any]) -> bool:
    """Whether ``approach`` also takes tasks given in English (a folder with ``description.md``,
    :class:`~genplan.pddl.described.DescribedTask`) in place of a PDDL problem set
    (:attr:`Approach.inputs` holds :attr:`InputKind.ENGLISH`)."""
    return InputKind.ENGLISH in approach.inputs


def asks_model(approach: Approach[Any, Any]) -> bool:
    """Whether ``approach`` asks a language model (:attr:`Approach.asks_model`), so a run of it
    needs a model backend or a saved run to replay."""
    return approach.asks_model


def uses_sandbox(approach: Approach[Any, Any]) -> bool:
    """Whether ``approach`` runs model-written code in genplan's sandbox (so the sandbox must
    start before its run, and ``--isolation`` applies to it)."""
    return approach.model_code is ModelCode.SANDBOX


def check_capabilities(
    approach: Approach[Any, Any], *, domain: str, english: bool, isolation: Isolation
) -> None:
    """Refuse, before anything starts, a run ``approach`` cannot do: the one place where an
    approach's declared capabilities (:attr:`Approach.inputs`, :attr:`Approach.model_code`)
    meet what the user asked for.

    Args:
        domain: the ``--domain`` value (named in the message).
        english: whether ``domain`` is a task in English (``description.md``).
        isolation: the isolation asked for model-written code (``--isolation``).

    Raises:
        ConfigurationError: the input kind is one the approach cannot read (the approaches that
            can are named), or ``--isolation none`` for an approach that runs no model code in
            the sandbox (where it would have no effect).
    """
    from genplan.approaches import approach_names, get_approach

    kind = InputKind.ENGLISH if english else InputKind.PDDL
    if kind not in approach.inputs:
        readers = [n for n in approach_names() if kind in get_approach(n).inputs]
        what = "a task in English (description.md)" if english else "a PDDL domain"
        raise ConfigurationError(
            f"{domain} is {what}, which {approach.name} cannot take; approaches that can: {', '.join(readers)}"
        )
    if isolation is Isolation.NONE and not uses_sandbox(approach):
        runs = (
            f"runs its model's code under its own isolation ({approach.own_isolation})"
            if approach.model_code is ModelCode.OWN
            else "runs no model-written code"
        )
        raise ConfigurationError(
            f"--isolation none has no effect for {approach.name}, which {runs}; it applies to approaches that run "
            "model-written Python in genplan's sandbox (generalized-plan, autotos): leave it out"
        )
