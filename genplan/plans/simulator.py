"""A small STRIPS simulator that gives VAL's plan repair advice (Sec. 4.2).

It checks plans VAL cannot take (9,995 steps or more, a crash, a missing binary on macOS or
ARM) and is tested against VAL on thousands of plans to agree on validity and on the first
failing step. Advice is worded as VAL words it, e.g.::

    (stack o3 o2) has an unsatisfied precondition at time 3
    (Set (heavier o3 o2) to true)
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from genplan.pddl.domain import Atom, Operator
from genplan.pddl.problem import Problem
from genplan.plans.successors import SuccessorGenerator


class CheckDeadlinePassed(Exception):
    """Plan checking ran past its deadline (the problem's budget); ``step`` is where it stopped."""

    def __init__(self, step: int):
        super().__init__(f"plan checking ran past its deadline at step {step + 1}")
        self.step = step


DEADLINE_STRIDE = 4096
"""How many steps the simulator takes between looks at the clock."""


@dataclass(frozen=True)
class SimulationResult:
    """The verdict of :func:`simulate`.

    Attributes:
        valid: every action was applicable and the goal holds at the end.
        failing_step: 0-based index of the first inapplicable action, or ``None``.
        advice: VAL-style plan repair advice; empty when valid.
        unmet_goals: goal atoms false at the end (when every action applied).
    """

    valid: bool
    failing_step: int | None
    advice: str
    unmet_goals: tuple[Atom, ...] = ()


def _atom_text(atom: Atom) -> str:
    return "(" + " ".join(atom) + ")"


def repair_advice(settings: Sequence[tuple[Atom, bool]]) -> str:
    """VAL's list of changes: one ``(Set (a) to true)``, or a ``(Follow each of: ...)`` block."""
    lines = [f"(Set {_atom_text(atom)} to {'true' if value else 'false'})" for atom, value in settings]
    if len(lines) == 1:
        return lines[0]
    body = "\n".join(f"    {line}" if index == 0 else f"    and {line}" for index, line in enumerate(lines))
    return f"(Follow each of:\n{body}\n)"


def _ground(atoms: Iterable[Atom], binding: dict[str, str]) -> list[Atom]:
    return [tuple(binding.get(term, term) for term in atom) for atom in atoms]


def _holds(atom: Atom, state: AbstractSet[Atom]) -> bool:
    if atom[0] == "=":
        return atom[1] == atom[2]
    return atom in state


def unsatisfied_preconditions(
    operator: Operator, arguments: Sequence[str], state: AbstractSet[Atom]
) -> list[tuple[Atom, bool]]:
    """Preconditions of the action that fail in ``state``, as ``(atom, value needed)`` pairs."""
    binding = {variable: argument for (variable, _), argument in zip(operator.parameters, arguments)}
    missing = [
        (atom, True) for atom in _ground(operator.positive_preconditions, binding) if not _holds(atom, state)
    ]
    missing += [
        (atom, False) for atom in _ground(operator.negative_preconditions, binding) if _holds(atom, state)
    ]
    return missing


def apply(operator: Operator, arguments: Sequence[str], state: set[Atom]) -> None:
    """Apply the action's effects to ``state`` in place: deletes first, then adds (as VAL does)."""
    binding = {variable: argument for (variable, _), argument in zip(operator.parameters, arguments)}
    for atom in _ground(operator.delete_effects, binding):
        state.discard(atom)
    state.update(_ground(operator.add_effects, binding))


def simulate(problem: Problem, actions: Sequence[Atom], *, deadline: float | None = None) -> SimulationResult:
    """Execute well-formed ``actions`` (see :func:`genplan.plans.syntax.check_syntax`) from the initial state.

    Args:
        problem: the problem.
        actions: ground actions as tuples ``(operator, object, ...)`` whose names and arity
            were checked already.
        deadline: a ``time.monotonic()`` value past which the simulation stops, or ``None``.

    Returns:
        A :class:`SimulationResult`. Times in the advice are 1-based, as VAL prints them.

    Raises:
        CheckDeadlinePassed: ``deadline`` passed before the last action was applied.
    """
    operators = problem.domain.operators
    state = set(problem.init)
    for step, action in enumerate(actions):
        if deadline is not None and step % DEADLINE_STRIDE == 0 and time.monotonic() > deadline:
            raise CheckDeadlinePassed(step)
        operator = operators[action[0]]
        missing = unsatisfied_preconditions(operator, action[1:], state)
        if missing:
            advice = f"{_atom_text(action)} has an unsatisfied precondition at time {step + 1}\n{repair_advice(missing)}"
            return SimulationResult(False, step, advice)
        apply(operator, action[1:], state)
    unmet = tuple(sorted(atom for atom in problem.goal if atom not in state))
    if unmet:
        advice = "The goal is not satisfied\n" + repair_advice([(atom, True) for atom in unmet])
        return SimulationResult(False, None, advice, unmet)
    return SimulationResult(True, None, "")


@functools.lru_cache(maxsize=64)
def _generator(problem: Problem) -> SuccessorGenerator:
    return SuccessorGenerator.for_problem(problem)


def applicable_actions(problem: Problem, state: AbstractSet[Atom]) -> list[Atom]:
    """Every ground action applicable in ``state``, as ``(operator, object, ...)`` tuples, sorted
    (found by :class:`~genplan.plans.successors.SuccessorGenerator`)."""
    return _generator(problem).applicable(state)
