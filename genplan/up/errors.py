"""Errors of genplan's unified-planning integration: genplan errors that are UP's too.

Each is a :class:`~genplan.errors.ConfigurationError` (so genplan's callers catch it as any
other bad input) and a ``unified_planning.exceptions.UPUsageError`` (so a UP user's ``except
UPUsageError`` catches it as it does every other engine's).
"""

from __future__ import annotations

from unified_planning.exceptions import UPUsageError

from genplan.errors import ConfigurationError


class UnsupportedUpProblem(ConfigurationError, UPUsageError):
    """A UP problem genplan cannot take: of a kind outside what genplan models (the features
    named), or one UP's PDDL writer cannot write (UP's reason given)."""


class EngineSettingError(ConfigurationError, UPUsageError):
    """A parameter of the ``genplan`` engine that cannot be used as given (the parameter named)."""
