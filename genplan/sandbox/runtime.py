"""The run-time side of the sandbox policy: what a compiled program finds around it.

:func:`new_program_module` makes the module a program runs in. Its builtins are a safe subset
(no ``open``, ``eval``, ``exec``, ...), its ``__import__`` hands out *views* of the allowed
modules (copies holding only their public, harmless names), and a :class:`ProgramScope` bound to
the module supplies the few run-time guards the static policy (:mod:`genplan.sandbox.policy`)
compiles calls to:

* ``obj._name`` (a private attribute) and ``obj.__getattr__`` read through
  :meth:`ProgramScope.private_get` and write through :meth:`ProgramScope.private_receiver`:
  allowed only on the program's own classes, their instances and its own functions, and only
  where the attribute is not inherited from a library class (``random._os``,
  ``ForwardRef._evaluate``, a ``typing`` alias's ``__getattr__`` and module privates are refused);
* ``obj.__class__`` is :class:`SafeType` of ``obj`` (its class, never a metaclass);
* ``x.format`` and ``x.format_map`` go through :meth:`ProgramScope.format_attribute`: on a
  string, the replacement fields may index (``{0[key]}``) but never follow an attribute that
  starts with ``_`` (``'{0.__globals__}'.format(f)`` is refused);
* ``getattr``/``hasattr``/``setattr``/``delattr`` apply the same rules to names given as strings;
* ``vars(obj)`` works on the program's own classes and their instances only.

``time`` and ``sys`` are *partial* views (:data:`genplan.sandbox.policy.PARTIAL_MODULES`): the
clocks, and ``maxsize`` with the recursion limit (:meth:`ProgramScope.setrecursionlimit`).

Every module a program imports is a view (:mod:`genplan.sandbox.views`), ``__future__``
included, with library objects that reach past the policy hidden or replaced by this module's
guarded versions: ``operator.attrgetter`` and ``methodcaller`` (pure functions over the safe
``getattr``, so no real instance whose ``type`` could build an unguarded one is handed out),
``dataclasses.dataclass`` (:mod:`genplan.sandbox.dataclass_guard`: only classes the program
created, every field name checked whatever its route), ``collections.namedtuple`` (no
``module=``) and ``typing.NamedTuple``, ``enum``'s bases (:mod:`genplan.sandbox.enums`: their
functional API refuses dunder names), the decorators that write an attribute on what they are
given (``typing.final``, ``no_type_check``, ``runtime_checkable``: the program's own objects
only), and ``functools.update_wrapper``/``wraps`` (only between the program's own functions and
classes, with the default attribute lists; an instance may be the wrapper, never the wrapped).
``type`` takes one argument only.

A class belongs to the program when the program created it (:meth:`ProgramScope.owns_class`):
its class statements (a guarded ``__build_class__``, which also refuses a slot named like a
dunder) and the guarded factories above record each class they make. Neither a ``__module__``
string (library code that builds a class from data, ``TypedDict('T', {...})`` or ``Enum('E',
...)``, gives it the caller's) nor ``type(obj)`` at the time of asking decides it: no route
assigns ``__class__`` (issue 34), and ``vars()`` refuses every module whatever its class.
"""

from __future__ import annotations

import _string  # type: ignore[import-not-found]
import builtins
import collections
import dataclasses
import functools
import itertools
import operator
import sys
import types
import typing
import weakref
from collections.abc import Callable
from typing import Any

from genplan.sandbox.dataclass_guard import checked_dataclass
from genplan.sandbox.enums import GUARDED_ENUMS
from genplan.sandbox.policy import (
    FORBIDDEN_ATTRIBUTES,
    attribute_is_allowed,
    is_dunder,
    is_private,
    needs_owner,
)
from genplan.sandbox.views import is_metaclass, make_import

PROGRAM_MODULE_PREFIX = "genplan_program_"

OWN_ONLY_DECORATORS: tuple[Callable[..., Any], ...] = tuple(
    decorator
    for decorator in (
        typing.final,  # sets __final__
        typing.no_type_check,  # sets __no_type_check__
        typing.runtime_checkable,  # sets _is_runtime_protocol
        getattr(typing, "override", None),  # sets __override__ (Python 3.12)
    )
    if decorator is not None
)
"""Library decorators that write an attribute on what they are given: programs get versions
that apply to their own classes and functions only (``typing.final(statistics.mean)`` wrote
``__final__`` on the library's function)."""

