"""Tasks given in English instead of PDDL: a folder with ``description.md`` (LLM+AL's input).

Ishay and Lee (*LLM+AL*, AAAI 2025, Sec. 3.1 and Appendix A.1) take a problem as a natural
language description of its types, objects and actions with a query. genplan takes the same:
a folder holding ``description.md`` (the domain and the query in English, shown to the model
as it is) and, optionally, ``answer.json`` (the known answer, never shown to the model)::

    {"answer": 11, "unit": "crossings", "source": "..."}
    {"answer": "no solution", "unit": "crossings", "source": "..."}

``answer`` is the fewest steps of a plan, or ``"no solution"``. Such a folder has no PDDL, so
only approaches that read descriptions take it (see
:func:`genplan.approaches.base.reads_descriptions`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from genplan.errors import ConfigurationError

DESCRIPTION_FILE = "description.md"
ENGLISH = "english"
"""The problem set a run record names for a task in English (its ``problem_set`` field)."""
ANSWER_FILE = "answer.json"
NO_SOLUTION = "no solution"


@dataclass(frozen=True)
class KnownAnswer:
    """A task's known answer.

    Attributes:
        steps: the fewest steps of a plan (one action per step, except where the task lets
            actions share a step), or ``None`` when there is no solution.
        unit: what a step is called (``crossings``).
        source: where the answer comes from and how it was checked.
    """

    steps: int | None
    unit: str = "steps"
    source: str = ""

    @property
    def solvable(self) -> bool:
        """Whether a plan exists."""
        return self.steps is not None

    def describe(self) -> str:
        """``11 crossings`` or ``no solution``."""
        return NO_SOLUTION if self.steps is None else f"{self.steps} {self.unit}"


@dataclass(frozen=True)
class DescribedTask:
    """A task given in English.

    Attributes:
        name: the folder's name (runs are named after it).
        description: the text of ``description.md``.
        answer: the known answer, or ``None`` when the folder has no ``answer.json``.
        folder: the folder.
    """

    name: str
    description: str
    answer: KnownAnswer | None
    folder: Path


def is_described_folder(folder: Path) -> bool:
    """Whether ``folder`` holds a task in English (``description.md``) rather than PDDL."""
    return (folder / DESCRIPTION_FILE).is_file() and not (folder / "domain.pddl").is_file()


def load_described_task(folder: Path | str) -> DescribedTask:
    """Read a task folder (see the module docstring).

    Raises:
        ConfigurationError: no readable ``description.md``, or an ``answer.json`` that is not
            JSON or whose ``answer`` is neither a positive integer nor ``"no solution"`` (the
            message names the file and field).
    """
    folder = Path(folder)
    try:
        description = (folder / DESCRIPTION_FILE).read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigurationError(
            f"{folder / DESCRIPTION_FILE}: cannot read the task description ({error.strerror})"
        ) from error
    answer_path = folder / ANSWER_FILE
    answer = _read_answer(answer_path) if answer_path.is_file() else None
    return DescribedTask(folder.resolve().name, description, answer, folder)


def _read_answer(path: Path) -> KnownAnswer:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ConfigurationError(f"{path}: not a readable JSON file ({error})") from error
    if not isinstance(data, dict) or "answer" not in data:
        raise ConfigurationError(
            f'{path}: expected an object with "answer" (a number of steps or "{NO_SOLUTION}")'
        )
    value = data["answer"]
    unit = str(data.get("unit", "steps"))
    source = str(data.get("source", ""))
    if value == NO_SOLUTION:
        return KnownAnswer(None, unit, source)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigurationError(
            f'{path}: field "answer" must be a number of steps (0 or more) or "{NO_SOLUTION}", got {value!r}'
        )
    return KnownAnswer(value, unit, source)
