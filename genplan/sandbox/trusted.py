"""Trusted mode: a saved, reviewed program loaded in-process as a fast solver.

The program is compiled under the same policy as in the sandbox, so it behaves the same,
but it runs in the calling process without limits or a time budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from genplan.sandbox.policy import compile_program
from genplan.sandbox.runtime import new_program_module


def load_trusted(source: str) -> Callable[[Iterable[Any], Iterable[Any], Iterable[Any]], Any]:
    """Compile and load ``source`` in-process; return ``get_plan`` taking copies of its inputs.

    Raises:
        SyntaxError: the source is not valid Python.
        PolicyViolation: the source breaks the sandbox policy.
        NameError: the program defines no ``get_plan``.
        Exception: whatever the program's top level raises.
    """
    code = compile_program(source)
    module = new_program_module()
    exec(code, module.__dict__)
    get_plan = module.__dict__.get("get_plan")
    if not callable(get_plan):
        raise NameError("the program defines no get_plan(objects, init, goal)")

    def solve(objects: Iterable[Any], init: Iterable[Any], goal: Iterable[Any]) -> Any:
        return get_plan(set(objects), set(init), set(goal))

    solve.__doc__ = "get_plan of the loaded program, called on copies of its inputs."
    return solve
