"""Command-line flags made from an approach's settings dataclass.

Every field becomes a flag named after it (``feedback_rounds`` -> ``--feedback-rounds``), a
boolean field a pair (``--names`` / ``--no-names``), with the field's ``metadata["help"]`` and
default as its help, so a new setting needs no CLI code.
"""

from __future__ import annotations

import argparse
import dataclasses
import typing
from typing import Any


def add_settings_arguments(parser: argparse.ArgumentParser, settings_type: type, title: str) -> None:
    """Add one flag per field of ``settings_type`` to ``parser``, in a group named ``title``."""
    group = parser.add_argument_group(title)
    hints = typing.get_type_hints(settings_type)
    for field in dataclasses.fields(settings_type):
        flag = "--" + field.name.replace("_", "-")
        help_text = field.metadata.get("help", "")
        default = field.default
        if hints[field.name] is bool:
            group.add_argument(
                flag,
                dest=f"setting_{field.name}",
                action=argparse.BooleanOptionalAction,
                default=None,
                help=f"{help_text} (default: {'on' if default else 'off'})",
            )
            continue

        def parse(text: str, hint: Any = hints[field.name]) -> Any:
            from genplan.approaches.base import convert_value

            try:
                return convert_value(hint, text)
            except ValueError as error:
                raise argparse.ArgumentTypeError(_reason(hint, text, error)) from error

        group.add_argument(
            flag,
            dest=f"setting_{field.name}",
            type=parse,
            default=None,
            metavar=field.name.upper(),
            help=f"{help_text} (default: {default})",
        )


def _reason(hint: Any, text: str, error: ValueError) -> str:
    """Why ``text`` is not a value of type ``hint``, in the words of the other flags (``must be an
    integer, got 'abc'``) rather than Python's (``invalid literal for int() with base 10``)."""
    base = next((a for a in typing.get_args(hint) if a is not type(None)), hint)
    if base is int:
        return f"must be an integer, got {text!r}"
    if base is float:
        return f"must be a number, got {text!r}"
    return str(error)


def settings_arguments(settings: Any) -> list[str]:
    """The flags that choose ``settings``: one per field that differs from its default
    (``["--no-cot"]``, ``["--feedback-rounds", "2"]``); the inverse of the flags
    :func:`add_settings_arguments` adds and :func:`settings_from_arguments` reads."""
    from genplan.runs.settings import changed_settings

    arguments: list[str] = []
    for name, value in changed_settings(settings).items():
        flag = name.replace("_", "-")
        if isinstance(value, bool):
            arguments.append(f"--{flag}" if value else f"--no-{flag}")
        else:
            arguments += [f"--{flag}", "none" if value is None else str(value)]
    return arguments


def settings_from_arguments(args: argparse.Namespace, settings_type: type) -> Any:
    """The settings the flags of :func:`add_settings_arguments` chose (defaults elsewhere).

    Raises:
        ValueError: the settings dataclass rejects the combination (its ``__post_init__``).
    """
    chosen = {
        field.name: getattr(args, f"setting_{field.name}")
        for field in dataclasses.fields(settings_type)
        if getattr(args, f"setting_{field.name}", None) is not None
    }
    return settings_type(**chosen)
