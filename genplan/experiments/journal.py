"""The grid's results as append-only JSON Lines, written by the client alone.

``runs.jsonl`` holds one record per finished cell, ``problems.jsonl`` one per cell and
evaluation problem, ``failures.jsonl`` one per failed attempt (a failed cell is tried again
on the next run of the grid). Each record carries its cell's id (``cell``); a cell's problem
records are written before its run record, so the run record is the commit mark: on opening,
a torn last line (the client died mid-write) is cut off and problem records of a cell with no
run record are dropped. :meth:`Journal.record` refuses a cell already recorded, so every cell
appears exactly once whatever the engine did (a task retried after its worker died, a grid
run twice).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

RUNS_FILE = "runs.jsonl"
PROBLEMS_FILE = "problems.jsonl"
FAILURES_FILE = "failures.jsonl"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The records of a JSON Lines file (empty when the file does not exist)."""
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _cut_torn_line(path: Path) -> None:
    """Drop an unfinished last line (no newline: the writer died mid-line)."""
    if not path.is_file():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as stream:
            stream.truncate(data.rfind(b"\n") + 1)


class Journal:
    """Appends a grid's records to ``folder`` (created), one cell at a time.

    Attributes:
        done: ids of the cells recorded in ``runs.jsonl``.
        runs: the ``runs.jsonl`` records by cell id.
    """

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        for name in (RUNS_FILE, PROBLEMS_FILE, FAILURES_FILE):
            _cut_torn_line(self.folder / name)
        self.runs: dict[str, dict[str, Any]] = {
            record["cell"]: record for record in read_jsonl(self.folder / RUNS_FILE)
        }
        self.done: set[str] = set(self.runs)
        self._drop_orphans()

    def _drop_orphans(self) -> None:
        path = self.folder / PROBLEMS_FILE
        rows = read_jsonl(path)
        kept = [row for row in rows if row.get("cell") in self.done]
        if len(kept) != len(rows):
            temporary = path.with_suffix(".tmp")
            temporary.write_text("".join(json.dumps(row) + "\n" for row in kept), encoding="utf-8")
            temporary.replace(path)

    @staticmethod
    def _append(path: Path, rows: list[dict[str, Any]]) -> None:
        with path.open("a", encoding="utf-8") as stream:
            stream.write("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
            stream.flush()
            os.fsync(stream.fileno())

    def record(self, run: dict[str, Any], problems: list[dict[str, Any]]) -> bool:
        """Append a finished cell's problem records, then its run record; ``False`` (and nothing
        written) when the cell (``run["cell"]``) is recorded already."""
        cell = run["cell"]
        if cell in self.done:
            return False
        self._append(self.folder / PROBLEMS_FILE, [{"cell": cell, **row} for row in problems])
        self._append(self.folder / RUNS_FILE, [run])
        self.done.add(cell)
        self.runs[cell] = run
        return True

    def record_failure(self, cell: str, error: str, worker: str | None = None) -> None:
        """Append one failed attempt of ``cell`` with its error text."""
        self._append(self.folder / FAILURES_FILE, [{"cell": cell, "error": error, "worker": worker}])
