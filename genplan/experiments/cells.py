"""Running one grid cell where a worker is: the task every engine runs.

A cell is a :class:`~genplan.requests.request.RunRequest` (built by the client,
:func:`genplan.experiments.grid.cell_request`), composed by the one composer
(:func:`~genplan.requests.compose.compose`) in a private scratch folder of the worker (never in
a shared folder), and its whole outcome travels back to the client as data: the run record,
the per-problem results, Figure 4's per-step fractions and the run folder's files. The client
alone writes the run folder and the results (:mod:`genplan.experiments.grid`), so a task that
Dask runs twice (its first worker died) can never leave two records or a half-overwritten run
folder.
"""

from __future__ import annotations

import os
import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from genplan.approaches.base import Approach, RunRecord
from genplan.experiments.spec import Cell
from genplan.llm import LanguageModel
from genplan.requests.compose import compose
from genplan.requests.request import RunRequest

ModelFactory = Callable[[Cell], LanguageModel]
"""Builds a cell's model inside the worker in place of the grid's backend (tests' scripted
models; recorded under the backend's names); must be picklable (a module-level function or
object), since it travels to worker processes."""


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
    cell: Cell,
    request: RunRequest,
    approach: Approach[Any, Any],
    model_factory: ModelFactory | None = None,
) -> CellOutcome:
    """Compose ``request`` (the cell's run of ``approach``) in a scratch folder and return
    everything it produced. The grid checked the sandbox once before its cells.

    Raises:
        GenplanError: a bad domain or a backend failure; the client records the cell as failed.
    """
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="genplan-cell-") as scratch:
        folder = Path(scratch) / "run"
        model = model_factory(cell) if model_factory is not None and cell.asks_model else None
        run = compose(replace(request, folder=folder), approach=approach, model=model, check_sandbox=False)
        files = {
            path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*"))
            if path.is_file()
        }
    return CellOutcome(
        record=run.record,
        files=files,
        steps=run.steps,
        seconds=time.perf_counter() - started,
        worker=f"{socket.gethostname()}:{os.getpid()}",
    )
