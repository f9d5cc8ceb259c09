"""The operating-system layers on their own: probes (genplan.sandbox.probes) try, inside a confined
child and past the policy, what an escaped program would try. Bubblewrap runs for real here (the
README's set-up and CI install it); ``--isolation none`` keeps the child's own confinement."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from genplan.sandbox import Isolation, Limits, RunStatus, isolation_report, run_untrusted
from genplan.sandbox.isolation import worker_environment

PROBE = "genplan.sandbox.probes:probe"
BWRAP = Limits(grace_seconds=1.0)
NONE = Limits(grace_seconds=1.0, isolation=Isolation.NONE)
SECRET = f"sk-{uuid.uuid4().hex}"


def _probe(name: str, *args: object, limits: Limits = BWRAP, timeout: float = 5.0) -> dict:
    outcome = run_untrusted("", PROBE, [name, *args], timeout=timeout, limits=limits)
    assert outcome.status is RunStatus.SUCCESS, outcome
    return outcome.value


def test_isolation_is_real_here() -> None:
    report = isolation_report()
    assert report["isolation"] == "bwrap"
    assert report["seccomp"] is True, report["seccomp_problem"]
    if os.geteuid() == 0:
        assert report["children_run_as"] == [65534, 65534]


@pytest.mark.parametrize("limits", [BWRAP, NONE], ids=["bwrap", "none"])
def test_environment_is_clean(limits: Limits, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENPLAN_TEST_API_KEY", SECRET)
    result = _probe("environment", limits=limits)
    names = set(eval(result["detail"]))
    assert names <= {*worker_environment(), "PWD"}, names  # bwrap sets PWD


@pytest.mark.parametrize("limits", [BWRAP, NONE], ids=["bwrap", "none"])
def test_the_callers_memory_is_not_there(limits: Limits) -> None:
    held = [SECRET]  # genplan's process holds it; the worker never did
    result = _probe("find-in-memory", SECRET[:20] + SECRET[20:], limits=limits)
    assert held and not result["done"], result


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.3)
    yield server
    server.close()


@pytest.mark.parametrize("limits", [BWRAP, NONE], ids=["bwrap", "none"])
def test_no_network(listener: socket.socket, limits: Limits) -> None:
    result = _probe("connect", "127.0.0.1", listener.getsockname()[1], limits=limits)
    assert not result["done"], result
    with pytest.raises(OSError):
        listener.accept()


@pytest.mark.parametrize("limits", [BWRAP, NONE], ids=["bwrap", "none"])
@pytest.mark.parametrize("path", ["/dev/shm/genplan-probe", "/tmp/genplan-probe", "/proc/self/comm"])
def test_no_file_writes(path: str, limits: Limits) -> None:
    Path(path).unlink(missing_ok=True) if not path.startswith("/proc") else None
    result = _probe("write", path, limits=limits)
    assert not result["done"], result
    assert path.startswith("/proc") or not Path(path).exists()


@pytest.mark.parametrize("limits", [BWRAP, NONE], ids=["bwrap", "none"])
def test_no_new_processes(limits: Limits, tmp_path: Path) -> None:
    marker = tmp_path / "grandchild"
    os.chmod(tmp_path, 0o777)
    started = time.monotonic()
    result = _probe("fork", 1.0, str(marker), limits=limits, timeout=3.0)
    assert not result["done"], result
    assert time.monotonic() - started < 2.5
    assert not _probe("exec", limits=limits)["done"]
    time.sleep(1.5)
    assert not marker.exists()


@pytest.mark.parametrize("limits", [BWRAP, NONE], ids=["bwrap", "none"])
def test_no_threads_either(limits: Limits) -> None:
    """The process limit of an unprivileged child (RLIMIT_NPROC 0) stops threads too: a program
    runs single-threaded (genplan.sandbox.confine's docstring says so)."""
    result = _probe("thread", limits=limits)
    assert not result["done"], result
    assert "can't start new thread" in result["detail"], result


@pytest.fixture
def bystander() -> Iterator[subprocess.Popen]:
    process = subprocess.Popen(["sleep", "60"])
    yield process
    process.kill()
    process.wait()


@pytest.mark.parametrize("limits", [BWRAP, NONE], ids=["bwrap", "none"])
def test_no_signals_but_to_itself(bystander: subprocess.Popen, limits: Limits) -> None:
    assert not _probe("signal", bystander.pid, limits=limits)["done"]
    assert not _probe("signal", os.getpid(), limits=limits)["done"]
    assert not _probe("signal-parent", limits=limits)["done"]
    assert bystander.poll() is None


def test_bwrap_shows_only_what_python_needs(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text(SECRET)
    os.chmod(tmp_path, 0o755)
    assert not _probe("read", str(tmp_path / "secret.txt"))["done"]  # /tmp is the sandbox's own
    root = Path(__file__).resolve().parents[2]
    listing = _probe("listdir", str(root))
    if listing["done"]:  # an editable install: genplan's source folder is there, nothing beside it
        assert set(eval(listing["detail"])) <= {"genplan", ".venv", "venv"}, listing
    home = _probe("listdir", str(Path.home()))
    assert not home["done"] or set(eval(home["detail"])) <= {".pyenv", ".local", ".venv"}, home


def test_bwrap_has_its_own_process_space() -> None:
    processes = eval(_probe("processes")["detail"])
    assert len(processes) == 3 and processes[:2] == [1, 2], processes  # bwrap, the worker, the child


@pytest.mark.skipif(os.geteuid() != 0, reason="the user switch applies when genplan runs as root")
@pytest.mark.parametrize("limits", [BWRAP, NONE], ids=["bwrap", "none"])
def test_under_root_programs_run_as_nobody(limits: Limits) -> None:
    uid, euid, gid, groups = eval(_probe("ids", limits=limits)["detail"])
    assert uid == euid == 65534 and gid == 65534 and groups == []
    assert not _probe("read", "/etc/shadow", limits=limits)["done"]


def test_an_installation_under_tmp_is_bound_over_the_private_tmp(monkeypatch: pytest.MonkeyPatch) -> None:
    # A CI checkout (and its .venv) may live under /tmp, which the sandbox replaces with a tmpfs of
    # its own: the interpreter's folder must be bound after that tmpfs, or bwrap cannot start it.
    from genplan.sandbox import isolation

    monkeypatch.setattr(isolation, "_python_paths", lambda: [Path("/tmp/checkout/.venv")])
    arguments = isolation.bwrap_arguments(as_root=True)
    private_tmp = arguments.index("--tmpfs")
    bind = next(
        i for i, a in enumerate(arguments) if a == "--ro-bind" and arguments[i + 1] == "/tmp/checkout/.venv"
    )
    assert arguments[private_tmp + 1] == "/tmp" and private_tmp < bind
