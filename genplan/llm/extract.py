"""Extracting Python code from a language model's answer.

Answers come in many shapes: one fenced block, several (helpers, then ``get_plan``, then an
example call), blocks tagged ``python``, ``py``, ``python3`` or untagged, a last block whose
closing fence was cut off, or bare code with no fences at all. :func:`extract_code` handles
each, and returns ``None`` when there is no code, so the caller can send feedback instead of
crashing (Silver et al. 2024, Sec. 4.2 appends every answer's code to a growing file).
"""

from __future__ import annotations

import ast
import re

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+.-]*)[^\n]*$", re.MULTILINE)
_PYTHON_TAGS = {"", "python", "py", "python3", "py3"}
_CODE_START = re.compile(r"^(def |class |import |from \S+ import |@)", re.MULTILINE)


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced block of ``text`` as ``(language tag, code)`` pairs, in order.

    A block left open at the end of the text (an answer cut off mid-block) runs to the end.
    The tag is lower-cased; an untagged block has tag ``""``.
    """
    blocks: list[tuple[str, str]] = []
    position = 0
    while True:
        opening = _FENCE.search(text, position)
        if opening is None:
            return blocks
        fence, tag = opening.group(1), opening.group(2).lower()
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.MULTILINE)
        end = closing.search(text, opening.end())
        body_end = end.start() if end else len(text)
        blocks.append((tag, text[opening.end() + 1 : body_end]))
        if end is None:
            return blocks
        position = end.end()


def _is_python(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def extract_code(answer: str) -> str | None:
    """The Python code in a model's ``answer``, or ``None`` when it holds none.

    Rules, in order:

    1. Fenced blocks tagged as Python (or untagged and parseable as Python) are joined in
       order with blank lines between them; blocks tagged as another language (``pddl``,
       ``text``, ``bash``) are skipped.
    2. With no fences, the answer from the first line that starts like code (``def``,
       ``class``, ``import``, ``from ... import``, a decorator) to the end is taken, if that
       text parses as Python; trailing prose lines are dropped one by one until it parses.

    Returns:
        The code, ending with a newline, or ``None``.
    """
    blocks = fenced_blocks(answer)
    if blocks:
        chosen = [
            code
            for tag, code in blocks
            if tag in _PYTHON_TAGS and (tag != "" or _is_python(code) or "def " in code)
        ]
        chosen = [code.strip("\n") for code in chosen if code.strip()]
        return "\n\n".join(chosen) + "\n" if chosen else None
    start = _CODE_START.search(answer)
    if start is None:
        return None
    lines = answer[start.start() :].rstrip().splitlines()
    while lines:
        candidate = "\n".join(lines)
        if candidate.strip() and _is_python(candidate):
            return candidate.rstrip() + "\n"
        lines.pop()
    return None
