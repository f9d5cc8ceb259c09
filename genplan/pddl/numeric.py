"""The numeric part of problems with action costs: initial fluent values and the metric.

IPC problems with ``:action-costs`` give function values in ``:init`` (``(= (total-cost) 0)``,
``(= (road-length c1 c2) 7)``) and ask ``(:metric minimize (total-cost))``. :func:`split_numeric`
takes both out of the normalised problem text, blanking them so every line keeps its number,
and the rest is read as a STRIPS problem (:mod:`genplan.pddl.problem_reader` or the library).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from genplan.errors import PddlError
from genplan.pddl.fragment import refuse

Atom = tuple[str, ...]

_FLUENT = re.compile(r"\(\s*=\s*\(([^()]*)\)\s*([^\s()]+)\s*\)")
_METRIC = re.compile(r"\(\s*:metric\b")
_TOTAL_COST_METRIC = re.compile(r"\(\s*:metric\s+minimize\s*\(\s*total-cost\s*\)\s*\)")


def _blank(text: str, start: int, end: int) -> str:
    gap = "".join("\n" if char == "\n" else " " for char in text[start:end])
    return text[:start] + gap + text[end:]


def split_numeric(text: str, source: Path | None = None) -> tuple[str, dict[Atom, float], bool]:
    """Take numeric initial values and the metric out of normalised problem ``text``.

    Returns:
        ``(text without them, {ground function term: value}, whether the metric is
        (minimize (total-cost)))``; the text keeps its line numbers.

    Raises:
        PddlError: a value that is not a number (names ``source`` and the line).
        UnsupportedPddl: a metric other than ``(:metric minimize (total-cost))``.
    """
    if "(=" not in text.replace("( =", "(=") and ":metric" not in text:
        return text, {}, False
    fluents: dict[Atom, float] = {}
    for match in reversed(list(_FLUENT.finditer(text))):
        line = text.count("\n", 0, match.start()) + 1
        term = tuple(match.group(1).split())
        try:
            value = float(match.group(2))
        except ValueError:
            raise PddlError(
                f"(= ({match.group(1).strip()}) {match.group(2)}): the value is not a number", source, line
            ) from None
        if not term:
            raise PddlError("(= () ...): a function term needs a name", source, line)
        fluents[term] = value
        text = _blank(text, match.start(), match.end())
    minimize = False
    metric = _METRIC.search(text)
    if metric is not None:
        line = text.count("\n", 0, metric.start()) + 1
        wanted = _TOTAL_COST_METRIC.match(text, metric.start())
        if wanted is None:
            shown = " ".join(text[metric.start() : metric.start() + 60].split("\n", 1)[0].split())
            raise refuse("other-metrics", source, line, shown if len(shown) < 40 else shown[:40] + " ...")
        minimize = True
        text = _blank(text, wanted.start(), wanted.end())
    return text, dict(sorted(fluents.items())), minimize


def number_text(value: float) -> str:
    """A value as PDDL writes it: ``7`` for whole numbers, else ``2.5``."""
    return str(int(value)) if value == int(value) else repr(value)


def fluent_lines(fluents: Mapping[Atom, float]) -> list[str]:
    """``(= (road-length a b) 7)`` for every fluent, sorted."""
    return [f"(= ({' '.join(term)}) {number_text(value)})" for term, value in sorted(fluents.items())]
