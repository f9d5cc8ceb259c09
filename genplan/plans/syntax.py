"""The plan syntax check of Sec. 4.2: is the output a list of well-formed actions?

The output of ``get_plan`` must be a list of strings, each enclosed in parentheses and
space-separated, naming an operator of the domain with the right number of objects of the
problem, of the right types. The paper's own check did not verify objects or types, so VAL's
"Bad plan description!" reached the model as a misleading goal failure; this one does.
It runs before VAL, which crashes or silently misreads such plans.
"""

from __future__ import annotations

from dataclasses import dataclass

from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.shape import output_shape_error, output_shape_step


@dataclass(frozen=True)
class SyntaxResult:
    """The verdict of :func:`check_syntax`.

    Attributes:
        valid: whether every action is well formed.
        actions: the parsed actions as tuples ``('walk', 'r0_c0', 'r0_c1')``, lower case
            (empty when invalid).
        message: on failure, what is wrong in the paper's style, e.g. ``"the action walk r0_c0
            r0_c1 is invalid at step 1 because it is not enclosed in parentheses"`` (steps
            counted from 1, as VAL counts them); empty when valid.
        step: the 0-based index of the first bad action, or ``None``.
    """

    valid: bool
    actions: tuple[Atom, ...] = ()
    message: str = ""
    step: int | None = None


def _invalid(text: str, step: int, reason: str) -> SyntaxResult:
    return SyntaxResult(False, (), f"the action {text} is invalid at step {step + 1} because {reason}", step)


def parse_action(text: str) -> Atom | None:
    """``"(walk a b)"`` -> ``('walk', 'a', 'b')`` lower-cased; ``None`` if not parenthesised or empty."""
    stripped = text.strip()
    if not (stripped.startswith("(") and stripped.endswith(")")):
        return None
    parts = stripped[1:-1].lower().split()
    if not parts or any("(" in p or ")" in p for p in parts):
        return None
    return tuple(parts)


def check_syntax(plan: object, problem: Problem) -> SyntaxResult:
    """Check that ``plan`` is a list of well-formed actions for ``problem`` (Sec. 4.2).

    Args:
        plan: whatever ``get_plan`` returned.
        problem: the problem (and through it the domain) the plan is for.

    Returns:
        A :class:`SyntaxResult`; never raises for bad output.
    """
    shape = output_shape_error(plan)
    if shape is not None:
        return SyntaxResult(False, (), shape, output_shape_step(plan))
    assert isinstance(plan, (list, tuple))
    domain = problem.domain
    actions: list[Atom] = []
    for step, item in enumerate(plan):
        shown = item.strip()
        action = parse_action(item)
        if action is None:
            if not (shown.startswith("(") and shown.endswith(")")):
                return _invalid(shown, step, "it is not enclosed in parentheses")
            return _invalid(
                shown, step, "it is not an operator name followed by space-separated object names"
            )
        shown = " ".join(action)
        operator = domain.operators.get(action[0])
        if operator is None:
            return _invalid(shown, step, f"the operator {action[0]} does not exist")
        arguments = action[1:]
        if len(arguments) != len(operator.parameters):
            return _invalid(
                shown,
                step,
                f"{operator.name} takes {len(operator.parameters)} arguments but {len(arguments)} were given",
            )
        for position, (argument, (variable, type_name)) in enumerate(
            zip(arguments, operator.parameters), start=1
        ):
            object_type = problem.object_types.get(argument)
            if object_type is None:
                return _invalid(shown, step, f"the object {argument} does not exist")
            if domain.typed and not domain.is_subtype(object_type, type_name):
                return _invalid(
                    shown,
                    step,
                    f"argument {position} ({variable}) must be of type {type_name}, but {argument} is of type {object_type}",
                )
        actions.append(action)
    return SyntaxResult(True, tuple(actions))
