"""The first plan syntax rule (Sec. 4.2): ``get_plan`` must return a list of strings.

Shared by the sandbox, which classifies a run's output before it leaves the child process,
and by the plan syntax check, so both word the failure the same way.
"""

from __future__ import annotations


def _capped_repr(value: object, cap: int) -> str:
    try:
        text = repr(value)
    except Exception as error:  # a program's broken __repr__
        text = f"<unprintable {type(value).__name__}: {type(error).__name__}>"
    return text if len(text) <= cap else text[:cap] + " ..."


def output_shape_error(value: object) -> str | None:
    """Why ``value`` is not a list (or tuple) of strings, or ``None`` if it is.

    Returns, e.g., ``"the plan must be a list of strings, got dict"`` or ``"the plan must be a
    list of strings, but the item at step 2 is 5"`` (steps counted from 1, as VAL counts them).
    """
    if not isinstance(value, (list, tuple)):
        return f"the plan must be a list of strings, got {type(value).__name__}"
    for step, item in enumerate(value):
        if not isinstance(item, str):
            return f"the plan must be a list of strings, but the item at step {step + 1} is {_capped_repr(item, 200)}"
    return None


def output_shape_step(value: object) -> int | None:
    """The index of the first non-string item, or ``None`` (also when ``value`` is not a list)."""
    if isinstance(value, (list, tuple)):
        for step, item in enumerate(value):
            if not isinstance(item, str):
                return step
    return None


def capped_repr(value: object, cap: int = 4000) -> str:
    """``repr(value)`` cut to ``cap`` characters, safe against a broken ``__repr__``."""
    return _capped_repr(value, cap)
