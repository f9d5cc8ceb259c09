"""The child's seccomp filter built once in the worker (the fast path) against one built from scratch."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import pytest

from genplan.sandbox import confine

pytestmark = pytest.mark.skipif(confine.seccomp_available() is not None, reason="no seccomp binding here")


def _bpf(selected: Any) -> bytes:
    with tempfile.TemporaryFile() as handle:
        selected.export_bpf(handle)
        handle.seek(0)
        return handle.read()


@pytest.fixture
def prepared(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(confine, "_PREPARED", None)
    confine.prepare_seccomp()
    return confine._PREPARED


@pytest.mark.parametrize("pid", [2, 4321])
def test_the_prepared_filter_is_the_one_built_from_scratch(prepared: Any, pid: int) -> None:
    confine._add_process_rules(prepared, pid)
    assert _bpf(prepared) == _bpf(confine.seccomp_filter(pid))
    assert _bpf(confine.seccomp_filter(pid)) != _bpf(confine.seccomp_filter(pid + 1))  # the pid is in it


def test_a_child_loads_the_prepared_filter_without_building_it_again(
    prepared: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []
    real = confine._base_filter
    monkeypatch.setattr(confine, "_base_filter", lambda: built.append(1) or real())
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        try:
            installed = confine.install_seccomp()
            refused = False
            try:
                os.kill(os.getppid(), 0)  # signalling another process is denied
            except PermissionError:
                refused = True
            os.write(write_end, f"{installed} {refused} {len(built)}".encode())
        finally:
            os._exit(0)
    os.close(write_end)
    report = os.read(read_end, 100).decode()
    os.close(read_end)
    os.waitpid(pid, 0)
    assert report == "True True 0"
