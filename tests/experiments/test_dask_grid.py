"""A grid on a real Dask LocalCluster of two worker processes, one killed mid-grid: every cell
is recorded exactly once, with the same results as the sequential run."""

from __future__ import annotations

import os
import signal
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from grid_doubles import TOY, TOY_ENTRY, SlowAnswers, small_domains, stable

from genplan.approaches import REGISTRY
from genplan.experiments.engines import DaskEngine, SequentialEngine
from genplan.experiments.grid import run_grid
from genplan.experiments.journal import read_jsonl
from genplan.experiments.spec import ApproachSpec, GridSpec, ModelSpec, grid_cells
from genplan.llm import BackendKind, BackendSpec


class KillOnceAfterFirstCell:
    """A grid progress that, once the first cell is in, kills (SIGKILL) a worker that is
    running a cell."""

    def __init__(self, engine: DaskEngine, pids: dict[str, int]):
        self.engine, self.pids = engine, pids
        self.killed: int | None = None

    def start(self, total: int, recorded: int) -> None:
        pass

    def update(self, done: int, failed: int, running: int) -> None:
        if self.killed is None and done >= 1:
            busy = [w for w, keys in self.engine.client.processing().items() if keys and w in self.pids]
            if busy:
                self.killed = self.pids[busy[0]]
                os.kill(self.killed, signal.SIGKILL)

    def failed(self, cell: str, error: str) -> None:
        pass


@pytest.mark.slow
def test_a_killed_worker_loses_no_cell_and_duplicates_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(REGISTRY, TOY, TOY_ENTRY)
    spec = GridSpec(
        domains=small_domains(tmp_path),
        seeds=(0, 1),
        approaches=(ApproachSpec("generalized-plan"), ApproachSpec(TOY)),
        model=ModelSpec(BackendSpec(BackendKind.FAKE, model="fake")),
        runs_dir=tmp_path / "sequential" / "runs",
        results_dir=tmp_path / "sequential" / "results",
        n_eval=2,
        eval_timeout=10,
        size_check=False,
    )
    reference = run_grid(
        spec, SequentialEngine(), model_factory=SlowAnswers(tmp_path / "sequential.log", 0.0)
    )
    assert reference.finished == 8

    distributed = replace(
        spec, runs_dir=tmp_path / "dask" / "runs", results_dir=tmp_path / "dask" / "results"
    )
    log = tmp_path / "dask.log"
    engine = DaskEngine(workers=2, dashboard=None)
    try:
        pids = engine.client.run(os.getpid)
        assert len(pids) == 2 and engine.workers == 2
        killer = KillOnceAfterFirstCell(engine, pids)
        summary = run_grid(distributed, engine, progress=killer, model_factory=SlowAnswers(log))
    finally:
        engine.close()

    assert killer.killed is not None, "no worker was busy to be killed"
    starts = [line.split() for line in log.read_text().splitlines()]
    ran_on_killed = {cell for cell, pid in starts if int(pid) == killer.killed}
    assert ran_on_killed, "the killed worker had not started a cell"
    assert any(Counter(cell for cell, _ in starts)[cell] == 2 for cell in ran_on_killed), (
        "no cell was run again"
    )
    assert (summary.finished, summary.failed) == (8, 0)

    runs = read_jsonl(distributed.results_dir / "runs.jsonl")
    assert sorted(r["cell"] for r in runs) == sorted(c.id for c in grid_cells(spec))  # each exactly once
    assert read_jsonl(distributed.results_dir / "failures.jsonl") == []
    assert stable(runs) == stable(read_jsonl(spec.results_dir / "runs.jsonl"))
    assert stable(read_jsonl(distributed.results_dir / "problems.jsonl")) == stable(
        read_jsonl(spec.results_dir / "problems.jsonl")
    )


def _listening_addresses() -> set[tuple[str, int]]:
    """The TCP addresses this process listens on (the embedded cluster's scheduler runs here)."""
    import psutil

    return {
        (c.laddr.ip, c.laddr.port)
        for c in psutil.Process().net_connections(kind="tcp")
        if c.status == psutil.CONN_LISTEN
    }


def _http_status(port: int, path: str) -> int:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_the_dashboard_binds_to_loopback_and_off_means_off() -> None:
    before = _listening_addresses()
    engine = DaskEngine(workers=1)
    try:
        opened = _listening_addresses() - before
        port = engine.client.scheduler_info()["services"]["dashboard"]
        assert opened and all(ip == "127.0.0.1" for ip, _ in opened), opened  # never 0.0.0.0
        assert _http_status(port, "/status") == 200
    finally:
        engine.close()
    before = _listening_addresses()
    engine = DaskEngine(workers=1, dashboard=None)
    try:
        opened = _listening_addresses() - before
        assert all(ip == "127.0.0.1" for ip, _ in opened), opened
        port = engine.client.scheduler_info()["services"]["dashboard"]
        assert port != 8787 and _http_status(port, "/status") == 404  # nothing served
    finally:
        engine.close()
