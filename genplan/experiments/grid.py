"""Experiment grids: domains x seeds x approaches, one task per cell, resumable (Silver et al. 2024, Sec. 5).

:func:`run_grid` checks the grid (fail fast: unknown approaches or settings, missing
recordings), generates the built-in problems once, and hands every cell not yet recorded to
an engine (:mod:`genplan.experiments.engines`: Dask by default). As each cell finishes, the
client, the only writer, puts its run folder in place (``RUNS/<model>/<cell id>/``: the
approach's files, ``metadata.json`` and ``results.json``) and appends its records to the
results' JSON Lines (:mod:`genplan.experiments.journal`). A killed grid resumes where it
stopped: recorded cells are skipped, and a cell whose run folder was written but not yet
recorded is recorded from its folder without running again.
"""

from __future__ import annotations

import json
import shutil
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from genplan.approaches.base import METADATA_FILE, Approach, RunRecord, read_record
from genplan.errors import ConfigurationError
from genplan.experiments.cells import CellOutcome, ModelFactory, run_cell
from genplan.experiments.engines import Engine, SequentialEngine, Task
from genplan.experiments.identity import (
    IDENTITY_FILE,
    cell_identity,
    check_recorded_cells,
    differences,
    folder_identity,
    recorded_identity,
)
from genplan.experiments.journal import Journal
from genplan.experiments.spec import Cell, GridSpec, grid_cells, model_slug, resolve_approach
from genplan.llm import NO_MODEL
from genplan.paths import builtin_domain_names
from genplan.requests.request import RunRequest, parse_request

STEPS_FILE = "steps.json"


class GridProgress(Protocol):
    """Where a grid reports progress (the CLI draws a bar; tests record)."""

    def start(self, total: int, recorded: int) -> None:
        """The grid has ``total`` cells, ``recorded`` of them finished before this run."""
        ...

    def update(self, done: int, failed: int, running: int) -> None:
        """This run so far: cells finished, failed, running now (called as cells finish and
        every second or so)."""
        ...

    def failed(self, cell: str, error: str) -> None:
        """Cell ``cell`` failed with ``error`` (one line)."""
        ...


@dataclass(frozen=True)
class GridSummary:
    """What one run of a grid did: cells in the grid, recorded before, finished and failed now, and
    skipped (no model set up and no saved run to replay)."""

    total: int
    recorded_before: int
    finished: int
    failed: int
    skipped: int = 0


def run_folder_of(spec: GridSpec, cell: Cell) -> Path:
    """``RUNS/<model>/<domain>/<approach>/<label>-seed<S>`` (``<model>`` is ``none`` for an
    approach that asks no model)."""
    return spec.runs_dir / model_slug(spec.model.name if cell.asks_model else NO_MODEL) / cell.id


def cell_request(spec: GridSpec, cell: Cell, approach: Approach[Any, Any] | None = None) -> RunRequest:
    """The run request of one cell of ``spec``: the cell's approach, settings, domain, seed and
    generators, and what every cell of the grid shares (problems generated under the runs
    folder, the evaluation budget, the model backend and answer cache, the isolation), parsed by
    the one parser (:func:`~genplan.requests.request.parse_request`).

    Raises:
        ConfigurationError: as :func:`~genplan.requests.request.parse_request`.
    """
    values = {
        "approach": cell.approach,
        "domain": cell.domain,
        "settings": cell.settings,
        "seed": cell.seed,
        "n": spec.n_eval,
        "selection": spec.problems,
        "generators": cell.generators,
        "size_check": spec.size_check,
        "eval_timeout": spec.eval_timeout,
        "workers": spec.eval_workers,
        "isolation": spec.isolation,
        "runs_dir": spec.runs_dir.resolve(),  # the client writes problems there first
        "cache_dir": spec.model.cache_dir,
        "backend": spec.model.backend,
        "per_step": spec.per_step,
    }
    return parse_request(values, approach=approach, where=f"cell {cell.id}")


