"""Probes of the operating-system layers, as a harness: what could a program do past the policy?

``run_untrusted("", "genplan.sandbox.probes:probe", [name, *args])`` runs, in a confined child,
genplan's own code that *tries* one thing a program could try if it slipped past the policy
(open a socket, write a file, fork, signal another process, read the environment, ...) and
reports what happened. Tests use the probes to check each operating-system layer on its own,
without relying on the policy, and :func:`genplan.sandbox.isolation_report` users can run them
to see what a machine's isolation stops. A probe only attempts its action; it returns
``{"done": bool, "detail": str}`` and never raises.
"""

from __future__ import annotations

import gc
import os
import socket
import stat
import time
import types
from collections.abc import Callable, Iterator
from typing import Any


def _environment() -> Any:
    return sorted(os.environ)


def _connect(host: str, port: int) -> Any:
    with socket.create_connection((host, port), timeout=1):
        return "connected"


def _write(path: str) -> Any:
    with open(path, "w") as file:
        file.write("x")
    return f"wrote {path}"


def _read(path: str) -> Any:
    with open(path, "rb") as file:
        return file.read(64).hex()


def _listdir(path: str) -> Any:
    return sorted(os.listdir(path))


def _fork(linger_seconds: float, marker: str) -> Any:
    pid = os.fork()
    if pid == 0:  # the grandchild: outlive the run, then leave a mark
        time.sleep(linger_seconds)
        try:
            with open(marker, "w"):
                pass
        finally:
            os._exit(0)
    return f"forked {pid}"


def _thread() -> Any:
    import threading

    worker = threading.Thread(target=lambda: None)
    worker.start()
    worker.join()
    return "started a thread"


def _exec() -> Any:
    os.execv("/bin/true", ["true"])


def _signal(pid: int) -> Any:
    os.kill(pid, 0)
    return f"may signal {pid}"


def _signal_parent() -> Any:
    parent = os.getppid()
    os.kill(parent, 0)
    return f"may signal the worker ({parent})"


def _ids() -> Any:
    return [os.getuid(), os.geteuid(), os.getgid(), sorted(os.getgroups())]


def _processes() -> Any:
    return sorted(int(entry) for entry in os.listdir("/proc") if entry.isdigit())


def _strings_of(item: object) -> Iterator[object]:
    """``item``, and the constants of a code object (nested code objects' too: a compiled
    program's strings live there, which the collector does not track)."""
    yield item
    if isinstance(item, types.CodeType):
        for constant in item.co_consts:
            yield from _strings_of(constant)


def _find_in_memory(text: str) -> Any:
    """Look for another copy of ``text`` among live objects and what they hold (strings are
    not tracked by the collector themselves, the lists, dicts and frames holding them are), and
    among the constants of every code object they hold."""
    for holder in gc.get_objects():
        for referent in (holder, *gc.get_referents(holder)):
            for item in _strings_of(referent):
                if type(item) is str and item is not text and text in item:
                    return "found"
    raise LookupError("not in this process's memory")


def _libc_call(name: str, *arguments: int | bytes | None) -> Any:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    result = getattr(libc, name)(*arguments)
    if result == -1:
        raise OSError(ctypes.get_errno(), f"{name} failed: {os.strerror(ctypes.get_errno())}")
    return f"{name} returned {result}"


def _ipc(kind: str) -> Any:
    """Try one kind of System V or POSIX IPC, or ``memfd_secret``."""
    private, create = 0, 0o1000
    if kind == "shmget":
        return _libc_call("shmget", private, 1 << 20, create | 0o600)
    if kind == "msgget":
        return _libc_call("msgget", private, create | 0o600)
    if kind == "semget":
        return _libc_call("semget", private, 1, create | 0o600)
    if kind == "mq_open":
        return _libc_call("mq_open", b"/genplan-probe", os.O_CREAT | os.O_RDWR, 0o600, None)
    if kind == "memfd_secret":
        return _libc_call("syscall", 447, 0)
    raise ValueError(f"unknown IPC kind {kind}")


def _result_descriptor() -> int:
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                return fd
        except OSError:
            continue
    raise LookupError("no result pipe")


def _raw_frame(hex_bytes: str, then_sleep: float) -> Any:
    """Write raw bytes where the result frame goes, as a child past every guard could."""
    os.write(_result_descriptor(), bytes.fromhex(hex_bytes))
    time.sleep(then_sleep)
    os._exit(0)


PROBES: dict[str, Callable[..., Any]] = {
    "environment": _environment,
    "connect": _connect,
    "write": _write,
    "read": _read,
    "listdir": _listdir,
    "fork": _fork,
    "exec": _exec,
    "thread": _thread,
    "signal": _signal,
    "signal-parent": _signal_parent,
    "ids": _ids,
    "processes": _processes,
    "find-in-memory": _find_in_memory,
    "raw-frame": _raw_frame,
    "ipc": _ipc,
}
"""Each probe by name."""


def probe(namespace: dict[str, Any], name: str, *args: Any) -> dict[str, Any]:
    """Harness: attempt the probe ``name`` with ``args``; ``{"done": bool, "detail": str}``."""
    try:
        detail = PROBES[name](*args)
    except Exception as error:
        return {"done": False, "detail": f"{type(error).__name__}: {error}"}
    return {"done": True, "detail": repr(detail)[:2000]}
