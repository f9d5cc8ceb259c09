"""Tracebacks as the paper shows them to the model (Sec. 4.2).

Only frames of the program are kept; the file is shown as ``<file-name-omitted>``; line numbers
are the program file's; every frame shows its source line.
"""

from __future__ import annotations

import traceback
from types import TracebackType

from genplan.sandbox.policy import PROGRAM_FILE_NAME, PolicyViolation

OMITTED = "<file-name-omitted>"


def _frame_lines(tb: TracebackType | None, source_lines: list[str]) -> list[str]:
    # walk_tb, not extract_tb: the latter obeys sys.tracebacklimit, which libraries set (pddl sets 0).
    lines = []
    for frame, lineno in traceback.walk_tb(tb):
        if frame.f_code.co_filename != PROGRAM_FILE_NAME:
            continue
        lines.append(f'  File "{OMITTED}", line {lineno}, in {frame.f_code.co_name}')
        if lineno is not None and 0 < lineno <= len(source_lines):
            text = source_lines[lineno - 1].strip()
            if text:
                lines.append(f"    {text}")
    return lines


def format_exception(error: BaseException, source: str) -> str:
    """The traceback of ``error`` raised by a program with ``source``, in the paper's form."""
    source_lines = source.splitlines()
    if isinstance(error, SyntaxError) and error.filename == PROGRAM_FILE_NAME:
        lines = [f'  File "{OMITTED}", line {error.lineno}']
        if error.text:
            lines.append(f"    {error.text.strip()}")
        return "\n".join(["Traceback (most recent call last):", *lines, f"SyntaxError: {error.msg}"])
    if isinstance(error, PolicyViolation):
        body = [f'  File "{OMITTED}", line {error.line}' if error.line else f'  File "{OMITTED}"']
        if error.line and 0 < error.line <= len(source_lines):
            body.append(f"    {source_lines[error.line - 1].strip()}")
        return "\n".join(["Traceback (most recent call last):", *body, f"PolicyViolation: {error}"])
    frames = _frame_lines(error.__traceback__, source_lines)
    last = "".join(traceback.format_exception_only(type(error), error)).strip()
    return "\n".join(["Traceback (most recent call last):", *frames, last])
