"""``@dataclass`` as programs get it: generated methods that assign only checked names.

``dataclasses.dataclass`` generates an ``__init__`` (and, with ``slots=True``,
``__setstate__``) that assigns each field's *name* on whatever object it is called with:
``D.__init__(obj, value)`` runs ``obj.<name> = value`` for any ``obj``. A field named
``__class__`` made that a class swap of any object (issue 34), so every name a field of a
program's dataclass can have is checked, whichever route it takes:

* the class's own annotations (the fields it adds) are copied and checked before the machinery
  reads them: identifiers, not keywords, not dunders (:func:`field_name_is_allowed`);
* the fields inherited from dataclass bases must be :class:`CheckedField`: the fields of a
  dataclass the guard made, whose ``name`` cannot be set to an unchecked one afterwards
  (``dataclasses.fields(D)[0].name = '__class__'`` and then ``@dataclass class E(D)`` renamed
  a field that ``E.__init__`` then assigned);
* every ``dataclasses.field()`` among the class's defaults, and every field the machinery made,
  becomes a :class:`CheckedField` (program code that runs while the class is processed, or
  later, cannot rename one);
* the generated ``__init__`` of a dataclass with private fields (``_cache``) runs on the
  class's own instances only: private attributes of objects the program did not create are off
  limits (:mod:`genplan.sandbox.runtime`), and ``D.__init__(library_object, ...)`` would write them.

Only classes the program created are accepted, and the class returned (a new one with
``slots=True``) is the program's own.
"""

from __future__ import annotations

import dataclasses
import functools
import keyword
from collections.abc import Callable
from typing import Any

from genplan.sandbox.policy import is_dunder, is_private


def field_name_is_allowed(name: object) -> bool:
    """Whether a dataclass field may be called ``name``: an exact ``str`` that is an
    identifier, not a keyword and not a dunder."""
    return type(name) is str and name.isidentifier() and not keyword.iskeyword(name) and not is_dunder(name)


class CheckedField(dataclasses.Field):  # type: ignore[type-arg]
    """A :class:`dataclasses.Field` whose ``name`` only ever holds an allowed field name
    (:func:`field_name_is_allowed`), whoever sets it."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        if name == "name" and value is not None and not field_name_is_allowed(value):
            raise TypeError(f"invalid dataclass field name {value!r}")
        object.__setattr__(self, name, value)


def _checked(field: object) -> None:
    """Make ``field`` (a ``dataclasses.Field``) a :class:`CheckedField` in place, its name checked.

    Raises:
        TypeError: an object of another class (a subclass of ``Field`` could answer its own
            ``name``), or a name that is not allowed.
    """
    kind = type(field)
    if kind is dataclasses.Field:
        object.__setattr__(field, "__class__", CheckedField)
    elif kind is not CheckedField:
        raise TypeError(
            f"a dataclass field must come from dataclasses.field() in this sandbox, not {kind.__name__}"
        )
    name = object.__getattribute__(field, "name")
    if name is not None and not field_name_is_allowed(name):
        raise TypeError(f"invalid dataclass field name {name!r}")


def _class_dict(klass: type) -> dict[str, Any]:
    return type.__dict__["__dict__"].__get__(klass)  # type: ignore[no-any-return]


def checked_dataclass(klass: object, options: dict[str, Any], owns_class: Callable[[type], bool]) -> type:
    """``dataclasses.dataclass(klass, **options)`` with every field name checked (see the module
    docstring); the caller records the result as the program's own.

    Raises:
        TypeError: ``klass`` is not a class the program created (``owns_class``), a field name
            is not allowed, a base's fields did not come from this guard, or a default is a
            ``Field`` of another class.
    """
    if not isinstance(klass, type) or not owns_class(klass):
        raise TypeError("@dataclass applies only to classes the program declares in this sandbox")
    namespace = _class_dict(klass)
    annotations = namespace.get("__annotations__", {})
    if not isinstance(annotations, dict):
        raise TypeError("a dataclass's annotations must be a plain dict in this sandbox")
    # A plain copy, read in C (no method of a dict subclass runs): the fields checked here are
    # the fields the dataclass machinery then sees.
    copied = dict(dict.items(annotations))
    for name in copied:
        if not field_name_is_allowed(name):
            raise TypeError(f"invalid dataclass field name {name!r}")
    for base in type.__dict__["__mro__"].__get__(klass)[1:]:
        inherited = _class_dict(base).get("__dataclass_fields__")
        if inherited is None:
            continue
        if type(inherited) is not dict or any(type(f) is not CheckedField for f in dict.values(inherited)):
            raise TypeError("a dataclass's bases must be dataclasses made by @dataclass in this sandbox")
        for field in dict.values(inherited):
            _checked(field)  # its name, as it is now
    for name in copied:
        default = namespace.get(name)
        if isinstance(default, dataclasses.Field):
            _checked(default)
    type.__setattr__(klass, "__annotations__", copied)
    had_init = "__init__" in namespace
    result: type = dataclasses.dataclass(klass, **options)  # type: ignore[call-overload]
    fields = _class_dict(result)["__dataclass_fields__"]
    for field in dict.values(fields):
        _checked(field)
    if not had_init and "__init__" in _class_dict(result) and any(is_private(name) for name in fields):
        type.__setattr__(result, "__init__", _own_instances_only(result, _class_dict(result)["__init__"]))
    return result


def _own_instances_only(klass: type, generated: Callable[..., None]) -> Callable[..., None]:
    """``generated`` (a dataclass's ``__init__``) refusing any ``self`` but an instance of ``klass``."""

    @functools.wraps(generated)
    def __init__(self: object, *args: Any, **kwargs: Any) -> None:
        if not issubclass(type(self), klass):
            raise TypeError(
                f"{klass.__name__}.__init__ sets private attributes: only on instances of {klass.__name__} "
                "in this sandbox"
            )
        generated(self, *args, **kwargs)

    return __init__
