"""Test doubles for experiment grids: scripted models per cell and a toy second approach.

Everything here is importable by name (workers of the process pool and of Dask rebuild it
from its module path), and nothing here is a real result.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from fake_programs import CORRECT, RAISES, fenced

from genplan.approaches.base import Approach, ProblemResult, RunRecord, RunSession
from genplan.experiments.spec import Cell
from genplan.llm import FakeLanguageModel, LanguageModel, Message
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems
from genplan.plans.validate import check_plan
from genplan.runs.status import plan_status


def folder_domain_name(name: str) -> str:
    """The name :func:`small_domains`'s copy of built-in domain ``name`` runs under: a user's
    folder is known by its content, never by the built-in name
    (:func:`~genplan.pddl.problem_sets.domain_short_name`)."""
    from genplan.paths import builtin_domain_file

    return f"{name}-{hashlib.sha256(builtin_domain_file(name).read_bytes()).hexdigest()[:8]}"


def small_domains(root: Path, problems: int = 4) -> tuple[str, str]:
    """Folders ``root/heavy`` and ``root/gripper``, each a domain with ``problems`` small
    (training-sized) problems: grids over them run in seconds."""
    from genplan.paths import builtin_domain_file
    from genplan.pddl.generate import write_problems

    folders = []
    for name in ("heavy", "gripper"):
        folder = root / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "domain.pddl").write_text(builtin_domain_file(name).read_text())
        for path in write_problems(name, "train", 0, root / "generated" / name)[:problems]:
            (folder / path.name).write_text(path.read_text())
        folders.append(str(folder))
    return folders[0], folders[1]


EMPTY = "def get_plan(objects, init, goal):\n    return []\n"
TOY = "plan-per-problem"
TOY_ENTRY = "grid_doubles:PlanPerProblem"
"""The toy approach's registry entry (``monkeypatch.setitem(REGISTRY, TOY, TOY_ENTRY)``)."""


def answers(cell: Cell) -> FakeLanguageModel:
    """Scripted answers for a cell: for the generalized plan a raising program, then (after
    the feedback) a correct one on heavy and an empty one elsewhere; for the toy approach one
    (invalid) plan per problem."""
    if cell.approach == TOY:
        return FakeLanguageModel(["(pack-first o0)"] * 50)
    program = CORRECT if cell.domain_name.split("-")[0] == "heavy" else EMPTY
    opening = [] if cell.label == "no-cot" else ["A summary.", "A strategy."]
    return FakeLanguageModel([*opening, fenced(RAISES), *[fenced(program)] * 4])


@dataclass(frozen=True)
class SlowAnswers:
    """:func:`answers`, each call slowed by ``delay`` seconds, every cell start logged as one
    line ``<cell id> <pid>`` in ``log`` (to see which cells ran twice)."""

    log: Path
    delay: float = 0.15

    def __call__(self, cell: Cell) -> LanguageModel:
        with self.log.open("a") as stream:
            stream.write(f"{cell.id} {os.getpid()}\n")
        return _Slow(answers(cell), self.delay)


class _Slow:
    name = "fake"

    def __init__(self, inner: FakeLanguageModel, delay: float):
        self.inner, self.delay = inner, delay

    def complete(self, messages: Any, *, sample: int = 0) -> Any:
        time.sleep(self.delay)
        return self.inner.complete(messages, sample=sample)


@dataclass(frozen=True)
class ToySettings:
    """The toy approach's settings."""

    prefix: str = field(default="Plan for", metadata={"help": "the words before the problem's name"})


class PlanPerProblem(Approach[DomainProblems, ToySettings]):
    """A toy model-as-planner approach: one model call per evaluation problem, the answer's
    lines taken as the plan and checked. Its books (the run folder, the recording, the loop
    over problems, the record) are the run session's: 6 lines beyond its own logic."""

    name: ClassVar[str] = TOY
    summary: ClassVar[str] = "toy: the model answers a plan per problem"
    settings_type: ClassVar[type] = ToySettings
    label_prefix: ClassVar[bool] = False

    def solve(self, session: RunSession, problems: DomainProblems, settings: ToySettings) -> RunRecord:
        def one(problem: Problem, key: str) -> ProblemResult:
            started = time.perf_counter()
            answer = session.model.complete([Message("user", f"{settings.prefix} {problem.name}")])
            plan = [line.strip() for line in answer.text.splitlines() if line.strip()]
            status, message = plan_status(check_plan(problem, plan))
            return ProblemResult(key, status, len(plan), time.perf_counter() - started, message, llm_calls=1)

        return session.close(session.solve_each(problems.evaluation, one))


VOLATILE = {"date", "seconds", "median_seconds", "folder", "wall_seconds", "machine"}


def stable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records without the fields that change from run to run (timings, dates, folders),
    sorted by cell and problem, to compare two runs of a grid."""
    cleaned = [{k: v for k, v in row.items() if k not in VOLATILE} for row in rows]
    return sorted(cleaned, key=lambda row: (row["cell"], str(row.get("problem"))))
