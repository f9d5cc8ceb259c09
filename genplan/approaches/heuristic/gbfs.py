"""Greedy best-first search over a problem's real transition function, guided by any heuristic.

The search of Corrêa, Pereira and Seipp (NeurIPS 2025), who run the model's heuristics in
Pyperplan's greedy best-first search (GBFS): eager, one open list ordered by the heuristic value,
ties broken first in, first out (Pyperplan's ``astar_search`` with
``ordered_node_greedy_best_first``). genplan's GBFS makes the same choices, so for a heuristic
that is a function of the state it expands the same states in the same order and returns the same
plan as Pyperplan's on the same successor order (``tests/approaches/heuristic/test_gbfs_pyperplan.py``
checks this):

* the goal test is made when a state is taken from the open list, and that state counts as an
  expansion;
* a successor is put on the open list when it is new or reached by a shorter path (its *g*,
  the number of actions from the initial state) than before; an entry whose *g* is no longer its
  state's best is skipped when taken (not an expansion);
* a successor whose heuristic value is ``math.inf`` (a dead end, by the heuristic's claim) is
  never put on the open list.

Unlike Pyperplan's, it calls the heuristic once per state (Pyperplan calls it again each time a
state is generated anew), and it stops at a deadline or a number of states. Successors come from
genplan's generator (:class:`~genplan.plans.successors.SuccessorGenerator`, ordered by action).

This module is trusted code: it runs in genplan's process and, with the model's heuristic,
inside the sandbox child (:mod:`genplan.approaches.heuristic.harness`).
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from genplan.pddl.domain import Atom

State = frozenset[Atom]
"""A state as the search keeps it: its fluent atoms."""

Heuristic = Callable[[State], float]
"""``h(state) -> value``: a number >= 0, ``math.inf`` for a dead end."""

Successors = Callable[[State], Iterable[tuple[Atom, State]]]
"""``successors(state) -> [(action, successor state), ...]`` in a fixed order."""


class SearchStatus(str, Enum):
    """How one search ended; the value is what records hold."""

    PLAN_FOUND = "plan-found"
    """A goal state was expanded; the plan is the path to it (still to be checked)."""
    TIMEOUT = "search-timeout"
    """The search's time limit ran out."""
    EXHAUSTED = "search-exhausted"
    """The open list ran empty: no goal among the states reached (the problem is unsolvable, or
    the heuristic called a state on every path to the goal a dead end)."""
    LIMIT = "search-limit"
    """The search reached its cap on states (``max_states``)."""
    MEMORY = "search-memory"
    """The search ran out of memory (the sandbox's limit)."""
    HEURISTIC_ERROR = "heuristic-error"
    """The heuristic raised an exception or returned something that is not a number >= 0."""