def check_grid(spec: GridSpec, cells: Iterable[Cell]) -> list[Cell]:
    """The cells that cannot run and are skipped: with no model backend set, those with no saved run
    to replay (none when a backend is set, and never a cell whose approach asks no model). Fail
    before anything runs when no cell can run.

    Raises:
        ConfigurationError: with no model backend set, no cell of a non-empty ``cells`` has a saved
            run to replay (the message lists the first few and how to set up a model); a replay's
            ``--model`` is not the recording's model.
    """
    every = list(cells)
    cells = [c for c in every if c.asks_model]  # a cell whose approach asks no model always runs
    if not spec.model.replays_saved_runs:
        if cells:
            spec.model.backend.recorded_model()  # a replay's --model that is not the recording's
        return []
    missing = [c for c in cells if not spec.model.saved_recording(c, spec.problems).is_file()]
    if missing and len(missing) == len(every):
        raise ConfigurationError(
            f"no model backend is set and {no_saved_run(missing)}; "
            "set one with --llm (openai, files:DIR, ...) and --model, or in the grid file's [model] table"
        )
    for cell in cells:
        if cell not in missing:
            spec.model.recorded_name(cell, spec.problems)
    return missing


def no_saved_run(cells: list[Cell]) -> str:
    """``"N cell(s) have no saved run to replay (first few ids ...)"``."""
    names = ", ".join(c.id for c in cells[:5]) + (" ..." if len(cells) > 5 else "")
    return f"{len(cells)} cell(s) have no saved run to replay ({names})"


def prepare_problems(spec: GridSpec, cells: Iterable[Cell]) -> None:
    """Generate the problems of every cell on a built-in domain once (per domain, seed and
    generator version), here in the client, so workers only read them; with a problem
    selection, label the optimal plan lengths once too (the cache then answers the workers)."""
    from genplan.pddl.problem_sets import write_builtin_problems
    from genplan.pddl.selection import load_selected_problems
    from genplan.plans.optimal import optimal_lengths_under

    selection = spec.problems
    problems_dir = spec.runs_dir.resolve()
    for domain, seed, generators in dict.fromkeys((c.domain, c.seed, c.generators) for c in cells):
        if domain not in builtin_domain_names():
            continue
        write_builtin_problems(
            domain, seed, spec.n_eval, problems_dir, size_check=spec.size_check, generators=generators
        )
        if selection is not None:
            load_selected_problems(
                domain,
                seed,
                selection,
                problems_dir,
                labeller=optimal_lengths_under(problems_dir),
                size_check=spec.size_check,
                generators=generators,
            )


