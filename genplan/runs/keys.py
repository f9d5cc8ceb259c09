"""Problem keys: how records name an evaluation problem."""

from __future__ import annotations

from pathlib import Path

from genplan.pddl.problem import Problem


def problem_key(problem: Problem, root: Path | None) -> str:
    """A problem's key in records: its file relative to ``root`` (``/`` separators), else its name."""
    source = problem.source
    if source is not None and root is not None:
        try:
            return Path(source).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return problem.name
