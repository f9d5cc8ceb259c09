"""The files VAL reads: a problem's own file when there is one, else its text written once.

Writing a problem as PDDL (:meth:`~genplan.pddl.problem.Problem.to_pddl`, sorted) for every
plan check was 29% of plan checking on heavy's large problems, whose files are already on disk.
A problem loaded from a file, or bound to the file it was generated into, carries the file's
modification time and size as read (``Problem.source_stamp``); while the file still has them,
VAL reads it. Any other problem (renamed, obfuscated, built in memory, or whose file changed
since) is written once, to a file of this process's own that lives as long as the problem does;
a domain likewise. The files are removed when their problem or domain is collected, and the
folder at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import tempfile
import threading
import weakref
from pathlib import Path

from genplan.pddl.domain import Domain
from genplan.pddl.problem import Problem

_LOCK = threading.Lock()
_WRITTEN: dict[int, Path] = {}
"""Files written, by the ``id`` of their problem or domain (an identity, never equality: two
equal problems may differ in what equality leaves out, such as action costs)."""
_FOLDER: list[Path] = []


def _folder() -> Path:
    if not _FOLDER:
        folder = Path(tempfile.mkdtemp(prefix="genplan-val-files-"))
        atexit.register(shutil.rmtree, folder, True)
        _FOLDER.append(folder)
    return _FOLDER[0]


def _forget(key: int, path: Path) -> None:
    with _LOCK:
        if _WRITTEN.get(key) == path:
            del _WRITTEN[key]
    with contextlib.suppress(OSError):
        path.unlink()


def _written(owner: Problem | Domain, kind: str) -> Path:
    """The file holding ``owner.to_pddl()``, written on the first call for this object."""
    key = id(owner)
    with _LOCK:
        path = _WRITTEN.get(key)
        if path is not None:
            return path
        folder = _folder()
    descriptor, name = tempfile.mkstemp(prefix=f"{kind}-", suffix=".pddl", dir=folder)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(owner.to_pddl())
    path = Path(name)
    with _LOCK:
        if key in _WRITTEN:  # another thread wrote it meanwhile
            kept = _WRITTEN[key]
            path.unlink()
            return kept
        _WRITTEN[key] = path
    weakref.finalize(owner, _forget, key, path)
    return path


def problem_file(problem: Problem) -> Path:
    """A file holding ``problem`` for VAL: its own file while unchanged since it was read, else
    its text written once (see the module docstring)."""
    if problem.source is not None and problem.source_stamp is not None:
        try:
            stat = problem.source.stat()
        except OSError:
            pass
        else:
            if (stat.st_mtime_ns, stat.st_size) == problem.source_stamp:
                return problem.source
    return _written(problem, "problem")


def domain_file(domain: Domain) -> Path:
    """A file holding ``domain``'s normalised text for VAL, written once per domain object."""
    return _written(domain, "domain")
