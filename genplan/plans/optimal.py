"""Optimal plans from Fast Downward's A* search with the LM-cut heuristic, cached per problem on disk.

The optimality metric of Gonzalez-Pumariaga et al. (Sec. 4.1: "whether a planner finds
an optimal path within the WMQ budget") and problem sets grouped by optimal plan length
(SymPlanner, Xiong et al., Table 1) need each problem's optimal plan length. A* with LM-cut
(Helmert & Domshlak, ICAPS 2009), an admissible heuristic, returns an optimal plan; every
built-in domain has unit action costs, so its length is the optimal plan length.

Each answer is cached as one JSON file named by a SHA-256 of the search configuration, the
domain's and the problem's PDDL text, written atomically; a search that timed out is cached with
its budget and tried again only with a larger one.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from genplan.errors import ConfigurationError
from genplan.pddl.problem import Problem
from genplan.plans.fast_downward import INSTALL_HINT, find_driver, run_planner

SEARCH = "astar(lmcut())"
"""Fast Downward's search configuration for optimal plans."""


@dataclass(frozen=True)
class OptimalPlan:
    """The answer for one problem.

    Attributes:
        length: the optimal plan length, or ``None`` when no plan was found (time-out, memory,
            or an unsolvable problem; see ``message``).
        plan: an optimal plan (``"(pick-up a)"`` per action), or ``None``.
        seconds: the planner's wall-clock seconds (of the run that was cached).
        timed_out: the budget ran out.
        budget_seconds: the budget the search had.
        message: why no plan came back, else empty.
    """

    length: int | None
    plan: list[str] | None
    seconds: float
    timed_out: bool
    budget_seconds: float
    message: str = ""


def optimal_planner_available() -> bool:
    """Whether Fast Downward (the ``planner`` extra) is installed."""
    return find_driver() is not None


def cache_key(problem: Problem) -> str:
    """The hex SHA-256 naming ``problem``'s cache entry (search, domain text, problem text)."""
    payload = json.dumps([SEARCH, problem.domain.to_pddl().strip(), problem.to_pddl()])
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _read(path: Path) -> OptimalPlan | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return OptimalPlan(**data)
    except (OSError, ValueError, TypeError):
        return None


def _write(path: Path, answer: OptimalPlan) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
        json.dump(asdict(answer), stream)
    os.replace(temporary, path)


def optimal_plan(
    problem: Problem, *, cache_dir: Path | None = None, timeout: float = 120.0, memory_limit: str = "4G"
) -> OptimalPlan:
    """An optimal plan for ``problem`` (A* with LM-cut), from ``cache_dir`` when known there.

    Args:
        problem: the problem (unit action costs).
        cache_dir: where answers are kept (one JSON file each), or ``None`` for no cache.
        timeout: wall-clock seconds for the planner.
        memory_limit: Fast Downward's ``--overall-memory-limit``.

    Raises:
        ConfigurationError: Fast Downward is not installed (``pip install "genplan[planner]"``).
    """
    path = cache_dir / cache_key(problem)[:2] / f"{cache_key(problem)}.json" if cache_dir else None
    if path is not None and path.is_file():
        cached = _read(path)
        if cached is not None and (not cached.timed_out or cached.budget_seconds >= timeout):
            return cached
    driver = find_driver()
    if driver is None:
        raise ConfigurationError(f"optimal plan lengths need Fast Downward: {INSTALL_HINT}")
    run = run_planner(
        problem, driver, search=["--search", SEARCH], timeout=timeout, memory_limit=memory_limit
    )
    answer = OptimalPlan(
        length=len(run.plan) if run.plan is not None else None,
        plan=run.plan,
        seconds=run.seconds,
        timed_out=run.timed_out,
        budget_seconds=timeout,
        message=run.message if run.plan is None else "",
    )
    if path is not None:
        _write(path, answer)
    return answer


@dataclass(frozen=True)
class OptimalLengths:
    """genplan's optimal-length labeller for problem selections
    (:data:`genplan.pddl.selection.Labeller`): :func:`optimal_plan`'s length, cached.

    Picklable, so it travels to the experiment grid's workers.

    Attributes:
        cache_dir: where answers are kept (``RUNS_DIR/cache/optimal``), or ``None`` for none.
        timeout: planner seconds per problem; a problem without a plan in time has no label.
    """

    cache_dir: Path | None = None
    timeout: float = 60.0

    def __call__(self, problem: Problem) -> int | None:
        """The optimal plan length of ``problem``, or ``None`` when none was found in time.

        Raises:
            ConfigurationError: Fast Downward is not installed.
        """
        return optimal_plan(problem, cache_dir=self.cache_dir, timeout=self.timeout).length


def optimal_lengths_under(runs_dir: Path) -> OptimalLengths:
    """The labeller whose cache is ``runs_dir/cache/optimal`` (shared by every run there)."""
    return OptimalLengths(cache_dir=runs_dir / "cache" / "optimal")
