"""Breadth-first search over the Missionaries and Cannibals puzzles of ``domains/mcp*``: TEST ORACLE ONLY.

It checks the known answers written in each folder's ``answer.json`` (the fewest crossings, or
no solution) from the rules its ``description.md`` states, independently of any encoding.
A state lists, per person kind, how many are on the left bank, and the boat's bank.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from itertools import product

State = tuple[int, ...]


def _safe(missionaries: int, cannibals: int) -> bool:
    return missionaries == 0 or cannibals <= missionaries


def shortest(
    kinds: tuple[int, ...],
    boat_ok: Callable[[tuple[int, ...]], bool],
    bank_ok: Callable[[tuple[int, ...]], bool],
    capacity: int = 2,
) -> int | None:
    """Fewest crossings that bring everyone from the left bank (boat there) to the right, or None.

    Args:
        kinds: how many people of each kind there are (e.g. ordinary missionaries, cannibals, ...).
        boat_ok: whether a load (people of each kind on board) may cross.
        bank_ok: whether a bank with these people of each kind is safe.
        capacity: the most people on board.
    """
    start: State = (*kinds, 0)
    goal: State = (*(0 for _ in kinds), 1)
    seen = {start: 0}
    frontier = deque([start])
    while frontier:
        state = frontier.popleft()
        if state == goal:
            return seen[state]
        for following in _moves(state, kinds, boat_ok, bank_ok, capacity):
            if following not in seen:
                seen[following] = seen[state] + 1
                frontier.append(following)
    return None


def _moves(
    state: State,
    kinds: tuple[int, ...],
    boat_ok: Callable[[tuple[int, ...]], bool],
    bank_ok: Callable[[tuple[int, ...]], bool],
    capacity: int,
) -> Iterator[State]:
    *left, boat = state
    here = left if boat == 0 else [k - n for k, n in zip(kinds, left)]
    for load in product(*(range(n + 1) for n in here)):
        if not 1 <= sum(load) <= capacity or not boat_ok(load):
            continue
        sign = -1 if boat == 0 else 1
        new_left = tuple(n + sign * m for n, m in zip(left, load))
        right = tuple(k - n for k, n in zip(kinds, new_left))
        if bank_ok(new_left) and bank_ok(right):
            yield (*new_left, 1 - boat)


def basic(missionaries: int = 3, cannibals: int = 3) -> int | None:
    """The puzzle (and elaboration 3 with four of each): a boat for two."""
    return shortest((missionaries, cannibals), lambda load: True, lambda bank: _safe(*bank))


def two_rowers() -> int | None:
    """Elaboration 6: only one missionary and one cannibal can row; kinds: ordinary missionaries,
    ordinary cannibals, the rowing missionary, the rowing cannibal."""
    return shortest(
        (2, 2, 1, 1),
        lambda load: load[2] + load[3] >= 1,
        lambda bank: _safe(bank[0] + bank[2], bank[1] + bank[3]),
    )


def big_cannibal() -> int | None:
    """Elaboration 8: the biggest cannibal cannot share the boat; kinds: missionaries, other
    cannibals, the big cannibal."""
    return shortest(
        (3, 2, 1),
        lambda load: load[2] == 0 or sum(load) == 1,
        lambda bank: _safe(bank[0], bank[1] + bank[2]),
    )


ANSWERS: dict[str, Callable[[], int | None]] = {
    "mcp": basic,
    "mcp-four-each": lambda: basic(4, 4),
    "mcp-two-rowers": two_rowers,
    "mcp-big-cannibal": big_cannibal,
}
"""Folder name under ``domains/`` -> the search that answers it."""
