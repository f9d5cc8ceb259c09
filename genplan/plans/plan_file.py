"""Plan files as Fast Downward writes them (``sas_plan``): one action per line, the cost last.

A saved plan reads::

    (pick-up truck a parcel s0 s1)
    (drive truck a b)
    ; cost = 2 (unit cost)

``; cost = N (general cost)`` in action-cost problems (:mod:`genplan.plans.costs`). VAL and
``genplan validate`` read such files as they are (the last line is a comment).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from genplan.errors import GenplanError
from genplan.plans.costs import cost_text
from genplan.plans.untrusted_text import is_printable_ascii, shown_text

COST_KINDS = ("unit", "general")
_COST_LINE = re.compile(r"^;\s*cost\s*=\s*(\S+)\s*\((unit|general) cost\)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class FoundPlan:
    """A valid plan as a run keeps it.

    Attributes:
        actions: the plan's actions as written, ``"(drive truck a b)"``.
        cost: its cost (:func:`~genplan.plans.costs.plan_cost`).
        kind: ``"unit"`` or ``"general"`` (:func:`~genplan.plans.costs.cost_kind`).
    """

    actions: tuple[str, ...]
    cost: float
    kind: str

    def to_text(self) -> str:
        """The ``sas_plan`` text: actions, then ``; cost = N (unit cost)``."""
        return plan_file_text(self.actions, self.cost, self.kind)


class UnprintablePlanLine(GenplanError):
    """A plan line that is not one line of printable ASCII as it would be written.

    Attributes:
        step: the 1-based step of the action.
    """

    def __init__(self, step: int, line: str):
        self.step = step
        super().__init__(
            f"the action at step {step} is not one line of printable ASCII as it would be written: "
            f"{shown_text(line)}"
        )


def plan_file_text(actions: Sequence[str], cost: float, kind: str) -> str:
    """One action per line (its whitespace runs made single spaces), then
    ``; cost = N (KIND cost)``. Each line is checked as it will be written, after that rewrite
    and any before it (a name mapping's translation): printable ASCII only, so the text a plan
    file or a terminal gets has exactly one line per action and no control character.

    Raises:
        ValueError: ``kind`` is neither ``"unit"`` nor ``"general"``.
        UnprintablePlanLine: a line holds a character other than printable ASCII (names the step).
    """
    if kind not in COST_KINDS:
        raise ValueError(f"cost kind {kind!r}: use one of {', '.join(COST_KINDS)}")
    lines = [" ".join(action.split()) for action in actions]
    for step, line in enumerate(lines, start=1):
        if not is_printable_ascii(line):
            raise UnprintablePlanLine(step, line)
    body = "".join(f"{line}\n" for line in lines)
    return f"{body}; cost = {cost_text(cost)} ({kind} cost)\n"


def recorded_cost(text: str) -> float | None:
    """The cost of a plan file's ``; cost = N (... cost)`` line, or ``None`` without one."""
    found = _COST_LINE.search(text)
    return float(found.group(1)) if found else None


def plan_file_name(key: str) -> str:
    """Where a problem's plan goes inside ``plans/``: its key with ``.pddl`` replaced by
    ``.plan`` (``testing/easy/p01.pddl`` -> ``testing/easy/p01.plan``).

    Raises:
        ValueError: the key is empty, absolute or climbs out of the folder (``..``).
    """
    parts = key.replace("\\", "/").split("/")
    if not key or key.startswith("/") or any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"problem key {key!r} cannot name a plan file")
    name = key[: -len(".pddl")] if key.endswith(".pddl") else key
    return name + ".plan"
