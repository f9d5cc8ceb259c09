"""What a model-written ASP text may hold before clingo sees it: genplan's policy for encodings.

An encoding is untrusted input. clingo runs code embedded in a program (``#script (python) ...
#end.``, ``#script (lua) ...``, and clingo 4's ``#python`` / ``#lua`` blocks, wherever its
build has the interpreter), calls host functions for terms written ``@name(...)`` (from a script,
or from the ``__main__`` module of the process that grounds), and reads any file named in
``#include "..."`` while parsing. So the text is rejected, before any clingo call, when any of
these appears *anywhere*, comments and strings included: a scan of the raw text cannot disagree
with clingo's lexer about where a comment ends. The rejection is feedback for the model (kind
``forbidden-construct``), which the prompts announce.

This is the first layer. The second runs in the child process that grounds (see
:mod:`genplan.approaches.asp.clingo_run`): the parsed program must hold no script and no
external function, and grounding gets a context object with no functions at all. The third is
the child itself: address-space and CPU limits, no file writes (see
:mod:`genplan.approaches.asp.isolation`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_TEXT_CHARS = 200_000
"""Longest encoding or query accepted (characters); a longer answer is rejected as feedback."""

# ASCII only: clingo's keywords are ASCII, and a Unicode-aware IGNORECASE would match "#ſcript"
# (a long s folds to s) or "#ınclude" (a dotless i folds to i), words with no reason below.
# Non-ASCII text is a syntax error before clingo sees it (clingo_run).
_FORBIDDEN = re.compile(r"#\s*(script|include|python|lua)\b|@", re.IGNORECASE | re.ASCII)
_REASONS = {
    "script": "embedded scripts run code",
    "python": "embedded scripts run code",
    "lua": "embedded scripts run code",
    "include": "#include reads files",
    "@": "external functions (@name(...)) call host code",
}


@dataclass(frozen=True)
class PolicyViolation:
    """A forbidden construct in a model-written text.

    Attributes:
        line: 1-based line of the first occurrence (0 for a text that is too long).
        construct: what was found (``#script``, ``#include``, ``@``, or ``too long``).
        reason: why it is not allowed.
    """

    line: int
    construct: str
    reason: str

    def describe(self, name: str) -> str:
        """One line for feedback, e.g. ``encoding:3: #script is not allowed (embedded scripts run code)``."""
        return f"{name}:{self.line}: {self.construct} is not allowed ({self.reason})"


def policy_violations(text: str) -> list[PolicyViolation]:
    """Every forbidden construct in ``text`` (first occurrence of each kind), in line order.

    Returns:
        An empty list when clingo may see the text.
    """
    if len(text) > MAX_TEXT_CHARS:
        return [PolicyViolation(0, "too long", f"{len(text)} characters, at most {MAX_TEXT_CHARS}")]
    found: dict[str, PolicyViolation] = {}
    for match in _FORBIDDEN.finditer(text):
        word = (match.group(1) or "@").lower()
        construct = "@" if word == "@" else f"#{word}"
        if construct not in found:
            line = text.count("\n", 0, match.start()) + 1
            found[construct] = PolicyViolation(line, construct, _REASONS[word])
    return sorted(found.values(), key=lambda v: v.line)
