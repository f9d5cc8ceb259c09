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

from typing import Any, ClassVar, Protocol

from genplan.llm import LanguageModel
from genplan.pddl.problem_sets import DomainProblems
from genplan.runs.folders import (
    SaveOutcome,
    recorded_generators,
    run_folder,
    save_root,
    save_run,
    saved_run_folder,
)
from genplan.runs.keys import problem_key
from genplan.runs.progress import Progress, SilentProgress
from genplan.runs.record import (
    CONVERSATION_FILE,
    METADATA_FILE,
    RESULTS_FILE,
    ProblemResult,
    RunRecord,
    read_record,
    today,
    write_json,
    write_record,
)
from genplan.runs.session import RunContext, RunSession, default_workers
from genplan.runs.settings import changed_settings, convert_value, settings_from_mapping, settings_to_json
from genplan.runs.status import SOLVED

__all__ = [
    "CONVERSATION_FILE",
    "METADATA_FILE",
    "RESULTS_FILE",
    "SOLVED",
    "Approach",
    "ProblemResult",
    "Progress",
    "RunContext",
    "RunRecord",
    "RunSession",
    "SaveOutcome",
    "SilentProgress",
    "changed_settings",
    "convert_value",
    "default_workers",
    "problem_key",
    "read_record",
    "reads_descriptions",
    "recorded_generators",
    "run_folder",
    "save_root",
    "save_run",
    "saved_run_folder",
    "settings_from_mapping",
    "settings_to_json",
    "today",
    "write_json",
    "write_record",
]


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
