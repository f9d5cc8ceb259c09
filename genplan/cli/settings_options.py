"""Command-line flags made from an approach's settings dataclass.

Every field becomes a flag named after it (``feedback_rounds`` -> ``--feedback-rounds``), a
boolean field a pair (``--names`` / ``--no-names``), with the field's ``metadata["help"]`` and
default as its help, so a new setting needs no CLI code. A field's ``metadata["flags"]`` adds
other spellings users rely on (the generalized plan's ``--cot`` / ``--no-cot``), and
``metadata["positive"]`` refuses a value that is not above 0; a number must be finite.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import typing
from collections.abc import Sequence
from typing import Any

SETTING_PREFIX = "setting_"
"""The ``argparse`` destination of a setting's flag is ``setting_<field>``."""


def setting_flags(settings_field: dataclasses.Field[Any]) -> list[str]:
    """The flags of one settings field: ``--<name>`` then its ``metadata["flags"]`` spellings."""
    return ["--" + settings_field.name.replace("_", "-"), *settings_field.metadata.get("flags", ())]


def add_setting_argument(container: Any, settings_field: dataclasses.Field[Any], hint: Any) -> None:
    """Add the flag of one settings field to ``container`` (a parser, group or mutually exclusive
    group); its value lands in ``setting_<field>`` (``None`` when not given)."""
    flags = setting_flags(settings_field)
    help_text = settings_field.metadata.get("help", "")
    default = settings_field.default
    if hint is bool:
        container.add_argument(
            *flags,
            dest=SETTING_PREFIX + settings_field.name,
            action=argparse.BooleanOptionalAction,
            default=None,
            help=f"{help_text} (default: {'on' if default else 'off'})",
        )
        return

    positive = bool(settings_field.metadata.get("positive"))

    def parse(text: str) -> Any:
        from genplan.runs.settings import convert_value

        try:
            value = convert_value(hint, text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(_reason(hint, text, error)) from error
        if isinstance(value, float) and not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
        if positive and isinstance(value, (int, float)) and value <= 0:
            raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
        return value

    shown = "" if default is None else f" (default: {default})"
    container.add_argument(
        *flags,
        dest=SETTING_PREFIX + settings_field.name,
        type=parse,
        default=None,
        metavar=settings_field.name.upper(),
        help=f"{help_text}{shown}",
    )


def add_settings_arguments(
    parser: argparse.ArgumentParser, settings_type: type, title: str, *, exclude: Sequence[str] = ()
) -> None:
    """Add one flag per field of ``settings_type`` (but those in ``exclude``) to ``parser``, in a
    group named ``title``."""
    group = parser.add_argument_group(title)
    hints = typing.get_type_hints(settings_type)
    for settings_field in dataclasses.fields(settings_type):
        if settings_field.name not in exclude:
            add_setting_argument(group, settings_field, hints[settings_field.name])


def _reason(hint: Any, text: str, error: ValueError) -> str:
    """Why ``text`` is not a value of type ``hint``, in the words of the other flags (``must be an
    integer, got 'abc'``) rather than Python's (``invalid literal for int() with base 10``)."""
    base = next((a for a in typing.get_args(hint) if a is not type(None)), hint)
    if base is int:
        return f"must be an integer, got {text!r}"
    if base is float:
        return f"must be a number, got {text!r}"
    return str(error)


def chosen_settings(args: argparse.Namespace, settings_type: type) -> dict[str, Any]:
    """The settings the flags of :func:`add_settings_arguments` chose, by field name (those not
    given are left out: the settings' defaults apply)."""
    return {
        settings_field.name: getattr(args, SETTING_PREFIX + settings_field.name)
        for settings_field in dataclasses.fields(settings_type)
        if getattr(args, SETTING_PREFIX + settings_field.name, None) is not None
    }


def settings_from_arguments(args: argparse.Namespace, settings_type: type) -> Any:
    """The settings dataclass the flags of :func:`add_settings_arguments` chose (defaults elsewhere).

    Raises:
        ValueError: the settings dataclass rejects the combination (its ``__post_init__``).
    """
    return settings_type(**chosen_settings(args, settings_type))
