"""Argument types for the command line: numbers that must be positive, rejected by argparse.

``--n -3`` or ``--files-timeout -1`` used to be accepted and fail later (or wait forever);
argparse now stops with ``argument --n: must be a positive integer, got -3`` and exit code 2.
"""

from __future__ import annotations

import argparse
import math


def positive_int(text: str) -> int:
    """An integer of at least 1 (counts: problems, workers, tokens)."""
    value = integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def non_negative_int(text: str) -> int:
    """An integer of at least 0 (seeds, feedback rounds)."""
    value = integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def positive_seconds(text: str) -> float:
    """A finite number of seconds above 0 (time budgets and waits)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def temperature(text: str) -> float:
    """A sampling temperature from 0 to 2, the range of the OpenAI API (and of the servers
    that speak it)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 2, got {text!r}") from None
    if not math.isfinite(value) or not 0 <= value <= 2:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 2, got {text}")
    return value


def integer(text: str) -> int:
    """Any integer (argparse type with a clear message)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
