"""Trusted mode: a program run in the calling process, as Python with the caller's rights.

The program is compiled under the same policy as in the sandbox, so it behaves the same, but
nothing else of the sandbox applies: it runs in the calling process, with that process's
rights (its files, environment and API keys, the network), without limits or a time budget.
The policy is a lint here, not a boundary: a way past it (a Python or library bug it does not
know) is code execution as the caller. Load only programs you have read.

What the program raises is an error of the caller, never the caller's exit: a
``BaseException`` that is not an ``Exception`` (``SystemExit``, ``KeyboardInterrupt``,
``GeneratorExit``, a subclass the program defines) becomes :class:`ProgramStopped`. A
recursion limit the program sets (``sys.setrecursionlimit``) holds only while the program
runs: the caller's own limit is back when its top level or ``get_plan`` returns or raises.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from genplan.errors import GenplanError
from genplan.plans.untrusted_text import shown_text
from genplan.sandbox.compiled import CompiledPrograms
from genplan.sandbox.runtime import ProgramScope, new_program

_PROGRAMS = CompiledPrograms()
"""Programs loaded in this process, compiled once each (a solver made twice compiles once)."""


class ProgramStopped(GenplanError):
    """A trusted program raised a ``BaseException`` that is not an ``Exception``: ``SystemExit``,
    ``KeyboardInterrupt``, ``GeneratorExit`` or one of its own.

    Attributes:
        raised: what the program raised (also the ``__cause__``).
        detail: ``"SystemExit at its top level: 0"``, its message escaped and capped.
    """

    def __init__(self, raised: BaseException, where: str):
        self.raised = raised
        try:
            text = str(raised)  # the program's __str__, which may itself raise
        except BaseException:
            text = "(its message could not be read)"
        self.detail = f"{type(raised).__name__} {where}: {shown_text(text)}"
        super().__init__(f"the program raised {self.detail}")


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


@contextmanager
def _as_an_error(where: str) -> Iterator[None]:
    """What the program raises inside, as an error: ``Exception`` as it is, any other
    ``BaseException`` as :class:`ProgramStopped`."""
    try:
        yield
    except Exception:
        raise
    except BaseException as raised:
        raise ProgramStopped(raised, where) from raised


def load_trusted(source: str) -> Callable[[Iterable[Any], Iterable[Any], Iterable[Any]], Any]:
    """Compile ``source`` and run its top level in-process, as Python with the caller's rights
    (see the module docstring); return ``get_plan`` taking copies of its inputs.

    Raises:
        SyntaxError: the source is not valid Python.
        PolicyViolation: the source breaks the sandbox policy.
        NameError: the program defines no ``get_plan``.
        ProgramStopped: the top level (here) or ``get_plan`` (when called) raised a
            ``BaseException`` that is not an ``Exception`` (``SystemExit``, ``KeyboardInterrupt``,
            ``GeneratorExit``, ...).
        Exception: whatever the program's top level (or ``get_plan``) raises.
    """
    code = _PROGRAMS.compile(source)  # its top level runs below, anew for every load
    module, scope = new_program()
    with _as_an_error("at its top level"), _program_recursion_limit(scope):
        exec(code, module.__dict__)
    get_plan = module.__dict__.get("get_plan")
    if not callable(get_plan):
        raise NameError("the program defines no get_plan(objects, init, goal)")

    def solve(objects: Iterable[Any], init: Iterable[Any], goal: Iterable[Any]) -> Any:
        with _as_an_error("in get_plan"), _program_recursion_limit(scope):
            return get_plan(set(objects), set(init), set(goal))

    solve.__doc__ = "get_plan of the loaded program, called on copies of its inputs."
    return solve
