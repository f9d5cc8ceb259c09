"""Breadth-first search over the Missionaries and Cannibals puzzles of ``domains/mcp*``: TEST ORACLE ONLY.

It checks the known answers written in each folder's ``answer.json`` (the fewest crossings, or
no solution) from the rules its ``description.md`` states, independently of any encoding.
A state lists, per person kind, how many are on the left bank, and the boat's bank.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations, product
from typing import Any

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


# The elaborations LLM+AL's Table 1 adds (Ishay and Lee, AAAI 2025, Appendix E; McCarthy 1998's
# numbers), each with the variant its description.md states.


def rowboat() -> int | None:
    """Elaboration 1: the boat is a rowboat; someone on board rows, and anyone can."""
    return shortest((3, 3), lambda load: sum(load) >= 1, lambda bank: _safe(*bank))


def hats() -> int | None:
    """Elaboration 2: six persons with six different hats, which two persons on the same bank
    may exchange (a step); a state lists each person's bank, the boat's bank and who wears which
    hat. Persons 0-2 are missionaries, 3-5 cannibals."""
    start = ((0,) * 6, 0, tuple(range(6)))

    def safe(banks: tuple[int, ...]) -> bool:
        return all(
            _safe(sum(banks[p] == side for p in range(3)), sum(banks[p] == side for p in range(3, 6)))
            for side in (0, 1)
        )

    def moves(state: tuple[tuple[int, ...], int, tuple[int, ...]]) -> Iterator[object]:
        banks, boat, worn = state
        here = [p for p in range(6) if banks[p] == boat]
        for size in (1, 2):
            for group in combinations(here, size):
                moved = tuple(1 - side if p in group else side for p, side in enumerate(banks))
                if safe(moved):
                    yield (moved, 1 - boat, worn)
        for first, second in combinations(range(6), 2):
            if banks[first] == banks[second]:
                swapped = list(worn)
                swapped[first], swapped[second] = worn[second], worn[first]
                yield (banks, boat, tuple(swapped))

    return search(start, lambda state: state[0] == (1,) * 6 and state[1] == 1, moves)  # type: ignore[index]


def boat_of_three() -> int | None:
    """Elaboration 4 as the paper's appendix takes it: six missionaries and six cannibals, a
    boat for three."""
    return shortest((6, 6), lambda load: True, lambda bank: _safe(*bank), capacity=3)


def oars() -> int | None:
    """Elaboration 5: one oar on each bank; a crossing takes one or two of the oars on the
    boat's bank along (they stay on the bank it reaches), and two persons on board need two.
    A state: missionaries and cannibals on the left bank, the boat's bank, oars on the left bank."""

    def moves(state: tuple[int, int, int, int]) -> Iterator[tuple[int, int, int, int]]:
        missionaries, cannibals, boat, oars_left = state
        here = (missionaries, cannibals) if boat == 0 else (3 - missionaries, 3 - cannibals)
        oars_here = oars_left if boat == 0 else 2 - oars_left
        sign = -1 if boat == 0 else 1
        for load in product(range(here[0] + 1), range(here[1] + 1)):
            people = sum(load)
            for taken in range(max(people, 1), oars_here + 1):
                if not 1 <= people <= 2:
                    continue
                left = (missionaries + sign * load[0], cannibals + sign * load[1])
                if _safe(*left) and _safe(3 - left[0], 3 - left[1]):
                    yield (*left, 1 - boat, oars_left + sign * taken)

    return search((3, 3, 0, 1), lambda state: state[:3] == (0, 0, 1), moves)  # type: ignore[index]


def missionaries_cannot_row() -> int | None:
    """Elaboration 7: only cannibals row, so every crossing has a cannibal on board."""
    return shortest((3, 3), lambda load: load[1] >= 1, lambda bank: _safe(*bank))


def small_missionary() -> int | None:
    """Elaboration 9: the biggest cannibal alone with the smallest missionary (the two of them
    and nobody else, on a bank or in the boat) eats him; kinds: other missionaries, the smallest
    missionary, other cannibals, the biggest cannibal."""

    def isolated(group: tuple[int, ...]) -> bool:
        return group == (0, 1, 0, 1)

    return shortest(
        (2, 1, 2, 1),
        lambda load: not isolated(load),
        lambda bank: _safe(bank[0] + bank[1], bank[2] + bank[3]) and not isolated(bank),
    )


