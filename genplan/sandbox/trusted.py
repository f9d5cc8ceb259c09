"""Trusted mode: a saved, reviewed program loaded in-process as a fast solver.

The program is compiled under the same policy as in the sandbox, so it behaves the same,
but it runs in the calling process without limits or a time budget. A recursion limit the
program sets (``sys.setrecursionlimit``) holds only while the program runs: the caller's own
limit is back when its top level or ``get_plan`` returns or raises.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from genplan.sandbox.policy import compile_program
from genplan.sandbox.runtime import ProgramScope, new_program


@contextmanager
def _program_recursion_limit(scope: ProgramScope) -> Iterator[None]:
    """The program's recursion limit (if it set one) inside, the caller's after."""
    callers = sys.getrecursionlimit()
    if scope.recursion_limit is not None:
        sys.setrecursionlimit(scope.recursion_limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(callers)


def load_trusted(source: str) -> Callable[[Iterable[Any], Iterable[Any], Iterable[Any]], Any]:
    """Compile and load ``source`` in-process; return ``get_plan`` taking copies of its inputs.

    Raises:
        SyntaxError: the source is not valid Python.
        PolicyViolation: the source breaks the sandbox policy.
        NameError: the program defines no ``get_plan``.
        Exception: whatever the program's top level raises.
    """
    code = compile_program(source)
    module, scope = new_program()
    with _program_recursion_limit(scope):
        exec(code, module.__dict__)
    get_plan = module.__dict__.get("get_plan")
    if not callable(get_plan):
        raise NameError("the program defines no get_plan(objects, init, goal)")

    def solve(objects: Iterable[Any], init: Iterable[Any], goal: Iterable[Any]) -> Any:
        with _program_recursion_limit(scope):
            return get_plan(set(objects), set(init), set(goal))

    solve.__doc__ = "get_plan of the loaded program, called on copies of its inputs."
    return solve
