"""Measured outcomes a run's conversation depends on, recorded so that a rerun or a replay repeats them.

A rerun finds its answers in the answer cache, and a replay in the recording, only if every
prompt is the same text as before. Feedback built from verdicts (VAL's advice, a traceback)
repeats by itself; feedback built from *measurements* does not: the generalized-plan scaling
feedback shows measured seconds and choosing among candidates breaks ties by runtime; the ASP
approach's checks report whether clingo found a plan within its time limit. So every such
measurement is an observation: measured once, written at once to ``observations.json`` in the
run folder, and taken from there (or from the folder of the run being replayed) the next time
the same thing is measured. To measure afresh, start in an empty run folder.

Keys name the kind of measurement and digests of everything that determines it (for a program
meeting a problem, :func:`observation_key`: the program's source and the problem's PDDL), so a
changed program, problem or setting is measured anew.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from genplan.pddl.problem import Problem

OBSERVATIONS_FILE = "observations.json"


def digest(text: str) -> str:
    """The first 16 hex digits of the SHA-256 of ``text``."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def observation_key(kind: str, program: str, problem: Problem) -> str:
    """``kind/program digest/problem name/problem digest``."""
    return f"{kind}/{digest(program)}/{problem.name}/{digest(problem.to_pddl())}"


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class Observations:
    """Recorded measurements, by key; new ones are written to ``path`` as they are made.

    Args:
        path: the run folder's ``observations.json`` (read first, then rewritten whole on each
            new measurement), or ``None`` to keep them in memory only.
        earlier: other ``observations.json`` files to reuse (the replayed run's); a key of
            ``path`` wins over theirs.
    """

    def __init__(self, path: Path | None = None, earlier: Iterable[Path] = ()):
        self.path = path
        self._known: dict[str, Any] = {}
        for source in earlier:
            self._known.update(_read(source))
        self._own: dict[str, Any] = _read(path) if path is not None else {}
        self._known.update(self._own)
        self._lock = threading.Lock()
        self.reused = 0
        """Measurements taken from a record instead of made."""
        self.measured = 0
        """Measurements made (not found in a record)."""

    def get(self, key: str, measure: Callable[[], Any], reuse: Callable[[Any], bool] | None = None) -> Any:
        """The recorded value of ``key``, or ``measure()`` (JSON-ready), recorded at once.

        ``reuse`` decides whether a recorded value still answers (a search cut by a smaller
        budget does not); without it every recorded value does. A value it refuses is measured
        again and replaced.
        """
        with self._lock:
            if key in self._known and (reuse is None or reuse(self._known[key])):
                self.reused += 1
                value = self._known[key]
                if key not in self._own:
                    self._own[key] = value
                    self._write()
                return value
        value = measure()
        with self._lock:
            self.measured += 1
            self._known[key] = value
            self._own[key] = value
            self._write()
        return value

    def _write(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".json.tmp")
        temporary.write_text(json.dumps(self._own, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        temporary.replace(self.path)
