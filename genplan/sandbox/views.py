"""The modules a program imports: *views*, never the real modules.

A program's ``import`` (:func:`make_import`, the ``__import__`` of its builtins) hands out a
view of each allowed module (:data:`genplan.sandbox.policy.ALLOWED_MODULES`, and
``__future__``): a new module object holding only the module's public, harmless names, guarded
where needed. A view holds none of the real module's ``__builtins__``, ``__file__``,
``__spec__`` or ``__loader__`` (the real ``__future__``'s dict handed out the real builtins,
issue 34), no module but other views, and none of:

* the objects of :data:`HIDDEN_OBJECTS`, which reach past the policy (``typing.get_type_hints``
  and ``ForwardRef`` evaluate strings; ``functools.singledispatch`` does so through
  annotations; ``enum.global_enum`` writes into whatever module a class names;
  ``dataclasses.make_dataclass`` builds a class from any namespace);
* metaclasses (which build classes from arbitrary dictionaries);
* module-level mutable state (``copy.dispatch_table``, the reducers ``copy.copy`` calls: a
  program that wrote one assigned any attribute of any object, ``__class__`` included).

Objects a program's scope guards (``operator.attrgetter``, ``dataclasses.dataclass``, ``enum``'s
bases, ...) are replaced by the guarded versions given as ``replacements``
(:meth:`genplan.sandbox.runtime.ProgramScope.replacements`). ``time`` and ``sys`` are *partial*
views (:data:`genplan.sandbox.policy.PARTIAL_MODULES`): the names listed there only, and a
clear error for any other; other modules never hand them out (``typing.sys`` is not there).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import importlib
import string
import types
import typing
from collections.abc import Callable

from genplan.sandbox.enums import HIDDEN_ENUMS
from genplan.sandbox.policy import ALLOWED_MODULES, PARTIAL_MODULES

_HIDDEN_NAMES: tuple[tuple[object, str], ...] = (
    (typing, "get_type_hints"),  # evaluates annotation strings
    (typing, "ForwardRef"),  # ._evaluate() evaluates a string
    (typing, "get_overloads"),
    (typing, "no_type_check_decorator"),  # applies the real no_type_check to what it wraps returns
    (string, "Formatter"),  # .get_field() follows attribute paths and returns the objects
    (functools, "singledispatch"),  # .register() evaluates annotation strings
    (functools, "singledispatchmethod"),
    (enum, "global_enum"),  # writes into the module a class names
    (enum, "global_str"),
    (enum, "global_enum_repr"),
    (enum, "global_flag_repr"),
    (dataclasses, "make_dataclass"),  # builds a class from any namespace
    (types, "FunctionType"),
)
"""The hidden objects by module and name; a name this Python's module lacks (``typing.get_overloads``
and ``enum.global_enum`` are new in 3.11) hides nothing."""

HIDDEN_OBJECTS: tuple[object, ...] = (
    *(getattr(module, name) for module, name in _HIDDEN_NAMES if hasattr(module, name)),
    *HIDDEN_ENUMS,  # enum.ReprEnum: its functional API builds a class from any names
)
"""Public objects of allowed modules that programs never see, whatever module re-exports them.
(Module-level dicts, lists and sets, such as ``copy.dispatch_table``, the reducers ``copy.copy``
calls, are never handed out either: see :func:`module_view`.)"""

_HIDDEN_IDS = frozenset(id(obj) for obj in HIDDEN_OBJECTS)

_LIBRARY_STATE = (dict, list, set, bytearray)
"""A module's mutable state (``copy.dispatch_table``, ``typing.EXCLUDED_ATTRIBUTES``): never in
a view, since writing it would change the library for every caller."""


def is_metaclass(value: object) -> bool:
    """Whether ``value`` is a metaclass (a class whose instances are classes): programs never get one."""
    return isinstance(value, type) and issubclass(value, type)


def module_view(
    name: str, cache: dict[str, types.ModuleType], replacements: dict[int, object]
) -> types.ModuleType:
    """A copy of module ``name`` with only its public, harmless names (guarded where needed).

    A view is a new module object: it holds none of the real module's ``__builtins__``,
    ``__file__``, ``__spec__`` or ``__loader__``, no module but other views, no hidden object
    (:data:`HIDDEN_OBJECTS`), metaclass or mutable module state."""
    if name in cache:
        return cache[name]
    module = importlib.import_module(name)
    view = types.ModuleType(name, getattr(module, "__doc__", None))
    cache[name] = view
    partial = PARTIAL_MODULES.get(name)
    if partial is not None:
        for attribute in sorted(partial):
            value = getattr(module, attribute)
            setattr(view, attribute, replacements.get(id(value), value))
        view.__dict__["__getattr__"] = _missing_name(name, partial)  # PEP 562: a clear error
        return view
    for attribute in dir(module):
        if attribute.startswith("_"):
            continue
        value = getattr(module, attribute)
        if isinstance(value, types.ModuleType):
            if value.__name__ in ALLOWED_MODULES and value.__name__ not in PARTIAL_MODULES:
                setattr(view, attribute, module_view(value.__name__, cache, replacements))
            continue
        if id(value) in _HIDDEN_IDS or is_metaclass(value) or isinstance(value, _LIBRARY_STATE):
            continue
        setattr(view, attribute, replacements.get(id(value), value))
    for submodule in ALLOWED_MODULES:
        if submodule.startswith(name + "."):
            setattr(view, submodule[len(name) + 1 :], module_view(submodule, cache, replacements))
    return view


def _missing_name(module: str, names: frozenset[str]) -> Callable[[str], object]:
    """The ``__getattr__`` of a partial module's view: a clear error for every other name."""
    available = ", ".join(sorted(names))

    def missing(attribute: str) -> object:
        raise AttributeError(
            f'"{module}.{attribute}" is not available in this sandbox; {module} offers only {available}'
        )

    return missing


def make_import(
    cache: dict[str, types.ModuleType], replacements: dict[int, object]
) -> Callable[..., types.ModuleType]:
    def guarded_import(
        name: str,
        globals: object = None,
        locals: object = None,
        fromlist: tuple[str, ...] = (),
        level: int = 0,
    ) -> types.ModuleType:
        if level != 0:
            raise ImportError("relative imports are not allowed in this sandbox")
        if name == "__future__":  # a view too: the real module's dict holds the real builtins
            return module_view(name, cache, replacements)
        if type(name) is not str or name not in ALLOWED_MODULES:
            raise ImportError(f'importing "{name}" is not allowed in this sandbox')
        if fromlist:
            return module_view(name, cache, replacements)
        return module_view(name.split(".")[0], cache, replacements)

    return guarded_import


def preload_allowed_modules() -> None:
    """Import every allowed module (and what they import lazily) ahead of time.

    The sandbox worker calls this before it forks children that drop privileges, so no child
    has to read a module file.
    """
    for name in sorted(ALLOWED_MODULES | {"__future__"}):
        importlib.import_module(name)
    for lazy in ("decimal", "numbers", "hashlib", "inspect", "threading"):
        importlib.import_module(lazy)
