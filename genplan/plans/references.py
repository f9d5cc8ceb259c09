"""Reference costs: the best known plan cost of each problem, against which quality is scored.

Three sources (``--references``):

* a JSON file mapping problem keys to costs: keys relative to the domain folder
  (``testing/easy/p01.pddl``), or prefixed with the domain folder's name as in the IPC 2023
  learning track's ``upper_bounds.json`` (``blocksworld/testing/easy/p01.pddl``); a key may
  leave out ``.pddl``; ``null`` means no cost is known;
* ``references.json`` beside the problems (in the domain folder), read the same way;
* a planner: ``lama-first`` (Fast Downward's LAMA-first: good plans, fast) or ``optimal`` (A*
  with LM-cut: optimal costs where it finishes in the budget), each answer cached under
  ``RUNS_DIR/cache/references``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genplan.errors import ConfigurationError
from genplan.pddl.problem import Problem
from genplan.plans.fast_downward import INSTALL_HINT, PlannerRun, find_driver, run_planner
from genplan.plans.optimal import SEARCH as OPTIMAL_SEARCH
from genplan.plans.validate import check_plan

REFERENCES_FILE = "references.json"
PLANNERS = ("lama-first", "optimal")
_PLANNER_ARGUMENTS = {
    "lama-first": (["--alias", "lama-first"], []),
    "optimal": ([], ["--search", OPTIMAL_SEARCH]),
}


@dataclass(frozen=True)
class References:
    """Best known costs of a domain's problems.

    Attributes:
        costs: problem key -> best known cost, ``None`` where none is known.
        source: where they came from: ``file PATH``, ``lama-first (30 s per problem)``,
            ``optimal (A* LM-cut, 120 s per problem)``.
    """

    costs: Mapping[str, float | None]
    source: str

    def to_json(self) -> dict[str, object]:
        """``{"source": ..., "costs": {...}}``."""
        return {"source": self.source, "costs": dict(self.costs)}


def read_references(path: Path, keys: Sequence[str], folder_name: str | None = None) -> References:
    """The reference costs of problems ``keys`` from the JSON file ``path``.

    Args:
        path: a JSON object, problem key -> cost (a non-negative number, or ``null`` for
            unknown).
        keys: the problem keys wanted (relative to the domain folder).
        folder_name: the domain folder's name, the prefix IPC files put before keys.

    Raises:
        ConfigurationError: the file is unreadable or not a JSON object, a wanted key is
            missing, or a cost is not a number or negative (names the file and the key).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigurationError(f"{path}: cannot read reference costs: {error.strerror or error}") from error
    except ValueError as error:
        raise ConfigurationError(f"{path}: reference costs are not valid JSON ({error})") from error
    if not isinstance(data, dict):
        raise ConfigurationError(f"{path}: reference costs must be a JSON object, problem key -> cost")
    costs: dict[str, float | None] = {}
    for key in keys:
        found = next((k for k in _spellings(key, folder_name) if k in data), None)
        if found is None:
            prefix = f" or {folder_name}/{key}" if folder_name else ""
            raise ConfigurationError(f"{path}: no reference cost for {key}{prefix}")
        value = data[found]
        if value is None:
            costs[key] = None
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ConfigurationError(f"{path}: the reference cost of {found} is not a number: {value!r}")
        if value < 0:
            raise ConfigurationError(f"{path}: the reference cost of {found} is negative: {value}")
        costs[key] = float(value)
    return References(costs, f"file {path}")


def _spellings(key: str, folder_name: str | None) -> list[str]:
    bare = key[: -len(".pddl")] if key.endswith(".pddl") else key
    names = [key, bare]
    if folder_name:
        names += [f"{folder_name}/{key}", f"{folder_name}/{bare}"]
    return names


def planner_references(
    planner: str,
    problems: Sequence[tuple[str, Problem]],
    *,
    cache_dir: Path | None,
    timeout: float,
) -> References:
    """Reference costs computed by Fast Downward, ``planner`` ``lama-first`` or ``optimal``.

    Each plan found is checked (:func:`~genplan.plans.validate.check_plan`) and its cost kept;
    a problem the planner does not solve in ``timeout`` seconds has no reference (``None``).
    Answers are cached in ``cache_dir/<planner>/`` by the domain's and problem's text and the
    budget (a time-out is tried again only with a larger budget).

    Raises:
        ConfigurationError: an unknown planner, or Fast Downward is not installed.
    """
    if planner not in PLANNERS:
        raise ConfigurationError(f"unknown reference planner {planner!r}: use {' or '.join(PLANNERS)}")
    costs: dict[str, float | None] = {}
    for key, problem in problems:
        path = cache_dir / planner / f"{_digest(planner, problem)}.json" if cache_dir else None
        cached = _read(path) if path else None
        if cached is not None:
            cost, budget = cached.get("cost"), cached.get("budget")
            if isinstance(cost, (int, float)) or (isinstance(budget, (int, float)) and budget >= timeout):
                costs[key] = float(cost) if isinstance(cost, (int, float)) else None
                continue
        run = planner_run(planner, problem, timeout=timeout)
        cost = None
        if run.plan is not None:
            verdict = check_plan(problem, run.plan)
            cost = verdict.cost if verdict.valid else None
        costs[key] = cost
        if path is not None:
            _write(path, {"cost": cost, "budget": timeout, "seconds": round(run.seconds, 3)})
    described = "A* LM-cut, " if planner == "optimal" else ""
    return References(costs, f"{planner} ({described}{timeout:g} s per problem)")


def planner_run(planner: str, problem: Problem, *, timeout: float, memory_limit: str = "4G") -> PlannerRun:
    """One run of Fast Downward as reference ``planner`` (``lama-first`` or ``optimal``) on
    ``problem`` within ``timeout`` wall-clock seconds; its plan is not checked here.

    Raises:
        ConfigurationError: Fast Downward is not installed.
    """
    driver = find_driver()
    if driver is None:
        raise ConfigurationError(f"reference costs by {planner} need Fast Downward: {INSTALL_HINT}")
    options, search = _PLANNER_ARGUMENTS[planner]
    return run_planner(
        problem, driver, options=options, search=search, timeout=timeout, memory_limit=memory_limit
    )


def _digest(planner: str, problem: Problem) -> str:
    payload = json.dumps([planner, problem.domain.to_pddl().strip(), problem.to_pddl()])
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _write(path: Path, data: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
        json.dump(data, stream)
    os.replace(temporary, path)


def load_references(
    choice: str | None,
    problems: Sequence[tuple[str, Problem]],
    *,
    folder: Path | None,
    cache_dir: Path | None,
    timeout: float = 120.0,
    prefix: str | None = None,
) -> References | None:
    """The references ``--references CHOICE`` asks for: a planner's name, a file, or (with no
    choice) ``references.json`` in the domain ``folder`` when there is one, else ``None``.
    Keys in files may carry ``prefix`` (the domain's name; default the folder's name).

    Raises:
        ConfigurationError: as :func:`read_references` and :func:`planner_references`.
    """
    keys = [key for key, _ in problems]
    folder_name = prefix or (folder.name if folder is not None else None)
    if choice in PLANNERS:
        return planner_references(choice, problems, cache_dir=cache_dir, timeout=timeout)
    if choice is not None:
        return read_references(Path(choice), keys, folder_name)
    if folder is not None and (folder / REFERENCES_FILE).is_file():
        return read_references(folder / REFERENCES_FILE, keys, folder_name)
    return None
