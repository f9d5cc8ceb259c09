"""A small STRIPS simulator that gives VAL's plan repair advice (Sec. 4.2).

It checks plans VAL cannot take (9,995 steps or more, a crash, a missing binary on macOS or
ARM) and is tested against VAL on thousands of plans to agree on validity and on the first
failing step. Advice is worded as VAL words it, e.g.::

    (stack o3 o2) has an unsatisfied precondition at time 3
    (Set (heavier o3 o2) to true)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from genplan.pddl.domain import Atom, Operator
from genplan.pddl.problem import Problem


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


def _holds(atom: Atom, state: set[Atom]) -> bool:
    if atom[0] == "=":
        return atom[1] == atom[2]
    return atom in state


def unsatisfied_preconditions(
    operator: Operator, arguments: Sequence[str], state: set[Atom]
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


def _candidates(
    operator: Operator, problem: Problem, state: set[Atom] | frozenset[Atom]
) -> list[tuple[str, ...]]:
    """Argument tuples worth trying: each parameter ranges over objects of its type, narrowed by
    every positive precondition that mentions it (the object must fill that place in a true atom)."""
    domain = problem.domain
    choices: list[list[str]] = []
    for variable, type_name in operator.parameters:
        options = {
            o for o, t in problem.object_types.items() if not domain.typed or domain.is_subtype(t, type_name)
        }
        for atom in operator.positive_preconditions:
            if atom[0] == "=":
                continue
            for position, term in enumerate(atom):
                if position and term == variable:
                    options &= {
                        fact[position] for fact in state if fact[0] == atom[0] and len(fact) == len(atom)
                    }
        choices.append(sorted(options))
    return list(itertools.product(*choices))


def applicable_actions(problem: Problem, state: set[Atom] | frozenset[Atom]) -> list[Atom]:
    """The successor function's actions: every ground action of ``problem`` applicable in ``state``,
    as ``(operator, object, ...)`` tuples, sorted (parameters range over objects of their type)."""
    actions = []
    for name, operator in sorted(problem.domain.operators.items()):
        for arguments in _candidates(operator, problem, state):
            if not unsatisfied_preconditions(operator, arguments, set(state)):
                actions.append((name, *arguments))
    return actions


def successor(problem: Problem, action: Atom, state: Iterable[Atom]) -> frozenset[Atom]:
    """The state after applying the applicable ground ``action`` (``(operator, object, ...)``) in ``state``."""
    result = set(state)
    apply(problem.domain.operators[action[0]], action[1:], result)
    return frozenset(result)


def simulate(problem: Problem, actions: Sequence[Atom]) -> SimulationResult:
    """Execute well-formed ``actions`` (see :func:`genplan.plans.syntax.check_syntax`) from the initial state.

    Args:
        problem: the problem.
        actions: ground actions as tuples ``(operator, object, ...)`` whose names and arity
            were checked already.

    Returns:
        A :class:`SimulationResult`. Times in the advice are 1-based, as VAL prints them.
    """
    operators = problem.domain.operators
    state = set(problem.init)
    for step, action in enumerate(actions):
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
