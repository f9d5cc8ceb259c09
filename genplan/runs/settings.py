"""An approach's settings dataclass: its changed fields, its JSON form, building it from text, and
the run label made from it."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def changed_settings(settings: Any) -> dict[str, Any]:
    """The fields of a settings dataclass that differ from their defaults, in field order."""
    default = type(settings)()
    return {
        f.name: getattr(settings, f.name)
        for f in dataclasses.fields(settings)
        if getattr(settings, f.name) != getattr(default, f.name)
    }


def settings_arguments(settings: Any) -> list[str]:
    """The flags that choose ``settings``: one per field that differs from its default
    (``["--no-cot"]``, ``["--feedback-rounds", "2"]``); the inverse of the flags
    :func:`genplan.cli.settings_options.add_settings_arguments` adds."""
    arguments: list[str] = []
    for name, value in changed_settings(settings).items():
        flag = name.replace("_", "-")
        if isinstance(value, bool):
            arguments.append(f"--{flag}" if value else f"--no-{flag}")
        else:
            arguments += [f"--{flag}", "none" if value is None else str(value)]
    return arguments


def settings_to_json(settings: Any) -> dict[str, Any]:
    """A settings dataclass as JSON-ready fields (a path as its text)."""
    return {
        f.name: str(value) if isinstance(value := getattr(settings, f.name), Path) else value
        for f in dataclasses.fields(settings)
    }


def settings_from_mapping(settings_type: type, values: Mapping[str, Any], *, where: str = "settings") -> Any:
    """Build ``settings_type`` from a mapping of field names to values (experiment files).

    Values are converted to the field's declared type (``"3"`` to 3 for an int field, etc.).

    Raises:
        ValueError: an unknown field name, or a value that does not convert; the message
            names ``where``, the field and the known fields.
    """
    fields = {f.name: f for f in dataclasses.fields(settings_type)}
    hints = typing.get_type_hints(settings_type)
    converted: dict[str, Any] = {}
    for name, value in values.items():
        key = name.replace("-", "_")
        if key not in fields:
            raise ValueError(f"{where}: unknown setting {name!r}; known: {', '.join(fields)}")
        try:
            converted[key] = convert_value(hints[key], value)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{where}: setting {name!r}: {error}") from error
    return settings_type(**converted)


def convert_value(hint: Any, value: Any) -> Any:
    """``value`` converted to the type ``hint`` (bool, int, float, str, Path, or ``X | None``).

    Raises:
        ValueError: the value does not convert.
    """
    args = typing.get_args(hint)
    if args and type(None) in args:
        if value is None or (isinstance(value, str) and value.lower() in ("none", "null")):
            return None
        hint = next(a for a in args if a is not type(None))
    if hint is bool:
        if isinstance(value, bool):
            return value
        text = str(value).lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got {value!r}")
    if hint is Path:
        return Path(value)
    if hint in (int, float, str):
        if hint is int and isinstance(value, float) and not value.is_integer():
            raise ValueError(f"expected an integer, got {value!r}")
        return hint(value)
    if typing.get_origin(hint) is typing.Literal:
        if value not in typing.get_args(hint):
            raise ValueError(f"expected one of {typing.get_args(hint)}, got {value!r}")
        return value
    return value


def _label_value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def setting_label(settings_field: dataclasses.Field[Any], value: Any) -> str:
    """The part of a run label that names one changed setting.

    The field's short name is ``metadata["label"]`` (default: its name with ``-`` for ``_``).
    A flag reads as the short name when on and ``no-<short name>`` when off (``scaling``,
    ``no-cot``); any other value follows the short name after ``-`` (``feedback-rounds-2``,
    ``timeout-5``), or fills its ``{}`` when the short name has one (``candidates{}`` gives
    ``candidates3``).
    """
    short = settings_field.metadata.get("label") or settings_field.name.replace("_", "-")
    if isinstance(value, bool):
        return short if value else f"no-{short}"
    if "{}" in short:
        return short.replace("{}", _label_value(value))
    return f"{short}-{_label_value(value)}"


def settings_label(settings: Any, name: str | None) -> str:
    """A run's label, from its settings only: ``name`` (when given), then every setting that
    differs from its default in field order (:func:`setting_label`), joined by ``+``; with no
    ``name`` and no change, ``main``.

    So two runs with different settings never share a label, and so never a run folder, a
    recording or an answer key: ``autotos``, ``asp+no-successor-check``,
    ``symplanner+rollouts-4+beam-width-2+diverse-generation``, and for the generalized plan
    (``name`` ``None``) ``main``, ``no-cot+no-names``, ``candidates3+check-strategy+reflect``,
    ``feedback-rounds-2``.
    """
    fields = {f.name: f for f in dataclasses.fields(settings)}
    parts = [setting_label(fields[key], value) for key, value in changed_settings(settings).items()]
    if name is not None:
        return "+".join([name, *parts])
    return "+".join(parts) or "main"
