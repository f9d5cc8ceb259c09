"""Selecting one heuristic on the training problems, as Corrêa, Pereira and Seipp do.

Every usable candidate runs greedy best-first search on each selection training problem
(:func:`training_problems`: spread over the training problems by size); the candidate that
solves the most is kept, ties broken by fewer expansions (summed over the problems it solved),
then by fewer seconds (summed over all its searches), then by the earlier candidate. A training
search counts as solved when it returns a plan; the plan is not checked here (the search runs
over genplan's own transition function, and every evaluation plan is checked).

Each training search is an observation (:mod:`genplan.runs.observations`): its outcome is
written to the run folder's ``observations.json`` as it is measured and reused by a rerun or a
replay of the run, so the same candidates always lead to the same selection, whatever the
machine's load that day.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from genplan.approaches.heuristic.probes import task_json
from genplan.approaches.heuristic.searching import Runner, SearchRecord, run_search
from genplan.pddl.problem import Problem
from genplan.runs.observations import Observations, observation_key


def training_problems(training: Sequence[Problem], count: int) -> list[Problem]:
    """``count`` of ``training`` (smallest first) spread evenly over it, the first and the last
    included; all of them when there are ``count`` or fewer."""
    problems = list(training)
    if len(problems) <= count:
        return problems
    if count == 1:
        return [problems[-1]]
    return [problems[round(i * (len(problems) - 1) / (count - 1))] for i in range(count)]


@dataclass(frozen=True)
class Training:
    """One candidate's training searches.

    Attributes:
        candidate: the candidate's index.
        searches: one per selection training problem, in order.
        problems: the problems' names, in the same order.
    """

    candidate: int
    searches: tuple[SearchRecord, ...]
    problems: tuple[str, ...]

    @property
    def solved(self) -> int:
        """Training problems the search found a plan for."""
        return sum(search.found for search in self.searches)

    @property
    def expanded(self) -> int:
        """Expansions summed over the training problems solved."""
        return sum(search.expanded for search in self.searches if search.found)

    @property
    def seconds(self) -> float:
        """Seconds summed over every training search."""
        return sum(search.seconds for search in self.searches)

    def rank(self) -> tuple[int, int, float, int]:
        """The selection's order: most solved, then fewest expansions, fewest seconds, first."""
        return (-self.solved, self.expanded, self.seconds, self.candidate)

    def to_json(self) -> dict[str, Any]:
        """The totals and each search (problem, status, figures, seconds)."""
        return {
            "candidate": self.candidate,
            "solved": self.solved,
            "problems": len(self.searches),
            "expanded": self.expanded,
            "seconds": round(self.seconds, 3),
            "searches": [
                {"problem": name, **search.to_json()} for name, search in zip(self.problems, self.searches)
            ],
        }


def train(
    candidates: Sequence[tuple[int, str]],
    problems: Sequence[Problem],
    runner: Runner,
    *,
    seconds: float,
    max_states: int,
    observations: Observations,
    workers: int = 1,
    note: Callable[[str], None] = lambda text: None,
) -> list[Training]:
    """Search every problem with every candidate (``(index, source)`` pairs), ``workers`` searches
    at once; each outcome is taken from ``observations`` when recorded there, else measured and
    recorded."""
    kind = f"heuristic-gbfs/{seconds:g}s/{max_states}"
    tasks: dict[int, dict[str, Any]] = {}  # each problem's task, built once, when first searched
    building = threading.Lock()

    def task(position: int) -> dict[str, Any]:
        with building:
            if position not in tasks:
                tasks[position] = task_json(problems[position])
            return tasks[position]

    def one(pair: tuple[tuple[int, str], int]) -> SearchRecord:
        (_, source), position = pair
        problem = problems[position]
        key = observation_key(kind, source, problem)
        data = observations.get(
            key,
            lambda: run_search(runner, source, problem, seconds, max_states, task(position)).to_json(),
        )
        return SearchRecord.from_json(data)

    pairs = [(candidate, position) for candidate in candidates for position in range(len(problems))]
    if workers <= 1:
        found = [one(pair) for pair in pairs]
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            found = list(pool.map(one, pairs))
    names = tuple(problem.name for problem in problems)
    trainings = []
    for position, (index, _) in enumerate(candidates):
        searches = tuple(found[position * len(problems) : (position + 1) * len(problems)])
        training = Training(index, searches, names)
        note(
            f"candidate {index}: {training.solved}/{len(problems)} training problems solved, "
            f"{training.expanded:,} expansions, {training.seconds:.1f} s"
        )
        trainings.append(training)
    return trainings


def select(trainings: Sequence[Training]) -> Training | None:
    """The selected candidate's training (see the module's description), or ``None`` when there
    is no candidate."""
    return min(trainings, key=Training.rank, default=None)
