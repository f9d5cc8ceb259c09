"""Text a program controls (plan items, exception messages, printed output) made safe to show.

Whatever a model-written program returns or raises reaches prompts, run files and the terminal.
Two rules hold wherever it does (issue 23):

* it is **capped**: at most a given number of characters, with a note saying how many were
  cut, so one huge string cannot become a 100 MB prompt or a gigabyte run folder;
* it is **escaped**: control characters (escape sequences that rewrite a terminal, carriage
  returns, line breaks where one line is expected) and lone surrogates are written as
  ``\\x1b``, ``\\n``, ``\\ud800``, so one returned string never becomes several lines.

:func:`shown_text` does both for one-line text (a plan item); :func:`shown_block` keeps line
breaks and tabs (a traceback) and escapes the rest.
"""

from __future__ import annotations

import re

LINE_CAP = 200
"""Characters of one program-controlled line (a plan item) shown in a message."""

BLOCK_CAP = 8000
"""Characters of a program-controlled block (a traceback, an exception message) in a prompt."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_one(match: re.Match[str]) -> str:
    character = match.group()
    named = _NAMED.get(character)
    if named is not None:
        return named
    code = ord(character)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def cap_text(text: str, cap: int) -> str:
    """``text`` cut to ``cap`` characters, with ``" ... [N more characters cut]"`` when cut."""
    if len(text) <= cap:
        return text
    return f"{text[:cap]} ... [{len(text) - cap:,} more characters cut]"


def shown_text(text: str, cap: int = LINE_CAP) -> str:
    """One line of program-controlled text, escaped (every control character, line breaks
    included, and lone surrogates) and capped at ``cap`` characters of the original."""
    cut = len(text) > cap
    shown = _CONTROL.sub(_escape_one, text[:cap])
    return f"{shown} ... [{len(text) - cap:,} more characters cut]" if cut else shown


def shown_block(text: str, cap: int = BLOCK_CAP) -> str:
    """A block of program-controlled text (a traceback): line breaks and tabs kept, every other
    control character and lone surrogate escaped, capped at ``cap`` characters (the head and
    the tail are kept, since a traceback's last line names the error)."""
    if len(text) > cap:
        head, tail = text[: cap // 2], text[-(cap // 2) :]
        text = f"{head}\n... [{len(text) - 2 * (cap // 2):,} characters cut] ...\n{tail}"
    return _CONTROL_BUT_LINES.sub(_escape_one, text.replace("\r\n", "\n"))


def is_printable_ascii(text: str) -> bool:
    """Whether every character of ``text`` is printable ASCII (space to ``~``)."""
    return text.isascii() and text.isprintable()


def first_unprintable(text: str) -> str | None:
    """The first character of ``text`` that is not printable ASCII, or ``None``."""
    for character in text:
        if not " " <= character <= "~":
            return character
    return None
