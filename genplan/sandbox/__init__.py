"""The sandbox: untrusted ``get_plan`` programs run in a child process under a static policy.

See :mod:`genplan.sandbox.policy` for what programs may do, :mod:`genplan.sandbox.runner` for
the child process and its limits, and :mod:`genplan.sandbox.trusted` for in-process loading.
"""

from genplan.sandbox.outcome import RunOutcome, RunStatus
from genplan.sandbox.policy import ALLOWED_MODULES, PolicyViolation, compile_program
from genplan.sandbox.runner import Limits, run_program
from genplan.sandbox.trusted import load_trusted

__all__ = [
    "ALLOWED_MODULES",
    "Limits",
    "PolicyViolation",
    "RunOutcome",
    "RunStatus",
    "compile_program",
    "load_trusted",
    "run_program",
]
