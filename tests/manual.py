"""The manual as the tests read it: the README and the pages of ``docs/`` (the MkDocs site).

Tests that check what the manual says (its commands, its tables, its code) find it here, so a
section can move between the README and a page, or between pages, without a test losing it.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
_HEADING = re.compile(r"(#{1,6}) (.+)")


def pages() -> list[Path]:
    """Every page of the manual, the README first, then ``docs/**/*.md`` in path order."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def page_name(page: Path) -> str:
    """A page's path relative to the repository root (``README.md``, ``docs/cli.md``)."""
    return page.relative_to(ROOT).as_posix()


@functools.cache
def text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def manual_text() -> str:
    """Every page's text, one after the other."""
    return "\n".join(text(page) for page in pages())


def blocks(page: Path, language: str = "bash") -> list[str]:
    """The fenced ``language`` code blocks of one page, in order, without their fences."""
    return re.findall(rf"```{language}\n(.*?)```", text(page), re.DOTALL)


def _headings(page: Path) -> list[tuple[int, int, str]]:
    """``(line index, level, title)`` of every heading outside code blocks."""
    found, fenced = [], False
    for index, line in enumerate(text(page).splitlines()):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := _HEADING.fullmatch(line)):
            found.append((index, len(match.group(1)), match.group(2)))
    return found


def section(title: str) -> str:
    """The section headed ``title`` (at any level), wherever in the manual it is, up to the next
    heading of the same or a higher level. Raises ``AssertionError`` unless exactly one heading of
    the manual has that title."""
    matches = [
        (page, index, level)
        for page in pages()
        for index, level, heading in _headings(page)
        if heading == title
    ]
    assert len(matches) == 1, f"the manual has {len(matches)} headings {title!r}"
    page, start, level = matches[0]
    ends = [index for index, other, _ in _headings(page) if index > start and other <= level]
    lines = text(page).splitlines()
    return "\n".join(lines[start : ends[0] if ends else len(lines)])