SAFE_BUILTIN_NAMES = [
    "abs",
    "all",
    "any",
    "ascii",
    "bin",
    "bool",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "complex",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "format",
    "frozenset",
    "hash",
    "hex",
    "id",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "object",
    "oct",
    "ord",
    "pow",
    "print",
    "property",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "zip",
    "NotImplemented",
    "Ellipsis",
    "True",
    "False",
    "None",
    "BaseException",
    "Exception",
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "IndexError",
    "KeyError",
    "LookupError",
    "NameError",
    "NotImplementedError",
    "OverflowError",
    "RecursionError",
    "RuntimeError",
    "StopIteration",
    "TypeError",
    "ValueError",
    "ZeroDivisionError",
    "MemoryError",
    "KeyboardInterrupt",
    "UnboundLocalError",
    "ImportError",
    "ModuleNotFoundError",
    "EOFError",
    "OSError",
    "FloatingPointError",
    "UnicodeError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "GeneratorExit",
    "SystemExit",
    "TimeoutError",
    "Warning",
    "UserWarning",
    "RuntimeWarning",
    "DeprecationWarning",
]
"""Builtins a program gets as they are (``type``, ``getattr`` and friends are guarded)."""


class _TypeOfType(type):
    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, type)

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, type)


class SafeType(metaclass=_TypeOfType):
    """``type`` as programs see it: ``type(x)`` only.

    ``type(name, bases, namespace)`` would build a class from any dictionary (with a forged
    ``__module__`` or field names), and the type of a class is a metaclass that does the same,
    so both are refused; ``type(SomeClass)`` gives this object back, so ``type(C) is type`` and
    ``isinstance(C, type)`` still hold.
    """

    def __new__(cls, *args: object, **kwargs: object) -> Any:
        if len(args) != 1 or kwargs:
            raise TypeError(
                "type() takes exactly one argument in this sandbox (type(name, bases, dict) is not allowed)"
            )
        result = type(args[0])
        if result is type or result is _TypeOfType:
            return SafeType
        if issubclass(result, type):
            raise TypeError("the metaclass of a class is not available in this sandbox")
        return result


SafeType.__name__ = SafeType.__qualname__ = "type"


def _check_format_string(template: str) -> None:
    for _literal, field, spec, _conversion in _string.formatter_parser(template):
        if field is not None:
            _first, rest = _string.formatter_field_name_split(field)
            for is_attribute, key in rest:
                if is_attribute and (str(key).startswith("_") or key in FORBIDDEN_ATTRIBUTES):
                    raise AttributeError(
                        f'the format field "{field}" follows the attribute "{key}", which is not allowed in '
                        "this sandbox (use an f-string, or pass the value itself)"
                    )
        if spec:
            _check_format_string(spec)


def _guarded_format(template: str, /, *args: object, **kwargs: object) -> str:
    if not isinstance(template, str):
        raise TypeError("format() needs a string")
    _check_format_string(template)
    return str.format(template, *args, **kwargs)


def _guarded_format_map(template: str, mapping: object, /) -> str:
    if not isinstance(template, str):
        raise TypeError("format_map() needs a string")
    _check_format_string(template)
    return str.format_map(template, mapping)  # type: ignore[arg-type]


_GUARDED_FORMAT = {"format": _guarded_format, "format_map": _guarded_format_map}
_STR_METHODS = {"format": str.format, "format_map": str.format_map}
_USER_STRING_METHODS = {
    collections.UserString.format: "format",
    collections.UserString.format_map: "format_map",
}
"""Library functions that call ``str.format`` on a template they hold (``UserString.data``)."""


def guarded_format_function(value: object) -> object:
    """``value`` itself, or its guarded version when calling it would run ``str.format`` or
    ``str.format_map`` on a template (the real method, however reached: a ``str`` subclass
    that names it differently, a bound method, ``UserString.format``). The test is on the
    function that would run, never on the receiver's type."""
    for name, method in _STR_METHODS.items():
        if value is method:
            return _GUARDED_FORMAT[name]
    kind = type(value)
    if kind is types.BuiltinMethodType:
        receiver = getattr(value, "__self__", None)
        method_name = getattr(value, "__name__", None)
        if isinstance(receiver, str) and method_name in _STR_METHODS:  # str's own C method
            return functools.partial(_GUARDED_FORMAT[method_name], str.__str__(receiver))
    elif kind is types.MethodType:
        function = value.__func__  # type: ignore[attr-defined]
        bound = _USER_STRING_METHODS.get(function) if isinstance(function, types.FunctionType) else None
        if bound is not None:
            holder = value.__self__  # type: ignore[attr-defined]
            return lambda *args, **kwargs: _user_string_format(bound, holder, *args, **kwargs)
    elif kind is types.FunctionType:
        name = _USER_STRING_METHODS.get(value)  # type: ignore[call-overload]
        if name is not None:
            return lambda holder, *args, **kwargs: _user_string_format(name, holder, *args, **kwargs)
    return value