def walks_on_water() -> int | None:
    """Elaboration 10: one missionary can walk across the river; in one step the boat may cross
    and he may walk (not being on board), or either alone. A state: other missionaries, the
    walker and cannibals on the left bank, and the boat's bank."""
    kinds = (2, 1, 3)

    def safe(left: tuple[int, ...]) -> bool:
        right = tuple(k - n for k, n in zip(kinds, left))
        return _safe(left[0] + left[1], left[2]) and _safe(right[0] + right[1], right[2])

    def moves(state: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        *left, boat = state
        here = left if boat == 0 else [k - n for k, n in zip(kinds, left)]
        sign = -1 if boat == 0 else 1
        loads: list[tuple[int, ...] | None] = [None]
        loads += [load for load in product(*(range(n + 1) for n in here)) if 1 <= sum(load) <= 2]
        for load in loads:
            for walks in (False, True):
                if (load is None and not walks) or (walks and load is not None and load[1]):
                    continue
                after = list(left) if load is None else [n + sign * m for n, m in zip(left, load)]
                if walks:
                    after[1] = 1 - after[1]
                if safe(tuple(after)):
                    yield (*after, boat if load is None else 1 - boat)

    return search((2, 1, 3, 0), lambda state: state == (0, 0, 0, 1), moves)  # type: ignore[arg-type]


def conversion() -> int | None:
    """Elaboration 11: whenever, after a crossing, exactly three missionaries and one cannibal
    are on a bank, they convert him into a missionary. A state: missionaries and cannibals on
    the left bank, the boat's bank, and how many missionaries there are in all."""

    def moves(state: tuple[int, int, int, int]) -> Iterator[tuple[int, int, int, int]]:
        missionaries, cannibals, boat, total = state
        others = 6 - total
        here = (missionaries, cannibals) if boat == 0 else (total - missionaries, others - cannibals)
        sign = -1 if boat == 0 else 1
        for load in product(range(here[0] + 1), range(here[1] + 1)):
            if not 1 <= sum(load) <= 2:
                continue
            left = [missionaries + sign * load[0], cannibals + sign * load[1]]
            if not (_safe(*left) and _safe(total - left[0], others - left[1])):
                continue
            converted = total
            if left == [3, 1]:
                left, converted = [4, 0], total + 1
            elif (total - left[0], others - left[1]) == (3, 1):
                converted = total + 1
            yield (left[0], left[1], 1 - boat, converted)

    return search((3, 3, 0, 3), lambda state: state[:3] == (0, 0, 1), moves)  # type: ignore[index]


def bridge(each: int = 5) -> int | None:
    """Elaboration 13 as the paper's appendix takes it (five of each): a bridge that two can
    cross at once, besides the boat; in one step the boat may cross and at the same time up to
    two others may cross the bridge, either way (or either alone)."""

    def moves(state: tuple[int, int, int]) -> Iterator[tuple[int, int, int]]:
        missionaries, cannibals, boat = state
        banks = [(missionaries, cannibals), (each - missionaries, each - cannibals)]
        loads: list[tuple[int, int] | None] = [None]
        loads += [load for load in product(*(range(n + 1) for n in banks[boat])) if 1 <= sum(load) <= 2]
        for load in loads:
            free = [list(bank) for bank in banks]
            if load is not None:
                free[boat] = [n - m for n, m in zip(banks[boat], load)]
            walks: list[tuple[int, tuple[int, ...]] | None] = [None]
            walks += [
                (side, walk)
                for side in (0, 1)
                for walk in product(*(range(n + 1) for n in free[side]))
                if 1 <= sum(walk) <= 2
            ]
            for walk in walks:
                if load is None and walk is None:
                    continue
                left = [missionaries, cannibals]
                if load is not None:
                    sign = -1 if boat == 0 else 1
                    left = [n + sign * m for n, m in zip(left, load)]
                if walk is not None:
                    sign = -1 if walk[0] == 0 else 1
                    left = [n + sign * m for n, m in zip(left, walk[1])]
                if _safe(*left) and _safe(each - left[0], each - left[1]):
                    yield (left[0], left[1], boat if load is None else 1 - boat)

    return search((each, each, 0), lambda state: state[:2] == (0, 0), moves)  # type: ignore[index]


def leaky_boat() -> int | None:
    """Elaboration 14 as Lifschitz (2000) takes it: with two on board one must bail while the
    other rows, and nobody can do both; anyone can row or bail."""
    return shortest(
        (3, 3),
        lambda load: 1 + (sum(load) == 2) <= sum(load),  # a rower, and a bailer besides when two
        lambda bank: _safe(*bank),
    )


def island(each: int = 5) -> int | None:
    """Elaboration 16 as the paper's appendix takes it (five of each): an island in the river;
    the boat (for two) goes between any two of the three places, and no place may have its
    missionaries outnumbered. A state: missionaries and cannibals on the first bank and on the
    island, and where the boat is (0 first bank, 1 island, 2 second bank)."""

    def moves(state: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        *counts, boat = state
        missionaries = [counts[0], counts[2], each - counts[0] - counts[2]]
        cannibals = [counts[1], counts[3], each - counts[1] - counts[3]]
        for target in range(3):
            if target == boat:
                continue
            for load in product(range(missionaries[boat] + 1), range(cannibals[boat] + 1)):
                if not 1 <= sum(load) <= 2:
                    continue
                new_m, new_c = list(missionaries), list(cannibals)
                new_m[boat] -= load[0]
                new_c[boat] -= load[1]
                new_m[target] += load[0]
                new_c[target] += load[1]
                if all(_safe(m, c) for m, c in zip(new_m, new_c)):
                    yield (new_m[0], new_c[0], new_m[1], new_c[1], target)

    return search((each, each, 0, 0, 0), lambda state: state[:4] == (0, 0, 0, 0), moves)  # type: ignore[index]


def hungry() -> int | None:
    """Elaboration 17 as the paper's appendix takes it: four of each; after a crossing the
    strongest missionary rowed (he rows whenever he is on board), the cannibals are not hungry,
    so that state may have missionaries outnumbered; kinds: other missionaries, the strongest,
    cannibals."""
    kinds = (3, 1, 4)

    def moves(state: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        *left, boat = state
        here = left if boat == 0 else [k - n for k, n in zip(kinds, left)]
        sign = -1 if boat == 0 else 1
        for load in product(*(range(n + 1) for n in here)):
            if not 1 <= sum(load) <= 2:
                continue
            after = [n + sign * m for n, m in zip(left, load)]
            right = [k - n for k, n in zip(kinds, after)]
            safe = _safe(after[0] + after[1], after[2]) and _safe(right[0] + right[1], right[2])
            if safe or load[1] == 1:
                yield (*after, 1 - boat)

    return search((3, 1, 4, 0), lambda state: state == (0, 0, 0, 1), moves)  # type: ignore[arg-type]


def two_sites() -> int | None:
    """Elaboration 19 as the paper's appendix takes it: two copies of the puzzle far apart along
    the river, each with its own boat; a step is one crossing at one of the sites."""

    def moves(state: tuple[tuple[int, ...], tuple[int, ...]]) -> Iterator[object]:
        for site in (0, 1):
            for following in _moves(
                state[site], (3, 3), lambda load: True, lambda bank: _safe(*bank), capacity=2
            ):
                yield (following, state[1]) if site == 0 else (state[0], following)

    start = ((3, 3, 0), (3, 3, 0))
    return search(start, lambda state: state == ((0, 0, 1), (0, 0, 1)), moves)  # type: ignore[arg-type]


def search(start: Any, goal: Callable[[Any], bool], moves: Callable[[Any], Iterable[Any]]) -> int | None:
    """Fewest steps from ``start`` to a state where ``goal`` holds, by breadth-first search, or None."""
    seen = {start: 0}
    frontier = deque([start])
    while frontier:
        state = frontier.popleft()
        if goal(state):
            return seen[state]
        for following in moves(state):
            if following not in seen:
                seen[following] = seen[state] + 1
                frontier.append(following)
    return None


ANSWERS.update(
    {
        "mcp-rowboat": rowboat,
        "mcp-hats": hats,
        "mcp-boat-of-three": boat_of_three,
        "mcp-oars": oars,
        "mcp-missionaries-cannot-row": missionaries_cannot_row,
        "mcp-small-missionary": small_missionary,
        "mcp-walks-on-water": walks_on_water,
        "mcp-conversion": conversion,
        "mcp-bridge": bridge,
        "mcp-leaky-boat": leaky_boat,
        "mcp-island": island,
        "mcp-hungry": hungry,
        "mcp-two-sites": two_sites,
    }
)
