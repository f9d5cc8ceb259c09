"""The plan syntax check of Sec. 4.2: is the output a list of well-formed actions?

The output of ``get_plan`` must be a list of strings, each enclosed in parentheses and
space-separated, naming an operator of the domain with the right number of objects of the
problem, of the right types. The paper's own check did not verify objects or types, so VAL's
"Bad plan description!" reached the model as a misleading goal failure; this one does.
It runs before VAL, which crashes or silently misreads such plans.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.shape import output_shape_error, output_shape_step
from genplan.plans.untrusted_text import first_unprintable, shown_text

LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""What ``str.splitlines`` breaks at: a plan item holding one of these would be several lines."""


@dataclass(frozen=True)
class SyntaxResult:
    """The verdict of :func:`check_syntax`.

    Attributes:
        valid: whether every action is well formed.
        actions: the parsed actions as tuples ``('walk', 'r0_c0', 'r0_c1')``, lower case
            (empty when invalid); only ASCII letters are folded (PDDL names are
            case-insensitive), since every item was checked to be printable ASCII.
        lines: the plan items exactly as returned, one per action (empty when invalid): what
            VAL is given, so it checks the text the program returned.
        message: on failure, what is wrong in the paper's style, e.g. ``"the action walk r0_c0
            r0_c1 is invalid at step 1 because it is not enclosed in parentheses"`` (steps
            counted from 1, as VAL counts them); empty when valid.
        step: the 0-based index of the first bad action, or ``None``.
    """

    valid: bool
    actions: tuple[Atom, ...] = ()
    message: str = ""
    step: int | None = None
    lines: tuple[str, ...] = ()


def _invalid(text: str, step: int, reason: str) -> SyntaxResult:
    message = f"the action {shown_text(text)} is invalid at step {step + 1} because {reason}"
    return SyntaxResult(False, (), message, step)


def _unprintable_reason(character: str) -> str:
    if character in LINE_BREAKS:
        return "it holds a line break (each action must be one string of its own, on one line)"
    name = unicodedata.name(character, "")
    shown = f"U+{ord(character):04X}" + (f" {name}" if name else "")
    return (
        f"it holds the character {shown}, which is not printable ASCII "
        "(actions are written with ASCII letters, digits, '-', '_', spaces and parentheses)"
    )


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

    Every item must be printable ASCII (space to ``~``) as written: a non-ASCII letter that
    lower-cases to an ASCII one (the Kelvin sign, a dotted capital I) or a line break is a
    syntax error, so what is checked is what was returned (issue 23).

    Returns:
        A :class:`SyntaxResult`; never raises for bad output.
    """
    shape = output_shape_error(plan)
    if shape is not None:
        return SyntaxResult(False, (), shape, output_shape_step(plan))
    assert isinstance(plan, (list, tuple))
    domain = problem.domain
    actions: list[Atom] = []
    items = [str.__str__(item) for item in plan]  # exact copies: a str subclass's methods never run
    for step, item in enumerate(items):
        shown = item.strip()
        unprintable = first_unprintable(item)
        if unprintable is not None:
            return _invalid(shown, step, _unprintable_reason(unprintable))
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
            return _invalid(shown, step, f"the operator {shown_text(action[0])} does not exist")
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
                return _invalid(shown, step, f"the object {shown_text(argument)} does not exist")
            if domain.typed and not domain.is_subtype(object_type, type_name):
                return _invalid(
                    shown,
                    step,
                    f"argument {position} ({variable}) must be of type {type_name}, but {argument} is of type {object_type}",
                )
        actions.append(action)
    return SyntaxResult(True, tuple(actions), lines=tuple(items))
