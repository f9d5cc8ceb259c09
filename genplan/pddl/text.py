"""Normalising real-world PDDL text before the ``pddl`` library parses it.

The ``pddl`` library is strict where VAL and the unified-planning framework are lenient. This
module makes the text acceptable the way those tools would read it:

* Windows (``\r\n``) and old Mac (``\r``) line endings become ``\n``, so the same file
  with either ending gives the same prompts, recordings and results;
* names are case-insensitive in PDDL, so the text is lower-cased;
* comments (``;`` to end of line) are removed, keeping line numbers;
* empty ``(:types)``, ``(:constants)`` and ``(:functions)`` sections (Tarski and other tools
  write them; VAL and Fast Downward accept them) are dropped: they declare nothing;
* a domain that uses types, ``not``, ``=`` or ``:constants`` without declaring the matching
  requirement gets the requirement added (``pddl`` rejects a typed domain without ``:typing``).

Parse errors of the ``pddl`` library are re-raised as :class:`~genplan.errors.PddlError` naming
the file, the line and the construct, in PDDL's words rather than the parser's (not "Unexpected
token Token('$END', '')" but "unbalanced parentheses: the list (define ... opened here is never
closed"; not "No terminal matches ':'" but "unknown requirement `:foo`").
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from genplan.errors import PddlError

T = TypeVar("T")
_UNSET = object()

_COMMENT = re.compile(r";[^\n]*")
_EMPTY_SECTION = re.compile(r"\(\s*:(?:types|constants|functions)\s*\)")
_REQUIREMENTS = re.compile(r"\(\s*:requirements([^)]*)\)")


def normalise_line_endings(text: str) -> str:
    """Return ``text`` with ``\r\n`` and lone ``\r`` line endings as ``\n``; line numbers are kept."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def strip_comments_and_lower(text: str) -> str:
    """Return ``text`` with ``\n`` line endings, lower-cased, ``;`` comments removed; line numbers are kept."""
    return _COMMENT.sub("", normalise_line_endings(text)).lower()


def drop_empty_sections(text: str) -> str:
    """Return normalised domain ``text`` without empty ``(:types)``, ``(:constants)`` and
    ``(:functions)`` sections, which declare nothing; line numbers are kept."""
    return _EMPTY_SECTION.sub(lambda match: "\n" * match.group().count("\n"), text)


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


