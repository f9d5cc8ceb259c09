"""Running one grid cell where a worker is: the task every engine runs.

A cell runs in a private scratch folder of the worker (never in a shared folder), and its
whole outcome travels back to the client as data: the run record, the per-problem results,
Figure 4's per-step fractions and the run folder's files. The client alone writes the run
folder and the results (:mod:`genplan.experiments.grid`), so a task that Dask runs twice (its
first worker died) can never leave two records or a half-overwritten run folder.
"""

from __future__ import annotations

import os
import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.approaches.base import Approach, RunContext, RunRecord, check_capabilities
from genplan.experiments.spec import Cell, ModelSpec
from genplan.llm import NO_MODEL, LanguageModel, NoModel
from genplan.pddl.described import DescribedTask
from genplan.pddl.problem_sets import DomainProblems, described_folder
from genplan.pddl.selection import Selection, load_chosen_problems
from genplan.plans.optimal import optimal_lengths_under
from genplan.sandbox import Isolation, Limits

ModelFactory = Callable[[Cell], LanguageModel]
"""Builds the model for a cell inside the worker; must be picklable (a module-level function
or a :class:`CellModel`), since it travels to worker processes."""


@dataclass(frozen=True)
class CellModel:
    """The default :data:`ModelFactory`: the grid's :class:`ModelSpec`, built in the worker."""

    spec: ModelSpec
    selection: Selection | None = None
    """The grid's problem selection (a cell replays a saved run whose problems include it)."""

    def __call__(self, cell: Cell) -> LanguageModel:
        """The model for ``cell`` (a replay of its saved run when the spec names no backend)."""
        return self.spec.build(cell, self.selection)

    def recorded_name(self, cell: Cell) -> str:
        """The model name ``cell`` records (see :meth:`ModelSpec.recorded_name`)."""
        return self.spec.recorded_name(cell, self.selection)

    def recorded_folder(self, cell: Cell) -> Path | None:
        """The folder of the run ``cell`` replays, if it replays one (see :meth:`ModelSpec.recorded_folder`)."""
        return self.spec.recorded_folder(cell, self.selection)


@dataclass(frozen=True)
class CellOptions:
    """What every cell of a grid shares (see :class:`~genplan.experiments.spec.GridSpec`).

    Attributes:
        problems_dir: where built-in problems are generated (the client writes them first;
            a worker that finds identical files writes nothing).
        model_name / backend: recorded in every run.
        problems: the grid's problem selection, parsed once when the grid was built, or ``None``.
        isolation: the sandbox's isolation for model-written code.
    """

    problems_dir: Path
    n_eval: int
    eval_timeout: float
    size_check: bool
    per_step: bool
    eval_workers: int
    model_name: str
    backend: str
    problems: Selection | None = None
    isolation: Isolation = Isolation.BWRAP


@dataclass
class CellOutcome:
    """What a finished cell sends back to the client.

    Attributes:
        record: the run record.
        files: the run folder's files, relative path -> bytes.
        steps: Figure 4's fraction solved after each debugging step, or ``None``.
        seconds: the cell's wall-clock seconds on its worker.
        worker: ``host:pid`` of the process that ran it.
    """

    record: RunRecord
    files: dict[str, bytes] = field(default_factory=dict)
    steps: list[dict[str, Any]] | None = None
    seconds: float = 0.0
    worker: str = ""


def run_cell(
    cell: Cell, approach: Approach, options: CellOptions, model_factory: ModelFactory
) -> CellOutcome:
    """Run ``approach`` on ``cell`` in a scratch folder and return everything it produced.

    Raises:
        GenplanError: a bad domain or a backend failure; the client records the cell as failed.
    """
    started = time.perf_counter()
    problems: DomainProblems | DescribedTask
    check_capabilities(
        approach,
        domain=cell.domain,
        english=described_folder(cell.domain) is not None,
        isolation=options.isolation,
    )
    problems = load_chosen_problems(
        cell.domain,
        cell.seed,
        options.n_eval,
        options.problems,
        options.problems_dir,
        labeller=optimal_lengths_under(options.problems_dir),
        size_check=options.size_check,
        generators=cell.generators,
    )
    with tempfile.TemporaryDirectory(prefix="genplan-cell-") as scratch:
        folder = Path(scratch) / "run"
        model: LanguageModel
        if cell.asks_model:
            recorded_name = getattr(model_factory, "recorded_name", None)
            recorded_folder = getattr(model_factory, "recorded_folder", None)
            model_name = recorded_name(cell) if recorded_name else options.model_name
            backend_name = options.backend
            recorded = recorded_folder(cell) if recorded_folder else None
            model = model_factory(cell)
        else:  # PG3, PE, PC: no backend is built, none is recorded
            model_name = backend_name = NO_MODEL
            recorded = None
            model = NoModel()
        context = RunContext(
            folder=folder,
            seed=cell.seed,
            model_name=model_name,
            backend_name=backend_name,
            eval_timeout=options.eval_timeout,
            workers=options.eval_workers,
            limits=Limits(isolation=options.isolation),
            recorded=recorded,
        )
        record = approach.run(problems, model, cell.settings, context)  # capabilities checked above
        steps = None
        hook = getattr(approach, "per_step", None)  # Figure 4: the approach's own measurement
        if options.per_step and hook is not None and not isinstance(problems, DescribedTask):
            steps = hook(folder, problems, context)
        files = {
            path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*"))
            if path.is_file()
        }
    return CellOutcome(
        record=record,
        files=files,
        steps=steps,
        seconds=time.perf_counter() - started,
        worker=f"{socket.gethostname()}:{os.getpid()}",
    )
