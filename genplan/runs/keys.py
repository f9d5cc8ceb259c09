"""Problem keys: how records name a problem (its file in the problem set), and how a run names the
problems it holds in its rounds and prompts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from genplan.pddl.problem import Problem

ProblemNames = Callable[[Problem], str]
"""How a run names a problem it holds in its rounds and prompts (:func:`names_by_key`)."""


def problem_key(problem: Problem, root: Path | None) -> str:
    """A problem's key in records: its file relative to ``root`` (``/`` separators), else its name."""
    source = problem.source
    if source is not None and root is not None:
        try:
            return Path(source).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return problem.name


def names_by_key(held: Sequence[Problem], originals: Sequence[Problem], root: Path | None) -> ProblemNames:
    """Name each of ``held`` (the problems as a run holds them, perhaps renamed copies) by the key
    of the original at the same position; any other problem by its PDDL name.

    Told apart by object, not by value: problems compare by their objects and atoms, so two files
    that hold the same problem, or problems that differ only in numbers (road lengths), would
    otherwise share one name.
    """
    keys = {id(problem): (problem, problem_key(original, root)) for problem, original in zip(held, originals)}

    def name(problem: Problem) -> str:
        found = keys.get(id(problem))  # the problem kept beside its key keeps the id its own
        return found[1] if found is not None and found[0] is problem else problem.name

    return name