def _user_string_format(name: str, holder: object, *args: object, **kwargs: object) -> str:
    data = getattr(holder, "data", None)
    if not isinstance(data, str):
        raise TypeError(f"{name}() needs a UserString holding a string")
    return _GUARDED_FORMAT[name](str.__str__(data), *args, **kwargs)  # type: ignore[operator]


class ProgramScope:
    """The run-time guards of one program module (see the module docstring).

    Args:
        name: the program module's name (classes the program declares carry it as ``__module__``).
        namespace: the program module's globals (functions the program defines carry it).
    """

    def __init__(self, name: str, namespace: dict[str, Any]):
        self.name = name
        self.namespace = namespace
        # The classes the program created (see owns_class), held weakly: a class a program
        # makes in a loop is not kept alive by its scope.
        self._classes: weakref.WeakSet[type] = weakref.WeakSet()
        # Private names allowed on instances, per (program-owned) type: the decision depends on
        # the type alone, so the guards of a hot loop cost one dict lookup after the first time.
        self._allowed: dict[type, set[str]] = {}
        self.recursion_limit: int | None = None
        """The recursion limit the program set with ``sys.setrecursionlimit``, or ``None``."""
        self.private_get = self._make_private_get()
        self.private_receiver = self._make_private_receiver()

    # -- what belongs to the program -----------------------------------------------------
    def owns_class(self, klass: type) -> bool:
        """Whether the program created ``klass``: with a class statement (:meth:`build_class`)
        or one of the guarded factories that check the names they are given (``namedtuple``,
        ``typing.NamedTuple``, ``@dataclass``). Never by its ``__module__``: library code that
        builds a class from data (``TypedDict('T', {...})``, ``Enum('E', ...)``) gives it the
        caller's module, and data the static policy never saw (issue 34)."""
        return klass in self._classes

    def adopt(self, klass: type) -> type:
        """Record ``klass`` as created by the program (only a class statement or a guarded
        factory calls this); returns it."""
        self._classes.add(klass)
        return klass

    def owns(self, obj: object) -> bool:
        """Whether ``obj`` is the program's class, an instance of one, or its function."""
        if isinstance(obj, type):
            return self.owns_class(obj)
        if type(obj) is types.FunctionType:
            return obj.__globals__ is self.namespace
        return self.owns_class(type(obj))

    def build_class(self, function: Callable[..., Any], name: str, /, *bases: Any, **keywords: Any) -> Any:
        """The ``__build_class__`` of a class statement: the class is the program's own
        (:meth:`owns_class`), and none of its slots may be named like a dunder.

        Raises:
            TypeError: a slot named like a dunder (``__slots__ = ('__class__',)`` would make
                ``obj.__class__`` a slot that library code writes and ``isinstance`` reads).
        """
        klass = builtins.__build_class__(function, name, *bases, **keywords)
        if not issubclass(type(klass), type):  # a base's type made something else
            return klass
        for attribute, value in type.__dict__["__dict__"].__get__(klass).items():
            if type(value) is types.MemberDescriptorType and is_dunder(attribute):
                raise TypeError(f'a slot named "{attribute}" is not allowed in this sandbox')
        return self.adopt(klass)

    def may_touch(self, obj: object, name: str) -> bool:
        """Whether the private attribute ``name`` of ``obj`` is the program's own."""
        if type(obj) is types.FunctionType:
            return obj.__globals__ is self.namespace
        mro = type.__dict__["__mro__"]
        classes = list(mro.__get__(obj if isinstance(obj, type) else type(obj)))
        if isinstance(obj, type):  # a class's attributes resolve on its metaclass too
            classes += mro.__get__(type(obj))
        for klass in classes:
            if name in type.__dict__["__dict__"].__get__(klass):
                return self.owns_class(klass)
        return self.owns(obj)

    def _refuse(self, obj: object, name: str) -> AttributeError:
        kind = type(obj).__name__ if not isinstance(obj, type) else "class " + obj.__name__
        if is_private(name):
            return AttributeError(
                f'access to the private attribute "{name}" of a {kind} is not allowed in this sandbox '
                "(only the program's own classes, objects and functions have private attributes it may use)"
            )
        return AttributeError(
            f'access to "{name}" of a {kind} is not allowed in this sandbox (only where one of the '
            "program's own classes defines it)"
        )

    # -- guards the compiled program calls -------------------------------------------------
    def _check_private(self, obj: object, name: str) -> None:
        if not self.may_touch(obj, name):
            raise self._refuse(obj, name)
        kind = type(obj)
        if kind is not types.FunctionType and not isinstance(obj, type) and self.owns_class(kind):
            self._allowed.setdefault(kind, set()).add(name)

    def _make_private_get(self) -> Callable[[object, str], object]:
        allowed = self._allowed.get
        check = self._check_private

        def private_get(obj: object, name: str) -> object:
            """``obj._name`` for reading (only the program's own private attributes)."""
            names = allowed(type(obj))
            if names is None or name not in names:
                check(obj, name)
            return getattr(obj, name)

        return private_get

    def _make_private_receiver(self) -> Callable[[object, str], object]:
        allowed = self._allowed.get
        check = self._check_private

        def private_receiver(obj: object, name: str) -> object:
            """``obj`` itself when ``obj._name`` may be assigned or deleted."""
            names = allowed(type(obj))
            if names is None or name not in names:
                check(obj, name)
            return obj

        return private_receiver

    def format_attribute(self, obj: object, name: str) -> object:
        """``obj.format`` / ``obj.format_map``, guarded when what it resolves to would run the
        string method (:func:`guarded_format_function`)."""
        return guarded_format_function(getattr(obj, name))

    def _checked(self, obj: object, name: object) -> str:
        if type(name) is not str:
            raise TypeError("attribute name must be a string")
        if not attribute_is_allowed(name):
            raise AttributeError(f'access to the attribute "{name}" is not allowed in this sandbox')
        if needs_owner(name) and not self.may_touch(obj, name):
            raise self._refuse(obj, name)
        return name

    def getattr(self, obj: object, name: str, *default: object) -> object:
        """The builtin ``getattr`` under the policy's attribute rules."""
        name = self._checked(obj, name)
        return guarded_format_function(getattr(obj, name, *default))

    def hasattr(self, obj: object, name: str) -> bool:
        """The builtin ``hasattr`` under the policy's attribute rules."""
        return hasattr(obj, self._checked(obj, name))

    def setattr(self, obj: object, name: str, value: object) -> None:
        """The builtin ``setattr``: never on modules, never ``__name__``."""
        if isinstance(obj, types.ModuleType):
            raise AttributeError("modules are read-only in this sandbox")
        if name == "__name__":
            raise AttributeError('assigning "__name__" is not allowed in this sandbox')
        setattr(obj, self._checked(obj, name), value)

    def delattr(self, obj: object, name: str) -> None:
        """The builtin ``delattr``: never on modules."""
        if isinstance(obj, types.ModuleType):
            raise AttributeError("modules are read-only in this sandbox")
        delattr(obj, self._checked(obj, name))

    def vars(self, *args: object) -> Any:
        """The builtin ``vars``, for the program's own objects only: an instance of one of its
        classes (its attribute dict) or one of its classes (a read-only view).

        Raises:
            TypeError: no argument (``vars()`` is the caller's locals), a module (whatever its
                class), or an object that is not the program's own (a library object,
                ``__builtins__``).
        """
        if len(args) != 1:
            raise TypeError("vars() takes exactly one argument in this sandbox (vars(obj))")
        obj = args[0]
        if isinstance(obj, types.ModuleType):  # whatever its class: never one the program made
            raise TypeError("vars() of a module is not allowed in this sandbox")
        if type(obj) is types.FunctionType or not self.owns(obj):
            kind = "class " + obj.__name__ if isinstance(obj, type) else f"a {type(obj).__name__}"
            raise TypeError(
                f"vars() of {kind} is not allowed in this sandbox (only of the program's own classes "
                "and their instances)"
            )
        return vars(obj)

    def setrecursionlimit(self, limit: int, /) -> None:
        """``sys.setrecursionlimit``: CPython's own (its checks and errors), remembered in
        :attr:`recursion_limit` so that trusted mode sets it only while the program runs."""
        sys.setrecursionlimit(limit)
        self.recursion_limit = sys.getrecursionlimit()

    # -- guarded versions of library functions ----------------------------------------------
    def attrgetter(self, *names: str) -> Callable[[object], object]:
        """``operator.attrgetter`` over the guarded ``getattr`` (dotted names allowed)."""
        paths = []
        for name in names:
            if type(name) is not str:
                raise TypeError("attribute name must be a string")
            paths.append(name.split("."))

        def get_one(obj: object, path: list[str]) -> object:
            for part in path:
                obj = self.getattr(obj, part)
            return obj

        if len(paths) == 1:
            return lambda obj: get_one(obj, paths[0])
        return lambda obj: tuple(get_one(obj, path) for path in paths)

    def methodcaller(self, name: str, /, *args: object, **kwargs: object) -> Callable[[object], object]:
        """``operator.methodcaller`` over the guarded ``getattr``."""
        if type(name) is not str:
            raise TypeError("method name must be a string")

        def call(obj: object) -> object:
            method = self.getattr(obj, name)
            if not callable(method):
                raise TypeError(f"'{type(method).__name__}' object is not callable")
            return method(*args, **kwargs)

        return call

    def dataclass(self, cls: type | None = None, /, **options: Any) -> Any:
        """``dataclasses.dataclass`` for classes the program created, every field name checked
        wherever it comes from (:mod:`genplan.sandbox.dataclass_guard`): the generated
        ``__init__`` assigns each field on whatever object it is called with, and a field named
        ``__class__`` made ``D.__init__(module, C)`` a class swap (issue 34). The class it
        returns (a new one with ``slots=True``) is the program's own."""

        def wrap(klass: type) -> type:
            return self.adopt(checked_dataclass(klass, options, self.owns_class))

        return wrap if cls is None else wrap(cls)

    def namedtuple(self, typename: str, field_names: Any, **options: Any) -> type:
        """``collections.namedtuple``, always in the program's module."""
        if "module" in options:
            raise TypeError("namedtuple(module=...) is not allowed in this sandbox")
        return self.adopt(collections.namedtuple(typename, field_names, module=self.name, **options))

    def typed_named_tuple(self) -> Callable[..., type]:
        """``typing.NamedTuple``: called, a named tuple in the program's module and its own
        (its fields pass ``collections.namedtuple``'s checks: identifiers, no underscore);
        as a base (``class P(NamedTuple)``) the class statement makes it."""

        real: Any = typing.NamedTuple

        def NamedTuple(typename: str, fields: Any = None, /, **kwargs: Any) -> type:
            klass: type = real(typename, *([] if fields is None else [fields]), **kwargs)
            type.__setattr__(klass, "__module__", self.name)
            return self.adopt(klass)

        # as a base it stands for the real one (whose __mro_entries__ looks for itself in the bases)
        NamedTuple.__mro_entries__ = lambda bases: real.__mro_entries__((real,))  # type: ignore[attr-defined]
        NamedTuple.__doc__ = typing.NamedTuple.__doc__
        return NamedTuple

    def own_only(self, decorator: Callable[..., Any]) -> Callable[..., Any]:
        """``decorator`` (one of :data:`OWN_ONLY_DECORATORS`) for the program's own classes and
        functions only (also as a ``staticmethod``, ``classmethod``, ``property`` or a
        ``functools`` wrapper such as ``lru_cache``)."""

        @functools.wraps(decorator)
        def guarded(target: Any, /, *args: Any, **kwargs: Any) -> Any:
            if not self._owns_definition(target):
                raise TypeError(
                    f"{decorator.__name__}() applies only to the program's own classes and functions in "
                    "this sandbox"
                )
            return decorator(target, *args, **kwargs)

        return guarded

    def _owns_definition(self, obj: object) -> bool:
        kind = type(obj)
        if kind is staticmethod or kind is classmethod:
            obj = obj.__func__  # type: ignore[attr-defined]
        elif kind is property:
            obj = obj.fget  # type: ignore[attr-defined]
        return self._owns_callable(obj, instance=False)  # a functools wrapper of its own too

    def update_wrapper(
        self,
        wrapper: Any,
        wrapped: Any,
        assigned: tuple[str, ...] = functools.WRAPPER_ASSIGNMENTS,
        updated: tuple[str, ...] = functools.WRAPPER_UPDATES,
    ) -> Any:
        """``functools.update_wrapper`` between the program's own objects, default attributes only."""
        if tuple(assigned) != functools.WRAPPER_ASSIGNMENTS or tuple(updated) != functools.WRAPPER_UPDATES:
            raise TypeError("update_wrapper()/wraps() take no assigned= or updated= in this sandbox")
        if not (self._owns_callable(wrapper) and self._owns_callable(wrapped, instance=False)):
            raise TypeError(
                "update_wrapper()/wraps() apply only to the program's own functions in this sandbox"
            )
        return functools.update_wrapper(wrapper, wrapped)

    def wraps(
        self,
        wrapped: Any,
        assigned: tuple[str, ...] = functools.WRAPPER_ASSIGNMENTS,
        updated: tuple[str, ...] = functools.WRAPPER_UPDATES,
    ) -> Callable[[Any], Any]:
        """``functools.wraps`` built on the guarded :meth:`update_wrapper`."""
        return lambda wrapper: self.update_wrapper(wrapper, wrapped, assigned, updated)

    def _owns_callable(self, obj: object, *, instance: bool = True) -> bool:
        """Whether ``obj`` is the program's function or class, a ``functools`` wrapper of one,
        or (when ``instance``) an instance of one of its classes. A *wrapped* object is never an
        instance: an instance's ``__module__`` or ``__annotations__`` may come from its own dict
        (``vars(obj)``) or its ``__getattr__``, and would be copied onto the wrapper."""
        for _ in range(8):  # wrappers of wrappers, a few deep
            if type(obj).__module__ != "functools":
                break
            obj = getattr(obj, "__wrapped__", None)
        if isinstance(obj, type) or type(obj) is types.FunctionType:
            return self.owns(obj)
        return instance and self.owns(obj)

    def replacements(self) -> dict[int, object]:
        """Library objects replaced by this scope's guarded versions, by ``id``."""
        return {
            id(typing.get_origin): _without_real_type(typing.get_origin),
            id(typing.get_args): _without_real_type(typing.get_args),
            id(operator.attrgetter): self.attrgetter,
            id(operator.methodcaller): self.methodcaller,
            id(dataclasses.dataclass): self.dataclass,
            id(collections.namedtuple): self.namedtuple,
            id(functools.update_wrapper): self.update_wrapper,
            id(functools.wraps): self.wraps,
            id(sys.setrecursionlimit): self.setrecursionlimit,
            id(typing.NamedTuple): self.typed_named_tuple(),
            **{id(decorator): self.own_only(decorator) for decorator in OWN_ONLY_DECORATORS},
            **GUARDED_ENUMS,
        }


