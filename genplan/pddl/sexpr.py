"""Reading PDDL text as s-expressions, keeping the line of every item.

PDDL is a list syntax: :func:`read_expression` turns normalised text (see
:mod:`genplan.pddl.text`) into nested :class:`Expression` lists of :class:`Word` strings, each
knowing its 1-based line, so the domain check (:mod:`genplan.pddl.domain_check`) and the fast
paths can say ``file:line: what is wrong``. Unbalanced parentheses are reported here, naming
the line where the unclosed list was opened (the ``pddl`` library's parser says only
"Unexpected token Token('$END', '')").
"""

from __future__ import annotations

import re
from pathlib import Path

from genplan.errors import PddlError

_ITEMS = re.compile(r"\n|[()]|[^\s()]+")


class Word(str):
    """A name, keyword or variable of PDDL text, with the 1-based ``line`` it is on."""

    line: int

    def __new__(cls, text: str, line: int) -> Word:
        word = super().__new__(cls, text)
        word.line = line
        return word


class Expression(list):  # type: ignore[type-arg]
    """A parenthesised list of :class:`Word` and :class:`Expression` items.

    Attributes:
        line: the 1-based line of its opening parenthesis.
    """

    def __init__(self, line: int):
        super().__init__()
        self.line = line

    @property
    def head(self) -> str | None:
        """The first item when it is a word (``"and"``, ``":action"``, a predicate), else ``None``."""
        return self[0] if self and isinstance(self[0], Word) else None

    def describe(self) -> str:
        """How the list begins, for messages: ``"(:action stack"``, ``"(on ?x ?y)"``."""
        words = []
        for item in self[:4]:
            if not isinstance(item, Word):
                break
            words.append(str(item))
        text = "(" + " ".join(words)
        return text + ")" if len(words) == len(self) else text + " ..."


SECTION_KEYWORDS = frozenset(
    {
        ":requirements",
        ":types",
        ":constants",
        ":predicates",
        ":functions",
        ":constraints",
        ":action",
        ":durative-action",
        ":derived",
        ":objects",
        ":init",
        ":goal",
        ":metric",
    }
)
"""Heads of the lists that belong directly under ``(define ...)``: one found deeper shows
where a ``)`` is missing."""


def read_expression(text: str, path: Path | None = None) -> Expression:
    """The one top-level list of ``text`` (a ``(define ...)``), read with line numbers.

    Raises:
        PddlError: unbalanced parentheses (naming the list left open, e.g. the ``(:init`` still
            open when ``(:goal`` begins, or the ``)`` that closed the definition early), no
            list at all, or text after the first top-level list.
    """
    line = 1
    stack: list[Expression] = []
    top: Expression | None = None
    closed_at = 0
    misplaced: tuple[str, int] | None = None
    for match in _ITEMS.finditer(text):
        item = match.group()
        if item == "\n":
            line += 1
        elif item == "(":
            if top is not None and not stack:
                raise PddlError(
                    f"unbalanced parentheses: the `)` on line {closed_at} closes the whole "
                    f"{top.describe()}, so this list is outside it (one `)` too many before it?)",
                    path,
                    line,
                )
            stack.append(Expression(line))
        elif item == ")":
            if not stack:
                raise PddlError("unbalanced parentheses: this `)` closes nothing", path, line)
            finished = stack.pop()
            if stack:
                stack[-1].append(finished)
            else:
                top, closed_at = finished, line
        elif not stack:
            raise PddlError(
                f"unexpected `{item}` outside any parenthesis"
                + (" (after the end of the definition)" if top is not None else ""),
                path,
                line,
            )
        else:
            current = stack[-1]
            if misplaced is None and not current and item in SECTION_KEYWORDS and len(stack) > 2:
                parent = stack[-2]
                misplaced = (
                    f"unbalanced parentheses: the list {parent.describe()} opened on line {parent.line} "
                    f"is not closed before ({item} on line {line}",
                    line,
                )
            current.append(Word(item, line))
    if stack:
        if misplaced is not None:
            raise PddlError(misplaced[0], path, misplaced[1])
        unclosed = stack[-1]
        raise PddlError(
            f"unbalanced parentheses: the list {unclosed.describe()} opened here is never closed",
            path,
            unclosed.line,
        )
    if top is None:
        raise PddlError("no PDDL definition found (the file has no `(define ...)`)", path, None)
    return top


def unbalanced_parentheses(text: str, path: Path | None = None) -> PddlError | None:
    """The error :func:`read_expression` reports for ``text``, or ``None`` if it reads."""
    try:
        read_expression(text, path)
    except PddlError as error:
        return error
    return None