def read_pddl_file(path: Path, what: str) -> str:
    """The text of a PDDL ``what`` file (``"domain"``, ``"problem"``, ``"plan"``), decoded as
    UTF-8, with ``\n`` line endings (:func:`normalise_line_endings`).

    Raises:
        PddlError: the file cannot be read or is not UTF-8 text (names the file and line).
    """
    try:
        data = path.read_bytes()
    except OSError as error:
        raise PddlError(f"cannot read {what} file: {error.strerror}", path) from error
    try:
        return normalise_line_endings(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise PddlError(
            f"the {what} file is not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})",
            path,
            line,
        ) from error


def parse_with_location(parse: Callable[[str], T], text: str, path: Path | None) -> T:
    """Run a ``pddl`` library parser on ``text``; report failures as :class:`PddlError`.

    Raises:
        PddlError: naming ``path``, the 1-based line where known, and what is wrong in PDDL's
            words (see the module docstring).
    """
    from lark.exceptions import LarkError, UnexpectedInput
    from pddl.exceptions import PDDLError

    saved_limit = getattr(sys, "tracebacklimit", _UNSET)
    try:
        return parse(text)
    except UnexpectedInput as error:
        raise _translated(error, text, path) from error
    except LarkError as error:
        cause = error.__context__ or error
        raise PddlError(f"invalid PDDL: {cause}", path, _line_of(cause, text)) from error
    except (PDDLError, ValueError, AssertionError, TypeError, KeyError) as error:
        raise PddlError(f"invalid PDDL: {error}", path, _line_of(error, text)) from error
    finally:
        # The pddl library sets sys.tracebacklimit = 0 while parsing and leaves it so on errors,
        # which would hide every later traceback in this process.
        if saved_limit is _UNSET:
            if hasattr(sys, "tracebacklimit"):
                del sys.tracebacklimit
        else:
            sys.tracebacklimit = saved_limit  # type: ignore[assignment]


_TERMINALS = {
    "LPAR": "`(`",
    "RPAR": "`)`",
    "NAME": "a name",
    "QMARK": "a variable",
    "VARIABLE": "a variable",
    "DEFINE": "`define`",
    "DOMAIN": "`:domain`",
    "PROBLEM": "`problem`",
    "REQUIREMENTS": "`:requirements`",
    "TYPES": "`:types`",
    "CONSTANTS": "`:constants`",
    "PREDICATES": "`:predicates`",
    "ACTION": "`:action`",
    "PARAMETERS": "`:parameters`",
    "PRECONDITION": "`:precondition`",
    "EFFECT": "`:effect`",
    "OBJECTS": "`:objects`",
    "INIT": "`:init`",
    "GOAL": "`:goal`",
    "METRIC": "`:metric`",
    "AND": "`and`",
    "NOT": "`not`",
    "EITHER": "`either`",
    "TYPE_SEP": "`-`",
}
_WORD = re.compile(r"[()]|[^\s()]+")


def _translated(error: Exception, text: str, path: Path | None) -> PddlError:
    """A parser error in PDDL's words: unbalanced parentheses, an unknown requirement, or the
    unexpected word with the list it is in and what could come there instead."""
    from genplan.pddl.sexpr import unbalanced_parentheses

    unbalanced = unbalanced_parentheses(text, path)
    if unbalanced is not None:
        return unbalanced
    line = getattr(error, "line", None)
    column = getattr(error, "column", None)
    if not isinstance(line, int) or not isinstance(column, int) or line < 1:
        return PddlError(f"malformed PDDL: {str(error).strip().splitlines()[0]}", path, None)
    offset = _offset(text, line, column)
    found = _WORD.match(text, offset)
    word = found.group() if found else text[offset : offset + 1]
    opened = _enclosing_open(text, offset)
    if opened is not None and not text[opened + 1 : offset].strip():
        word = "(" + word  # the word heads its own list: name the list around that one
        opened = _enclosing_open(text, opened)
    context = _describe_list(text, opened)
    if context.startswith("(:requirements") and word.startswith(":"):
        return PddlError(f"unknown requirement `{word}`", path, line)
    expected = sorted(
        {
            _TERMINALS[name]
            for name in (getattr(error, "expected", None) or getattr(error, "allowed", None) or ())
            if name in _TERMINALS
        }
    )
    reason = f"unexpected `{word}` in {context}"
    if expected:
        reason += f"; expected {', '.join(expected)}"
    return PddlError(reason, path, line)


def _offset(text: str, line: int, column: int) -> int:
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    return min(start + column - 1, len(text))


def _enclosing_open(text: str, offset: int) -> int | None:
    """The index of the ``(`` of the innermost list around ``offset``, or ``None`` at top level."""
    depth = 0
    for index in range(offset - 1, -1, -1):
        char = text[index]
        if char == ")":
            depth += 1
        elif char == "(":
            if depth == 0:
                return index
            depth -= 1
    return None


def _describe_list(text: str, opened: int | None) -> str:
    """How the list opened at ``opened`` begins, e.g. ``(:init ...`` or ``(define (problem q) ...``."""
    if opened is None:
        return "the file"
    first_line = " ".join(text[opened : opened + 60].split("\n", 1)[0].split())
    return first_line if len(first_line) <= 40 else first_line[:40] + " ..."


def _line_of(error: BaseException, text: str) -> int | None:
    """Best-effort line of the first name quoted in ``error``'s message, else ``None``."""
    for quoted in re.findall(r"'([^'\s]+)'", str(error)):
        found = re.search(rf"(?<![\w-]){re.escape(quoted.lower())}(?![\w-])", text)
        if found:
            return text.count("\n", 0, found.start()) + 1
    return None