def run_row(
    spec: GridSpec,
    cell: Cell,
    record: RunRecord,
    folder: Path,
    steps: Any,
    wall_seconds: float | None = None,
    identity: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``runs.jsonl`` record of a finished cell: the cell, then the run record's fields,
    ``wall_seconds``, the cell's wall-clock seconds on its worker (``None`` when recovered from
    its folder after the client died), and ``identity``, the values that made it
    (:func:`~genplan.experiments.identity.cell_identity`; computed from ``spec`` when not given)."""
    row: dict[str, Any] = {
        "cell": cell.id,
        "domain": cell.domain_name,
        "seed": cell.seed,
        "approach": cell.approach,
        "label": cell.label,
    }
    row.update({k: v for k, v in record.to_json().items() if k not in row})
    row["folder"] = str(folder)
    row["wall_seconds"] = None if wall_seconds is None else round(wall_seconds, 3)
    if steps is not None:
        row["steps"] = steps
    row["identity"] = identity if identity is not None else cell_identity(spec, cell)
    return row


def problem_rows(cell: Cell, record: RunRecord) -> list[dict[str, Any]]:
    """The ``problems.jsonl`` records of a finished cell, one per evaluation problem."""
    keys = {
        "domain": cell.domain_name,
        "seed": cell.seed,
        "approach": cell.approach,
        "label": cell.label,
        "model": record.model,
    }
    return [{**keys, **problem.to_json()} for problem in record.problems]


def write_run_folder(folder: Path, outcome: CellOutcome, identity: dict[str, Any] | None = None) -> None:
    """Put a finished cell's files in ``folder``, with its ``identity`` in ``cell.json`` when
    given: written beside it, then renamed into place (a previous folder of the same cell is
    replaced whole)."""
    temporary = folder.with_name(folder.name + ".incoming")
    shutil.rmtree(temporary, ignore_errors=True)
    for name, data in outcome.files.items():
        target = temporary / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    if outcome.steps is not None:
        (temporary / STEPS_FILE).write_text(json.dumps(outcome.steps, indent=2) + "\n")
    temporary.mkdir(parents=True, exist_ok=True)
    if identity is not None:
        (temporary / IDENTITY_FILE).write_text(json.dumps(identity, indent=2) + "\n")
    shutil.rmtree(folder, ignore_errors=True)
    temporary.rename(folder)


def _record_folder(
    spec: GridSpec, journal: Journal, cell: Cell, folder: Path, identity: dict[str, Any]
) -> bool:
    """Record a run folder the client wrote but did not record (it died in between), when the
    folder was made with the cell's current values (``identity``); ``False`` (nothing recorded)
    otherwise, and the cell runs again."""
    record = read_record(folder)
    if differences(folder_identity(folder) or recorded_identity(record.to_json()), identity):
        return False
    steps_path = folder / STEPS_FILE
    steps = json.loads(steps_path.read_text()) if steps_path.is_file() else None
    journal.record(run_row(spec, cell, record, folder, steps, identity=identity), problem_rows(cell, record))
    return True


def run_grid(
    spec: GridSpec,
    engine: Engine | None = None,
    *,
    progress: GridProgress | None = None,
    model_factory: ModelFactory | None = None,
) -> GridSummary:
    """Run every cell of ``spec`` not yet recorded in ``spec.results_dir``; record each as it finishes.

    Args:
        spec: the grid.
        engine: where cells run (default: in this process, one after the other).
        progress: where to report progress.
        model_factory: builds each cell's model in the worker (default: from ``spec.model``);
            must be picklable for the pool and Dask engines.

    Returns:
        The cells in the grid, recorded before, finished and failed in this run, and skipped
        (:func:`check_grid`: no model and no saved run). A failed cell is listed in
        ``failures.jsonl`` and tried again the next time.

    Raises:
        ConfigurationError: as :func:`~genplan.experiments.spec.grid_cells` and :func:`check_grid`;
            ``spec.results_dir`` holds cells made with other values (a model, ``--n``,
            ``--eval-timeout``, generators, problem set or settings: see
            :func:`~genplan.experiments.identity.check_recorded_cells`).
    """
    cells = grid_cells(spec)
    journal = Journal(spec.results_dir)
    identities: dict[str, dict[str, Any]] = {}

    def identity(cell: Cell) -> dict[str, Any]:
        if cell.id not in identities:
            identities[cell.id] = cell_identity(spec, cell)
        return identities[cell.id]

    recorded = [cell for cell in cells if cell.id in journal.done]
    check_recorded_cells(spec.results_dir, journal.runs, ((c.id, identity(c)) for c in recorded))
    recorded_before = len(recorded)
    for cell in cells:
        folder = run_folder_of(spec, cell)
        if cell.id not in journal.done and (folder / METADATA_FILE).is_file():
            _record_folder(spec, journal, cell, folder, identity(cell))  # the client died before recording it
    skipped = [cell for cell in check_grid(spec, cells) if cell.id not in journal.done]
    todo = [cell for cell in cells if cell.id not in journal.done and cell not in skipped]
    if progress is not None:
        progress.start(len(cells) - len(skipped), len(cells) - len(skipped) - len(todo))
    if todo:
        prepare_problems(spec, cells)
    approaches = {c.approach: resolve_approach_by_name(spec, c.approach) for c in todo}
    tasks = [
        Task(
            _task_key(cell),
            run_cell,
            (
                cell,
                cell_request(spec, cell, approaches[cell.approach]),
                approaches[cell.approach],
                model_factory,
            ),
        )
        for cell in todo
    ]
    by_key = {task.key: cell for task, cell in zip(tasks, todo)}
    runner: Engine = engine or SequentialEngine()
    finished = failed = 0
    for outcome in runner.run(tasks):
        if outcome is not None:
            cell = by_key[outcome.task.key]
            if outcome.error is not None:
                failed += 1
                text = "".join(traceback.format_exception_only(type(outcome.error), outcome.error)).strip()
                journal.record_failure(cell.id, text)
                if progress is not None:
                    progress.failed(cell.id, text)
            else:
                result: CellOutcome = outcome.value
                folder = run_folder_of(spec, cell)
                write_run_folder(folder, result, identity(cell))
                journal.record(
                    run_row(spec, cell, result.record, folder, result.steps, result.seconds, identity(cell)),
                    problem_rows(cell, result.record),
                )
                finished += 1
        if progress is not None:
            progress.update(finished, failed, runner.running())
    return GridSummary(len(cells), recorded_before, finished, failed, len(skipped))


def resolve_approach_by_name(spec: GridSpec, name: str) -> Approach[Any, Any]:
    """The approach object (it travels to workers with each task)."""
    spec_entry = next(a for a in spec.approaches if a.name == name)
    approach, _, _ = resolve_approach(spec_entry)
    return approach


def _task_key(cell: Cell) -> str:
    return "cell-" + cell.id.replace("/", ".")
