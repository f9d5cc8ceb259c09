"""Normalising real-world PDDL text before the ``pddl`` library parses it.

The ``pddl`` library is strict where VAL and the unified-planning framework are lenient. This
module makes the text acceptable the way those tools would read it:

* names are case-insensitive in PDDL, so the text is lower-cased;
* comments (``;`` to end of line) are removed, keeping line numbers;
* a domain that uses types, ``not``, ``=`` or ``:constants`` without declaring the matching
  requirement gets the requirement added (``pddl`` rejects a typed domain without ``:typing``).

Parse errors are re-raised as :class:`~genplan.errors.PddlError` naming the file and line.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from lark.exceptions import LarkError, UnexpectedInput

from genplan.errors import PddlError

T = TypeVar("T")
_UNSET = object()

_COMMENT = re.compile(r";[^\n]*")
_REQUIREMENTS = re.compile(r"\(\s*:requirements([^)]*)\)")


def strip_comments_and_lower(text: str) -> str:
    """Return ``text`` lower-cased with ``;`` comments removed; line numbers are kept."""
    return _COMMENT.sub("", text).lower()


def needed_requirements(text: str) -> set[str]:
    """Requirements a normalised domain or problem text uses, judged from its syntax.

    Returns a set of requirement keywords such as ``{":strips", ":typing"}``.
    """
    needed = {":strips"}
    if re.search(r"\s-\s", text) or "(:types" in text.replace("( ", "("):
        needed.add(":typing")
    if any(re.search(r"\(\s*not[\s(]", section) for section in _sections(text, ":precondition")):
        needed.add(":negative-preconditions")
    if re.search(r"\(\s*=\s", text):
        needed.add(":equality")
    return needed


def _sections(text: str, keyword: str) -> list[str]:
    """The balanced s-expression following each occurrence of ``keyword`` (e.g. ``:precondition``)."""
    sections = []
    for match in re.finditer(re.escape(keyword), text):
        start = text.find("(", match.end())
        if start < 0:
            continue
        depth = 0
        for index in range(start, len(text)):
            depth += {"(": 1, ")": -1}.get(text[index], 0)
            if depth == 0:
                sections.append(text[start : index + 1])
                break
    return sections


def add_missing_requirements(text: str) -> str:
    """Return ``text`` with every requirement from :func:`needed_requirements` declared.

    Declared requirements are kept; missing ones are appended to the ``:requirements`` section,
    or a section is added after the ``(domain ...)`` / ``(:domain ...)`` header when there is none.
    Requirements that imply others (``:adl`` implies ``:typing`` and friends) are respected.
    """
    needed = needed_requirements(text)
    match = _REQUIREMENTS.search(text)
    declared = set(match.group(1).split()) if match else set()
    if ":adl" in declared:
        declared |= {":strips", ":typing", ":negative-preconditions", ":equality"}
    missing = sorted(needed - declared)
    if not missing:
        return text
    if match:
        start, end = match.span(1)
        return text[:start] + match.group(1) + " " + " ".join(missing) + text[end:]
    header = re.search(r"\(\s*:?domain\s+[^\s()]+\s*\)", text)
    if header is None:
        return text
    at = header.end()
    # Keep line numbers: the inserted section goes on the header's line.
    return text[:at] + f" (:requirements {' '.join(missing)})" + text[at:]


def parse_with_location(parse: Callable[[str], T], text: str, path: Path | None) -> T:
    """Run a ``pddl`` library parser on ``text``; report failures as :class:`PddlError`.

    Raises:
        PddlError: naming ``path`` and, where the parser knows it, the 1-based line.
    """
    saved_limit = getattr(sys, "tracebacklimit", _UNSET)
    try:
        return parse(text)
    except UnexpectedInput as error:
        line = getattr(error, "line", None)
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise PddlError(f"malformed PDDL: {reason}", path, line if line and line > 0 else None) from error
    except LarkError as error:
        cause = error.__context__ or error
        raise PddlError(f"invalid PDDL: {cause}", path, _line_of(cause, text)) from error
    except (ValueError, AssertionError, TypeError, KeyError) as error:
        raise PddlError(f"invalid PDDL: {error}", path, _line_of(error, text)) from error
    finally:
        # The pddl library sets sys.tracebacklimit = 0 while parsing and leaves it so on errors,
        # which would hide every later traceback in this process.
        if saved_limit is _UNSET:
            if hasattr(sys, "tracebacklimit"):
                del sys.tracebacklimit
        else:
            sys.tracebacklimit = saved_limit  # type: ignore[assignment]


def _line_of(error: BaseException, text: str) -> int | None:
    """Best-effort line of the first name quoted in ``error``'s message, else ``None``."""
    for quoted in re.findall(r"'([^'\s]+)'", str(error)):
        found = re.search(rf"(?<![\w-]){re.escape(quoted.lower())}(?![\w-])", text)
        if found:
            return text.count("\n", 0, found.start()) + 1
    return None
