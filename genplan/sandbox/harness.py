"""Trusted harnesses: genplan's own code that calls a compiled program inside the sandbox child.

A harness is a function ``harness(namespace, *args) -> value`` named by an import path such as
``"genplan.sandbox.harness:call_get_plan"``. The child compiles the untrusted source under the
policy, runs its top level in a fresh module, and calls the harness with that module's globals
(``namespace``) and the JSON arguments of the request; whatever the harness returns goes back as
the run's JSON value. The contract (see also :mod:`genplan.sandbox.runner`):

* a harness lives in a module under ``genplan.`` and takes and returns JSON only (``dict``,
  ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``, each of exactly that type);
* it treats everything the program hands back as hostile: it checks exact types
  (``type(x) is str``), copies before it checks (so the program cannot change what was
  checked), caps sizes, and raises :class:`BadOutput` with a reason for output of the wrong
  shape; the program's own exceptions propagate (the child reports them with a traceback);
* it may run for as long as the time budget allows (a whole search calling the program's
  functions millions of times belongs in one harness call, not in one run per call).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from genplan.plans.shape import capped_repr, output_shape_error


class BadOutput(Exception):
    """Raised by a harness when the program returned something of the wrong shape.

    Attributes:
        reason: a person-readable account (for the model's feedback).
        output: ``repr`` of what was returned, capped.
    """

    def __init__(self, reason: str, output: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.output = output


def program_function(namespace: dict[str, Any], name: str, usage: str) -> Callable[..., Any]:
    """The program's function ``name``.

    Raises:
        NameError: the program defines no callable ``name`` (``usage`` shows the signature).
    """
    function = namespace.get(name)
    if not callable(function):
        raise NameError(f"name '{name}' is not defined: the program must define {usage}")
    return function


def from_json_item(item: Any) -> Any:
    """A JSON argument item as programs receive it: lists become tuples (ground atoms, typed objects)."""
    if type(item) is not list:
        return item
    for part in item:
        if type(part) is list:
            return tuple(from_json_item(inner) for inner in item)
    return tuple(item)


def set_from_json(items: list[Any]) -> set[Any]:
    """A set of the JSON argument ``items``, lists turned into tuples (:func:`from_json_item`)."""
    if all(type(item) is list for item in items):
        atoms = list(map(tuple, items))
        if not any(type(part) is list for atom in atoms for part in atom):
            return set(atoms)
    return {from_json_item(item) for item in items}


def items_from_packed(runs: list[Any]) -> list[Any]:
    """The items of a packed argument's ``runs`` (:func:`genplan.sandbox.runner.packed_program_arguments`),
    in order.

    Each run ``[arity, count, text]`` holds ``count`` items: names (arity 0) or atoms of
    ``arity`` names, their names joined by single spaces in ``text``. The atoms are built by
    ``str.split`` and ``zip``, in C. Names are interned, so every occurrence of a name is one
    string object, as in a problem genplan parsed: a program comparing atoms then compares
    names by identity (on a 434k-atom heavy problem, heavy's program ran 1.6-1.8 s on interned
    names and 2.9-3.0 s on a fresh string per occurrence).

    Raises:
        ValueError: a run of the wrong shape, or whose text holds the wrong number of names.
    """
    items: list[Any] = []
    for run in runs:
        if type(run) is not list or len(run) != 3:
            raise ValueError("a packed run must be [arity, count, text]")
        arity, count, text = run
        if (
            type(arity) is not int
            or type(count) is not int
            or type(text) is not str
            or arity < 0
            or count < 1
        ):
            raise ValueError("a packed run must be [arity >= 0, count >= 1, text]")
        names = list(map(sys.intern, text.split(" ")))
        if len(names) != max(arity, 1) * count:
            raise ValueError(f"a packed run of {count} items of arity {arity} holds {len(names)} names")
        items.extend(names if arity == 0 else zip(*[iter(names)] * arity))
    return items


def program_set(part: Any) -> set[Any]:
    """A ``get_plan`` argument as the program's set: a JSON list (:func:`set_from_json`) or a
    packed part ``{"packed": runs}`` (:func:`items_from_packed`; the items enter the set in order).

    Raises:
        ValueError: a part of neither shape.
    """
    if type(part) is list:
        return set_from_json(part)
    if type(part) is dict and type(part.get("packed")) is list:
        return set(items_from_packed(part["packed"]))
    raise ValueError("a get_plan argument must be a list or a packed part")


def copy_plan(value: object) -> list[str]:
    """An exact ``list`` of exact ``str`` copied from what ``get_plan`` returned.

    The value is iterated once; each item that is a ``str`` (or a subclass) is copied to an
    exact ``str`` without calling any of its methods.

    Raises:
        BadOutput: not a list or tuple of strings (Sec. 4.2's first plan-syntax rule).
    """
    if not isinstance(value, (list, tuple)):
        raise BadOutput(output_shape_error(value) or "the plan must be a list of strings", capped_repr(value))
    items = list(value)
    plan = []
    for item in items:
        if not isinstance(item, str):
            raise BadOutput(
                output_shape_error(items) or "the plan must be a list of strings", capped_repr(items)
            )
        plan.append(item if type(item) is str else str.__str__(item))
    return plan


def call_get_plan(namespace: dict[str, Any], objects: Any, init: Any, goal: Any) -> dict[str, Any]:
    """Call ``get_plan(objects, init, goal)`` on sets built from the JSON arguments, each a list
    or a packed part (:func:`program_set`).

    Returns:
        ``{"plan": [str, ...], "seconds": float}``: the plan and the seconds ``get_plan`` ran.

    Raises:
        NameError: no ``get_plan``.
        BadOutput: the result is not a list of strings.
        BaseException: whatever ``get_plan`` raises.
    """
    get_plan = program_function(namespace, "get_plan", "get_plan(objects, init, goal)")
    arguments = [program_set(part) for part in (objects, init, goal)]
    started = time.perf_counter()
    value = get_plan(*arguments)
    seconds = time.perf_counter() - started
    return {"plan": copy_plan(value), "seconds": seconds}