@dataclass(frozen=True)
class SearchResult:
    """What one search did.

    Attributes:
        status: how it ended.
        plan: the actions from the initial state to the goal state expanded, for
            :attr:`SearchStatus.PLAN_FOUND`; else ``None``.
        expanded: states taken from the open list and expanded (the goal state included, as
            Pyperplan counts).
        evaluated: heuristic calls (one per distinct state reached, the initial state included).
        generated: successor states produced by the expansions, duplicates included.
        initial_h: the heuristic's value of the initial state, or ``None`` when it has none.
        message: why the search failed, for a person, or ``None``.
    """

    status: SearchStatus
    plan: tuple[Atom, ...] | None
    expanded: int
    evaluated: int
    generated: int
    initial_h: float | None = None
    message: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form: the plan's actions as ``"(name arg ...)"`` strings; an infinite or
        huge ``initial_h`` as ``"inf"``."""
        return {
            "status": self.status.value,
            "plan": None if self.plan is None else ["(" + " ".join(action) + ")" for action in self.plan],
            "expanded": self.expanded,
            "evaluated": self.evaluated,
            "generated": self.generated,
            "initial_h": json_number(self.initial_h),
            "message": self.message,
        }


def json_number(value: float | None) -> float | str | None:
    """A heuristic value as JSON: a finite float, ``"inf"`` for infinity (or an int too large for
    a float), ``None`` for none."""
    if value is None:
        return None
    try:
        number = float(value)
    except OverflowError:
        return "inf"
    return number if math.isfinite(number) else "inf"


class SearchInterrupted(BaseException):
    """Raised from outside the search (a time limit's signal handler) to stop it; the search
    returns :attr:`SearchStatus.TIMEOUT` with its figures so far. A ``BaseException``, so that a
    heuristic's ``except Exception`` does not swallow it."""


class HeuristicError(Exception):
    """The heuristic failed on a state: ``message`` says how (for the record)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class _Node:
    """A search node: a state, the node it was reached from by ``action``, and its path length."""

    __slots__ = ("action", "g", "parent", "state")

    def __init__(self, state: State, parent: _Node | None, action: Atom | None, g: int):
        self.state, self.parent, self.action, self.g = state, parent, action, g

    def path(self) -> tuple[Atom, ...]:
        actions: list[Atom] = []
        node: _Node | None = self
        while node is not None and node.action is not None:
            actions.append(node.action)
            node = node.parent
        return tuple(reversed(actions))


def gbfs(
    successors: Successors,
    init: State,
    goal: frozenset[Atom],
    h: Heuristic,
    *,
    deadline: float | None = None,
    max_states: int = 0,
    clock: Callable[[], float] = time.monotonic,
) -> SearchResult:
    """Greedy best-first search from ``init`` to a state that holds every atom of ``goal``.

    Args:
        successors: the transition function (actions in a fixed order: ties between equal
            heuristic values are broken in the order states were put on the open list).
        init: the initial state.
        goal: the goal atoms (a conjunction).
        h: the heuristic; it may raise :class:`HeuristicError` to stop the search with
            :attr:`SearchStatus.HEURISTIC_ERROR`, and :class:`SearchInterrupted` (raised
            anywhere during the search) stops it with :attr:`SearchStatus.TIMEOUT`.
        deadline: a ``clock()`` time past which the search stops (checked before each
            expansion, the goal test included), or ``None``.
        max_states: the most distinct states the search may reach (0: no cap).
        clock: the clock of ``deadline``.

    Returns:
        The :class:`SearchResult`; running out of memory is :attr:`SearchStatus.MEMORY` (the
        search's states are dropped first). Other exceptions of ``h`` propagate.
    """
    evaluated = expanded = generated = 0
    values: dict[State, float] = {}
    best_g: dict[State, int] = {}
    frontier: list[tuple[float, int, _Node]] = []
    initial_h: float | None = None

    def result(
        status: SearchStatus, plan: tuple[Atom, ...] | None = None, message: str | None = None
    ) -> SearchResult:
        return SearchResult(status, plan, expanded, evaluated, generated, initial_h, message)

    try:
        initial_h = h(init)
        evaluated = 1
        values[init] = initial_h
        best_g[init] = 0
        tie = 0
        frontier.append((initial_h, tie, _Node(init, None, None, 0)))
        while frontier:
            _, _, node = heapq.heappop(frontier)
            state, g = node.state, node.g
            if best_g[state] != g:
                continue  # reached again by a shorter path after this entry was made
            if deadline is not None and clock() > deadline:
                return result(SearchStatus.TIMEOUT, message="the search's time limit ran out")
            expanded += 1
            if goal <= state:
                return result(SearchStatus.PLAN_FOUND, node.path())
            for action, successor in successors(state):
                generated += 1
                value = values.get(successor)
                if value is None:
                    if max_states and len(values) >= max_states:
                        return result(SearchStatus.LIMIT, message=f"the search reached {max_states:,} states")
                    value = h(successor)
                    evaluated += 1
                    values[successor] = value
                if value == math.inf:
                    continue
                old = best_g.get(successor)
                if old is None or g + 1 < old:
                    tie += 1
                    best_g[successor] = g + 1
                    heapq.heappush(frontier, (value, tie, _Node(successor, node, action, g + 1)))
        return result(SearchStatus.EXHAUSTED, message="no goal among the states reached")
    except HeuristicError as error:
        return result(SearchStatus.HEURISTIC_ERROR, message=error.message)
    except SearchInterrupted:
        return result(SearchStatus.TIMEOUT, message="the search's time limit ran out")
    except MemoryError:
        values.clear()
        best_g.clear()
        frontier.clear()
        return result(SearchStatus.MEMORY, message="the search ran out of memory")


def goal_count(goal: frozenset[Atom]) -> Heuristic:
    """The goal-count heuristic: goal atoms a state lacks (a trusted heuristic for genplan's own
    searches, which find the known plans of :mod:`genplan.approaches.heuristic.probes`)."""
    return lambda state: len(goal - state)
