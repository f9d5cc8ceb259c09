"""The operating-system layer after an escape (issue 23, class 3): no System V or POSIX IPC, no
``memfd_secret``, nothing of an earlier run in the worker's memory, and a caller that a
program running as the same user cannot read (``--isolation none``)."""

from __future__ import annotations

import subprocess
import sys
import uuid

import pytest

from genplan.sandbox import Isolation, IsolationUnavailable, Limits, RunStatus, run_program, run_untrusted
from genplan.sandbox import pool as pool_module

PROBE = "genplan.sandbox.probes:probe"
BWRAP = Limits(grace_seconds=1.0)
NONE = Limits(grace_seconds=1.0, isolation=Isolation.NONE)


def _probe(name: str, *args: object, limits: Limits = BWRAP) -> dict:
    outcome = run_untrusted("", PROBE, [name, *args], timeout=5, limits=limits)
    assert outcome.status is RunStatus.SUCCESS, outcome
    return outcome.value


@pytest.mark.parametrize("kind", ["shmget", "msgget", "semget", "mq_open"])
@pytest.mark.parametrize("limits", [BWRAP, NONE], ids=["bwrap", "none"])
def test_ipc_is_denied(kind: str, limits: Limits) -> None:
    result = _probe("ipc", kind, limits=limits)
    assert not result["done"], result
    assert "Operation not permitted" in result["detail"], result


def test_memfd_secret_is_not_available() -> None:
    result = _probe("ipc", "memfd_secret")
    assert not result["done"], result


@pytest.mark.parametrize("limits", [BWRAP, NONE], ids=["bwrap", "none"])
def test_an_earlier_run_is_not_alive_in_the_next_runs_memory(limits: Limits) -> None:
    secret = f"plan-of-another-problem-{uuid.uuid4().hex}"
    earlier = run_program(
        f"def get_plan(objects, init, goal):\n    return [{secret!r}]\n",
        {f"object-{secret}"},
        set(),
        set(),
        timeout=5,
        limits=limits,
    )
    assert earlier.status is RunStatus.SUCCESS
    # The same worker (the pool hands back the one just released) runs the next program.
    result = _probe("find-in-memory", secret, limits=limits)
    assert not result["done"], result


def test_the_caller_is_made_non_dumpable_for_isolation_none(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[bool] = []
    monkeypatch.setattr(pool_module.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(pool_module, "protect_caller", lambda: called.append(True))
    monkeypatch.setattr(pool_module, "worker_command", lambda isolation, config: [sys.executable, "-c", ""])
    with pytest.raises(IsolationUnavailable):  # the stand-in worker never reports ready
        pool_module.SandboxWorker(Isolation.NONE)
    assert called == [True]


def test_protect_caller_makes_the_process_non_dumpable() -> None:
    code = (
        "from genplan.sandbox.isolation import caller_is_dumpable, protect_caller\n"
        "before = caller_is_dumpable(); protect_caller(); print(before, caller_is_dumpable())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.stdout.split() == ["True", "False"], result.stderr
