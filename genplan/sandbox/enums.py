"""``enum``'s bases as programs get them: the functional API checks the names it is given.

``Enum('E', names)`` (and ``IntEnum``, ``Flag``, ``IntFlag``, ``StrEnum``, or a program's own
member-less enum) builds a class from data: every name becomes a class attribute, and a dunder
among them (``__reduce_ex__``, ``__setattr__``, ``__init_subclass__``, ...) becomes a special
method the static policy never saw. ``copy.copy`` of a member of such a class called the
program's ``__reduce_ex__`` and assigned what it returned, ``__class__`` included, to any
object (issue 34). Programs therefore get subclasses of these bases whose ``_create_`` (the
functional API's builder, which ``EnumType.__call__`` looks up on the class) refuses dunder
names and ``module=``, on a copy of the names taken before they are checked. ``ReprEnum``,
which only data-typed enums subclass, is not handed out.

The subclasses hold no members, so ``class Color(enum.Enum)`` in a program works as before,
with one more class in its MRO; ``isinstance(member, enum.Enum)`` holds for the program's
enums, not for a library's (``re.RegexFlag``).
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Mapping
from typing import Any

from genplan.sandbox.policy import is_dunder

HIDDEN_ENUMS: tuple[object, ...] = tuple(
    base for base in (getattr(enum, "ReprEnum", None),) if base is not None
)
"""Enum bases programs never get (their functional API cannot be guarded by a subclass)."""


def checked_members(names: Any) -> Any:
    """``names`` of ``Enum(class_name, names)`` copied once and checked: the copy is what the
    enum machinery then reads (a ``str`` subclass, a mapping or an iterator cannot answer
    differently the second time).

    Returns:
        A ``str`` for a string of names, a ``list`` of ``str`` for a sequence of names, or a
        ``list`` of ``(name, value)`` pairs for a mapping or an iterable of pairs.

    Raises:
        TypeError: a name that is not a string, or a dunder.
    """
    if isinstance(names, str):
        text = str.__str__(names)
        _check_names(text.replace(",", " ").split())
        return text
    if isinstance(names, Mapping):
        pairs = [(key, names[key]) for key in list(names)]
    else:
        items = list(names)
        if items and isinstance(items[0], str):
            copied = [str.__str__(item) if isinstance(item, str) else item for item in items]
            _check_names(copied)
            return copied
        pairs = []
        for item in items:
            if isinstance(item, str):
                raise TypeError("enum names must be all strings or all (name, value) pairs in this sandbox")
            name, value = item
            pairs.append((name, value))
    pairs = [(str.__str__(name) if isinstance(name, str) else name, value) for name, value in pairs]
    _check_names([name for name, _ in pairs])
    return pairs


def _check_names(names: list[Any]) -> None:
    for name in names:
        if type(name) is not str:
            raise TypeError(f"an enum member name must be a string, not {type(name).__name__}")
        if is_dunder(name):
            raise TypeError(
                f'an enum built from names may not name "{name}" in this sandbox (a dunder would become '
                "a special method of the class)"
            )


def _guarded_create(cls: type, class_name: str, names: Any, *, module: object = None, **options: Any) -> Any:
    """``EnumType._create_`` on checked names, in the calling program's module."""
    if module is not None:
        raise TypeError("an enum's module= is not allowed in this sandbox")
    checked = checked_members(names)
    try:  # 0: here, 1: EnumType.__call__, 2: the caller (what enum itself would take)
        module = sys._getframe(2).f_globals.get("__name__")
    except ValueError:
        module = None
    return type(enum.Enum)._create_(cls, class_name, checked, module=module, **options)  # type: ignore[attr-defined]


def _guarded(base: type) -> type:
    metaclass: Any = type(base)
    namespace = metaclass.__prepare__(base.__name__, (base,))
    namespace["__module__"] = base.__module__
    namespace["__qualname__"] = base.__qualname__
    namespace["__doc__"] = base.__doc__
    guarded: type = metaclass(base.__name__, (base,), namespace)
    type.__setattr__(guarded, "_create_", classmethod(_guarded_create))
    return guarded


GUARDED_ENUMS: dict[int, type] = {
    id(base): _guarded(base)
    for base in (getattr(enum, name, None) for name in ("Enum", "IntEnum", "Flag", "IntFlag", "StrEnum"))
    if base is not None
}
"""``id`` of each of ``enum``'s bases -> the subclass programs get instead."""
