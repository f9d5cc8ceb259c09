"""Dataclasses declared the normal way, enums, named tuples, typing annotations."""

from __future__ import annotations

import dataclasses
import enum
from collections import namedtuple
from dataclasses import dataclass, field
from typing import NamedTuple


class Mode(enum.Enum):
    LOAD = enum.auto()
    UNLOAD = enum.auto()


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclass(frozen=True, order=True)
class State:
    at: str
    holding: frozenset[str] = frozenset()

    def with_item(self, item: str) -> State:
        return dataclasses.replace(self, holding=self.holding | {item})


@dataclass
class Stats:
    expanded: int = 0
    path: list[str] = field(default_factory=list)
    _notes: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._notes["created"] = 1


class Step(NamedTuple):
    action: str
    cost: int = 1


Pair = namedtuple("Pair", ["left", "right"])


def get_plan(objects, init, goal):
    state = State("start")
    stats = Stats()
    for item in sorted(objects):
        state = state.with_item(item)
        stats.expanded += 1
        stats.path.append(item)
    steps: list[Step] = [Step(f"(load {item})") for item in sorted(state.holding)]
    best: tuple[int, str] | None = min((len(s.action), s.action) for s in steps) if steps else None
    pair = Pair(1, 2)._replace(right=3)
    return [
        *[s.action for s in steps],
        f"(mode {Mode.LOAD.name} {Mode.UNLOAD.value} {Level.HIGH > Level.LOW})",
        f"(stats {stats.expanded} {dataclasses.asdict(stats)['path'][:1]} {stats._notes['created']})",
        f"(best {best} {pair._asdict()} {Pair._fields} {dataclasses.astuple(State('x'))[0]})",
        f"(sorted {sorted([State('b'), State('a')])[0].at})",
    ]
