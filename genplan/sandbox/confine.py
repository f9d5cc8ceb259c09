"""What a child does to itself before it runs a program: limits, an unprivileged user, seccomp.

Called in the child the worker forks for each run, in this order, before the program is even
compiled:

1. :func:`apply_limits`: address space, CPU seconds, no file writes (``RLIMIT_FSIZE`` 0), no
   core files, few file descriptors, and (for an unprivileged user) no new processes, which
   for Linux includes threads: ``RLIMIT_NPROC`` 0 makes every ``clone`` fail with ``EAGAIN``, so
   a program run as ``nobody`` is single-threaded (``threading.Thread.start`` raises
   ``RuntimeError: can't start new thread``).
2. :func:`drop_privileges`: under root, become ``nobody`` (no groups, no capabilities).
3. :func:`install_seccomp`: a system-call filter (libseccomp through ``pyseccomp``) that fails
   with ``EPERM``: sockets, ``exec``, new processes (the filter lets threads through; the
   process limit of step 1 stops them under an unprivileged user), signals to any
   process but itself, opening files for writing, creating or removing files, ptrace, namespace
   and mount calls, ``io_uring``, ``bpf``, ``userfaultfd``, kernel keyrings, System V and POSIX
   IPC (shared memory, message queues, semaphores) and ``memfd_secret``. The filter
   cannot be lifted (``no_new_privs`` is set with it).
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import resource
from typing import Any

from genplan.sandbox.limits import Limits

try:  # libseccomp through ctypes; absent off Linux or without libseccomp.so.2
    import pyseccomp as _seccomp

    SECCOMP_PROBLEM: str | None = None
except Exception as error:  # ImportError, or RuntimeError "Unable to find libseccomp"
    _seccomp = None
    SECCOMP_PROBLEM = f"{type(error).__name__}: {error}"

DENIED_CALLS = [
    "socket",
    "socketpair",
    "connect",
    "bind",
    "listen",
    "accept",
    "accept4",
    "execve",
    "execveat",
    "fork",
    "vfork",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "setns",
    "unshare",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "rt_sigqueueinfo",
    "rt_tgsigqueueinfo",
    "pidfd_open",
    "pidfd_send_signal",
    "pidfd_getfd",
    "memfd_create",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "keyctl",
    "add_key",
    "request_key",
    "creat",
    "mkdir",
    "mkdirat",
    "rmdir",
    "unlink",
    "unlinkat",
    "rename",
    "renameat",
    "renameat2",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "chmod",
    "fchmod",
    "fchmodat",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "truncate",
    "mknod",
    "mknodat",
    "acct",
    "swapon",
    "swapoff",
    "reboot",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    # System V and POSIX inter-process communication: shared memory pinned past the memory
    # limit that outlives the run, and message queues shared by the runs of one worker.
    "ipc",
    "shmget",
    "shmat",
    "shmctl",
    "shmdt",
    "msgget",
    "msgsnd",
    "msgrcv",
    "msgctl",
    "semget",
    "semop",
    "semtimedop",
    "semctl",
    "mq_open",
    "mq_unlink",
    "mq_timedsend",
    "mq_timedreceive",
    "mq_notify",
    "mq_getsetattr",
    "memfd_secret",
]
"""System calls a child may not make at all (each fails with ``EPERM``)."""

CALL_NUMBERS = {("x86_64", "memfd_secret"): 447, ("aarch64", "memfd_secret"): 447}
"""Numbers of denied calls that an older libseccomp does not know by name."""

NOT_IMPLEMENTED_CALLS = ("clone3", "openat2")
"""System calls whose arguments a filter cannot see; they fail with ``ENOSYS`` so the C library
falls back to ``clone`` and ``openat``, which the filter checks."""

CLONE_THREAD = 0x00010000
WRITE_FLAGS = (os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC, os.O_APPEND)


def seccomp_available() -> str | None:
    """``None`` when a seccomp filter can be installed, else why not."""
    return SECCOMP_PROBLEM


def apply_limits(limits: Limits, timeout: float, *, unprivileged: bool) -> None:
    """Lower this process's resource limits (never raising one above its hard limit)."""

    def lower(kind: int, value: int) -> None:
        try:
            _soft, hard = resource.getrlimit(kind)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(kind, (value, value))
        except (ValueError, OSError):
            pass

    lower(resource.RLIMIT_AS, limits.address_space_bytes)
    lower(resource.RLIMIT_CPU, limits.cpu_seconds or math.ceil(timeout) + 5)
    lower(resource.RLIMIT_FSIZE, 0)
    lower(resource.RLIMIT_CORE, 0)
    lower(resource.RLIMIT_NOFILE, 64)
    if unprivileged and hasattr(resource, "RLIMIT_NPROC"):
        lower(resource.RLIMIT_NPROC, 0)


