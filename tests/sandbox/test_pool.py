"""The worker pool: a worker started ahead of its first run, and a worker that imports only its own part."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import genplan.pddl.problem as problem_module
import genplan.sandbox.isolation as isolation_module
import genplan.sandbox.pool as pool_module
import genplan.sandbox.runner as runner_module
from genplan.cli import main
from genplan.pddl.generate import write_problems
from genplan.sandbox import IsolationUnavailable, Limits, RunStatus, prestart_worker, run_program
from genplan.sandbox.pool import WorkerPool

TRIVIAL = "def get_plan(objects, init, goal):\n    return sorted(objects)\n"


@pytest.fixture
def fresh_pool(monkeypatch: pytest.MonkeyPatch):
    pool = WorkerPool()
    monkeypatch.setattr(pool_module, "POOL", pool)
    monkeypatch.setattr(runner_module, "POOL", pool)
    yield pool
    pool.close()


def test_a_prestarted_worker_serves_the_first_run(fresh_pool: WorkerPool) -> None:
    prestart_worker()
    assert len(fresh_pool._all) == 1 and not fresh_pool._all[0].ready  # booting, not waited for
    prestart_worker()  # one is already starting: no second
    outcome = run_program(TRIVIAL, {"b", "a"}, set(), set(), limits=Limits())
    assert outcome.status is RunStatus.SUCCESS and outcome.plan == ["a", "b"]
    assert len(fresh_pool._all) == 1 and fresh_pool._all[0].ready


def test_a_prestarted_worker_that_fails_reports_bwraps_own_words(
    monkeypatch: pytest.MonkeyPatch, fresh_pool: WorkerPool
) -> None:
    binary = shutil.which("bwrap") or "bwrap"
    monkeypatch.setattr(isolation_module, "bwrap_arguments", lambda as_root: ["--no-such-option"])
    monkeypatch.setattr(isolation_module, "bwrap_binary", lambda: binary)
    prestart_worker()
    with pytest.raises(IsolationUnavailable, match=r"no-such-option|Unknown option"):
        run_program(TRIVIAL, set(), set(), set())
    assert fresh_pool._all == []


def test_without_bwrap_prestarting_is_silent_and_the_run_says_how(
    monkeypatch: pytest.MonkeyPatch, fresh_pool: WorkerPool
) -> None:
    monkeypatch.setattr(isolation_module, "bwrap_binary", lambda: None)
    prestart_worker()
    with pytest.raises(IsolationUnavailable, match="no bwrap program is installed"):
        run_program(TRIVIAL, set(), set(), set())


def test_closing_the_pool_stops_a_worker_that_is_still_starting(fresh_pool: WorkerPool) -> None:
    prestart_worker()
    worker = fresh_pool._all[0]
    fresh_pool.close()
    assert worker.process.poll() is not None and not worker.ready


def test_genplan_solve_starts_the_worker_before_it_reads_the_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_pool: WorkerPool
) -> None:
    problem = write_problems("gripper", "train", 0, tmp_path)[0]
    workers_while_reading: list[int] = []
    real_load = problem_module.load_problem

    def load(*args, **kwargs):
        workers_while_reading.append(len(fresh_pool._all))
        return real_load(*args, **kwargs)

    monkeypatch.setattr(problem_module, "load_problem", load)
    assert main(["solve", "--domain", "gripper", str(problem), "-o", str(tmp_path / "plan")]) == 0
    assert workers_while_reading == [1] and len(fresh_pool._all) == 1
    assert (tmp_path / "plan").read_text().startswith("(")


def test_the_worker_imports_only_the_sandbox_modules_it_runs(tmp_path: Path) -> None:
    code = (
        "import genplan.sandbox.worker, json, sys\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('genplan'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True
    )
    imported = json.loads(done.stdout)
    assert "genplan.sandbox.child" in imported
    for caller_side in ("pool", "runner", "trusted", "isolation"):
        assert f"genplan.sandbox.{caller_side}" not in imported


def test_at_exit_the_workers_are_stopped_without_waiting_for_them(
    fresh_pool: WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_program(TRIVIAL, set(), set(), set())
    worker = fresh_pool._all[0]
    waits: list[float | None] = []
    real_wait = worker.process.wait
    monkeypatch.setattr(
        worker.process, "wait", lambda timeout=None: waits.append(timeout) or real_wait(timeout)
    )
    pool_module._close_at_exit()
    assert worker.process.poll() is not None and fresh_pool._all == []
    assert waits == [None]  # reaped after the kill; never a grace period for it to exit by itself


@pytest.mark.parametrize(
    ("extra", "started"),
    [
        ([], ["bwrap"]),
        (["--isolation", "none"], ["none"]),
        (["--isolation=none"], ["none"]),
        (["--trusted"], []),
    ],
)
def test_genplan_solve_starts_its_worker_before_building_its_parser(
    extra: list[str], started: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import genplan.cli as cli
    import genplan.sandbox as sandbox

    order: list[str] = []

    def parser(argv: object) -> None:
        order.append("parser")
        raise KeyError("stop here")

    monkeypatch.setattr(
        sandbox, "prestart_worker", lambda isolation: order.append(isolation.value), raising=False
    )
    monkeypatch.setattr(cli, "build_parser", parser)
    with pytest.raises(KeyError):
        cli.main(["solve", "--domain", "heavy", "p.pddl", *extra])
    assert order == [*started, "parser"]
    order.clear()
    with pytest.raises(KeyError):
        cli.main(["run", "--approach", "autotos"])
    assert order == ["parser"]  # only solve
