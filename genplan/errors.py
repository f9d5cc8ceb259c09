"""The project's error hierarchy.

Every error genplan raises on purpose subclasses :class:`GenplanError`, names the bad item
(file, line, field, action, step) and, where it can, says what to do next. Only the CLI turns
these into exit codes and messages.
"""

from __future__ import annotations

from pathlib import Path


class GenplanError(Exception):
    """Base class of every error genplan raises on purpose."""


class PddlError(GenplanError):
    """Malformed or unsupported PDDL.

    Attributes:
        path: the file that holds the PDDL, or ``None`` for text that came from no file.
        line: the 1-based line of the problem, or ``None`` when unknown.
        reason: what is wrong, in words.
    """

    def __init__(self, reason: str, path: Path | str | None = None, line: int | None = None):
        self.path = Path(path) if path is not None else None
        self.line = line
        self.reason = reason
        where = str(self.path) if self.path is not None else "<text>"
        if line is not None:
            where += f":{line}"
        super().__init__(f"{where}: {reason}")


class ConfigurationError(GenplanError):
    """A setting, flag or file the user supplied cannot be used as given."""


class ValidatorError(GenplanError):
    """The plan checker the user asked for (``--checker val``) could not give a verdict: VAL is
    missing, refuses the plan's length, or refused or failed on the task. Never a verdict on the plan."""