def _safe_value(value: object) -> object:
    if value is type:
        return SafeType
    if is_metaclass(value):
        raise TypeError("a metaclass is not available in this sandbox")
    if type(value) is tuple:
        return tuple(_safe_value(item) for item in value)
    return value


def _without_real_type(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` whose result never holds the real ``type`` (``typing.get_origin(Type[int])``
    is ``type``, which builds classes from any dictionary): it becomes :class:`SafeType`."""

    @functools.wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        return _safe_value(function(*args, **kwargs))

    return guarded


_program_counter = itertools.count()


def new_program_module() -> types.ModuleType:
    """A fresh module to run a compiled program in: safe builtins, guards and the guarded import.

    The module is registered in ``sys.modules`` under a unique name so that library code that
    looks a class's module up (``@dataclass`` does) finds it. ``__name__`` is not
    ``"__main__"``, so a program's ``if __name__ == "__main__":`` block does not run.
    """
    return new_program()[0]


def new_program() -> tuple[types.ModuleType, ProgramScope]:
    """:func:`new_program_module`'s module and the :class:`ProgramScope` of its guards (which
    remembers, for instance, the recursion limit the program set)."""
    name = f"{PROGRAM_MODULE_PREFIX}{next(_program_counter)}"
    module = types.ModuleType(name)
    scope = ProgramScope(name, module.__dict__)
    replacements = scope.replacements()
    safe: dict[str, Any] = {builtin: getattr(builtins, builtin) for builtin in SAFE_BUILTIN_NAMES}
    safe.update(
        {
            "__build_class__": scope.build_class,
            "__import__": make_import({}, replacements),
            "__genplan_private__": scope.private_get,
            "__genplan_receiver__": scope.private_receiver,
            "__genplan_format__": scope.format_attribute,
            "__genplan_class__": SafeType,
            "type": SafeType,
            "vars": scope.vars,
            "getattr": scope.getattr,
            "hasattr": scope.hasattr,
            "setattr": scope.setattr,
            "delattr": scope.delattr,
        }
    )
    module.__dict__.update({"__builtins__": safe, "__metaclass__": type})
    sys.modules[name] = module
    return module, scope
