"""Greedy best-first search: its order, ties, dead ends, re-reached states, limits and figures."""

from __future__ import annotations

import math
from collections.abc import Iterable

from genplan.approaches.heuristic.gbfs import (
    HeuristicError,
    SearchInterrupted,
    SearchStatus,
    State,
    gbfs,
    goal_count,
    json_number,
)
from genplan.pddl.domain import Atom


def s(*names: str) -> State:
    return frozenset((name,) for name in names)


def graph(edges: dict[str, list[str]]) -> object:
    """A transition function over one-atom states ``(name,)``: action ``(go, to)``."""

    def successors(state: State) -> Iterable[tuple[Atom, State]]:
        (here,) = next(iter(state))
        return [(("go", there), s(there)) for there in edges.get(here, [])]

    return successors


def test_the_lowest_value_is_expanded_first_and_ties_go_first_in_first_out() -> None:
    edges = {"a": ["b", "c", "d"], "b": ["g"], "c": ["g"], "d": ["g"]}
    values = {"a": 2, "b": 1, "c": 1, "d": 0, "g": 0}
    expanded: list[str] = []

    def h(state: State) -> float:
        return values[next(iter(state))[0]]

    def successors(state: State) -> Iterable[tuple[Atom, State]]:
        expanded.append(next(iter(state))[0])
        return graph(edges)(state)  # type: ignore[operator]

    result = gbfs(successors, s("a"), s("g"), h)
    assert result.status is SearchStatus.PLAN_FOUND
    assert result.plan == (("go", "d"), ("go", "g"))
    assert expanded == ["a", "d"]
    # a, d and then the goal g taken from the open list (Pyperplan counts it as an expansion)
    assert (result.expanded, result.evaluated, result.generated) == (3, 5, 4)
    values["d"] = 1  # b, c, d tie: the first generated (b) goes first
    expanded.clear()
    assert gbfs(successors, s("a"), s("g"), h).plan == (("go", "b"), ("go", "g"))


def test_a_dead_end_is_never_put_on_the_open_list() -> None:
    edges = {"a": ["trap", "b"], "b": ["g"]}
    values = {"a": 5, "trap": math.inf, "b": 3, "g": 0}
    result = gbfs(graph(edges), s("a"), s("g"), lambda state: values[next(iter(state))[0]])  # type: ignore[arg-type]
    assert result.plan == (("go", "b"), ("go", "g"))
    everything_infinite = gbfs(graph(edges), s("a"), s("g"), lambda state: 0 if state == s("a") else math.inf)  # type: ignore[arg-type]
    assert everything_infinite.status is SearchStatus.EXHAUSTED and everything_infinite.expanded == 1


def test_a_state_reached_again_by_a_shorter_path_is_expanded_from_there() -> None:
    # z is first reached at depth 3 (a, b, d, z), then from c at depth 2 before it is expanded:
    # the old entry is skipped when taken (no expansion), the new one leads to the goal.
    edges = {"a": ["b", "c"], "b": ["d"], "d": ["z"], "c": ["z"], "z": ["g"]}
    values = {"a": 9, "b": 1, "d": 1, "c": 5, "z": 6, "g": 0}
    result = gbfs(graph(edges), s("a"), s("g"), lambda state: values[next(iter(state))[0]])  # type: ignore[arg-type]
    assert result.plan == (("go", "c"), ("go", "z"), ("go", "g"))
    assert result.expanded == 6  # a, b, d, c, z, g: the stale entry of z is not an expansion


def test_the_heuristic_is_called_once_per_state() -> None:
    edges = {"a": ["b", "c"], "b": ["c", "a"], "c": ["b", "g"]}
    calls: list[State] = []

    def h(state: State) -> float:
        calls.append(state)
        return 1 if state != s("g") else 0

    result = gbfs(graph(edges), s("a"), s("g"), h)  # type: ignore[arg-type]
    assert result.status is SearchStatus.PLAN_FOUND
    assert len(calls) == len(set(calls)) == result.evaluated == 4


def test_the_deadline_the_state_cap_and_an_interrupt_stop_the_search_with_its_figures() -> None:
    def endless(state: State) -> Iterable[tuple[Atom, State]]:
        (n,) = next(iter(state))
        return [(("inc",), s(str(int(n) + 1)))]

    now = [0.0]

    def clock() -> float:
        now[0] += 1.0
        return now[0]

    timed = gbfs(endless, s("0"), s("never"), lambda state: 1, deadline=5.0, clock=clock)
    assert timed.status is SearchStatus.TIMEOUT and timed.expanded == 5
    capped = gbfs(endless, s("0"), s("never"), lambda state: 1, max_states=100)
    assert capped.status is SearchStatus.LIMIT and capped.evaluated == 100

    def interrupting(state: State) -> float:
        if state == s("7"):
            raise SearchInterrupted
        return 1

    interrupted = gbfs(endless, s("0"), s("never"), interrupting)
    assert interrupted.status is SearchStatus.TIMEOUT and interrupted.expanded == 7


def test_a_heuristic_error_stops_the_search_with_its_message() -> None:
    def failing(state: State) -> float:
        raise HeuristicError("h returned a str ('far'), not an int or float")

    result = gbfs(graph({"a": ["g"]}), s("a"), s("g"), failing)  # type: ignore[arg-type]
    assert result.status is SearchStatus.HEURISTIC_ERROR and "str" in (result.message or "")


def test_the_goal_count_heuristic_and_json_numbers() -> None:
    goal = frozenset({("at", "x"), ("at", "y")})
    assert goal_count(goal)(frozenset({("at", "x")})) == 1
    assert json_number(math.inf) == "inf" and json_number(10**400) == "inf" and json_number(3) == 3.0
