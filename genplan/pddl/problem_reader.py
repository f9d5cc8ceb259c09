"""genplan's own reader for problem files: the fast path beside the ``pddl`` library.

Loading problems was over 90% of the main job: the library's LALR parser took 1.1-2.4 s for the
largest heavy problem (31,126 atoms). What problem files hold is simple: a name, the domain's
name, optional requirements, typed objects, ground atoms in ``:init`` and a conjunction of
ground atoms as the goal. :func:`read_problem` reads exactly that, in the standard order of
the sections; anything else (negative or numeric initial facts, other goal formulas, a
metric, constraints, ``either`` types, repeated objects) returns ``None`` and goes to the
library (:mod:`genplan.pddl.library`), which is also this reader's oracle in
``tests/pddl/test_pddl_fast.py`` over every problem genplan ships or generates and files laid out
as IPC files are (``tests/data/ipc-style``).
"""

from __future__ import annotations

import re
from operator import itemgetter

from genplan.pddl.domain_check import REQUIREMENTS

Atom = tuple[str, ...]
RawProblem = tuple[str, str, list[tuple[str, str]], list[Atom], list[Atom]]
"""``(name, domain name, [(object, type)] in file order, init atoms, goal atoms)``."""

_INNERMOST = re.compile(r"\(([^()]*)\)")
"""A list with no list inside: an atom, ``(problem NAME)``, ``(:domain NAME)``, ``(:objects ...)``."""

_SKELETON = re.compile(
    r"\s*\(\s*define\s*@\s*@(?P<sections>(?:\s*@)*)"
    r"\s*\(\s*:init(?P<init>(?:\s*@)*)\s*\)"
    r"\s*\(\s*:goal\s*(?:\(\s*and(?P<conjunction>(?:\s*@)+)\s*\)|(?P<atom>@))\s*\)"
    r"\s*\)\s*"
)
"""The problem with every innermost list replaced by ``@``: the only shape the fast path reads."""

_CONNECTIVES = frozenset({"and", "or", "not", "imply", "forall", "exists", "when", "="})
ROOT_TYPE = "object"


def _objects(words: list[str]) -> list[tuple[str, str]] | None:
    objects: list[tuple[str, str]] = []
    pending: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word == "-":
            if index + 1 >= len(words):
                return None
            objects += [(name, words[index + 1]) for name in pending]
            pending = []
            index += 2
            continue
        pending.append(word)
        index += 1
    objects += [(name, ROOT_TYPE) for name in pending]
    return objects if len({name for name, _ in objects}) == len(objects) else None


def _atoms(contents: list[str]) -> list[Atom] | None:
    """The contents of innermost lists as atoms, or ``None`` if one is empty or a connective."""
    atoms: list[Atom] = list(map(tuple, map(str.split, contents)))
    if atoms and (min(map(len, atoms)) == 0 or not _CONNECTIVES.isdisjoint(map(_head, atoms))):
        return None
    return atoms


_head = itemgetter(0)


def read_problem(text: str) -> RawProblem | None:
    """Read normalised problem ``text`` (lower case, no comments), or ``None`` if outside the fast path.

    The innermost lists (atoms and the name, domain, requirements and objects sections) are
    found by one regular expression; what remains must be exactly ``(define @ @ [@ ...]
    (:init @ ...) (:goal (and @ ...)))`` or with a single goal atom.

    Returns:
        ``(name, domain name, [(object, type)] in file order, init atoms, goal atoms)``; the
        atoms are not yet checked against a domain (see :func:`genplan.pddl.problem.bind_problem`).
    """
    pieces = _INNERMOST.split(text)
    inner = pieces[1::2]
    skeleton = _SKELETON.fullmatch("@".join(pieces[0::2]))
    if skeleton is None:
        return None
    header, domain = inner[0].split(), inner[1].split()
    if len(header) != 2 or header[0] != "problem" or len(domain) != 2 or domain[0] != ":domain":
        return None
    position = 2
    objects: list[tuple[str, str]] | None = []
    sections = [inner[position + i].split() for i in range(skeleton.group("sections").count("@"))]
    position += len(sections)
    if sections and sections[0][:1] == [":requirements"] and not REQUIREMENTS.issuperset(sections.pop(0)[1:]):
        return None  # the library names the unknown requirement
    if sections and sections[0][:1] == [":objects"]:
        objects = _objects(sections.pop(0)[1:])
    if sections or objects is None:
        return None
    count = skeleton.group("init").count("@")
    init = _atoms(inner[position : position + count])
    position += count
    goal = _atoms(inner[position:])
    if init is None or goal is None:
        return None
    return header[1], domain[1], objects, init, goal