def drop_privileges(ids: tuple[int, int] | None) -> None:
    """Become the user and group ``ids`` with no supplementary groups (``None``: stay).

    Raises:
        OSError: the switch failed; the caller must not run the program then.
    """
    if ids is None:
        return
    uid, gid = ids
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise OSError("the user switch did not take effect")


def install_seccomp() -> bool:
    """Install the child's system-call filter (see the module docstring).

    The rules that do not depend on the child come from :func:`prepare_seccomp` when the
    worker called it before forking (building them costs about 2 ms a run), else they are built
    here; the rules naming the child's own process id are added here.

    Returns:
        ``True`` when the filter is in place, ``False`` when no seccomp binding is available.

    Raises:
        OSError: the filter could not be loaded; the caller must not run the program then.
    """
    if _seccomp is None:
        return False
    selected = _PREPARED if _PREPARED is not None else _base_filter()
    _add_process_rules(selected, os.getpid())
    selected.load()
    return True


_PREPARED: Any = None
"""The filter's rules that hold for every child, built once by :func:`prepare_seccomp`."""


def prepare_seccomp() -> None:
    """Build the rules every child's filter shares, once, in the worker (never loaded there).

    Each child forked afterwards inherits a copy, adds the rules naming its own process id and
    loads it (:func:`install_seccomp`): the same filter as one built from scratch in the child.
    """
    global _PREPARED
    if _seccomp is not None:
        _PREPARED = _base_filter()


def seccomp_filter(pid: int) -> Any:
    """The whole filter for a child with process id ``pid``, built from scratch (not loaded)."""
    selected = _base_filter()
    _add_process_rules(selected, pid)
    return selected


def _rule(selected: Any, action: Any, call: str, *arguments: Any) -> None:
    try:
        selected.add_rule(action, call, *arguments)
    except (OSError, ValueError, RuntimeError):  # unknown by name here: by number, if known
        number = CALL_NUMBERS.get((os.uname().machine, call))
        if number is not None:
            with contextlib.suppress(OSError, ValueError, RuntimeError):
                selected.add_rule(action, number, *arguments)


def _base_filter() -> Any:
    """Every rule of the filter but those naming the child's process id."""
    assert _seccomp is not None
    deny: Any = _seccomp.ERRNO(errno.EPERM)
    selected = _seccomp.SyscallFilter(defaction=_seccomp.ALLOW)
    for call in DENIED_CALLS:
        _rule(selected, deny, call)
    for call in NOT_IMPLEMENTED_CALLS:
        _rule(selected, _seccomp.ERRNO(errno.ENOSYS), call)
    _rule(selected, deny, "clone", _seccomp.Arg(0, _seccomp.MASKED_EQ, CLONE_THREAD, 0))
    for flag in WRITE_FLAGS:
        _rule(selected, deny, "open", _seccomp.Arg(1, _seccomp.MASKED_EQ, flag, flag))
        _rule(selected, deny, "openat", _seccomp.Arg(2, _seccomp.MASKED_EQ, flag, flag))
    return selected


def _add_process_rules(selected: Any, pid: int) -> None:
    """Signals only to the child itself: ``kill``, ``tkill`` and ``tgkill`` of any other process fail."""
    assert _seccomp is not None
    deny: Any = _seccomp.ERRNO(errno.EPERM)
    for call in ("kill", "tkill", "tgkill"):
        _rule(selected, deny, call, _seccomp.Arg(0, _seccomp.NE, pid))
