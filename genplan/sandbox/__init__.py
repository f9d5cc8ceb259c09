"""The sandbox: untrusted, model-written programs run under a policy in isolated processes.

Layers, each stopping what the others might miss: the static policy and its run-time guards
(:mod:`genplan.sandbox.policy`, :mod:`genplan.sandbox.runtime`); a worker started by exec with a
clean environment inside bubblewrap (:mod:`genplan.sandbox.isolation`, :mod:`genplan.sandbox.worker`);
per-run children with resource limits, an unprivileged user and a seccomp filter
(:mod:`genplan.sandbox.confine`); and a result channel that carries capped JSON only
(:mod:`genplan.sandbox.channel`). :func:`run_untrusted` runs any trusted harness on a program
(:mod:`genplan.sandbox.runner` documents the contract); :func:`run_program` is the one for
``get_plan``. :mod:`genplan.sandbox.trusted` runs a program in-process instead: as Python with
the caller's rights, the policy its only check (for programs the user has read).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from genplan.sandbox.harness import BadOutput
    from genplan.sandbox.isolation import IsolationUnavailable
    from genplan.sandbox.limits import Isolation, Limits
    from genplan.sandbox.outcome import CallOutcome, RunOutcome, RunStatus
    from genplan.sandbox.policy import ALLOWED_MODULES, PolicyViolation, compile_program
    from genplan.sandbox.pool import isolation_report, prestart_worker
    from genplan.sandbox.runner import program_arguments, run_program, run_untrusted
    from genplan.sandbox.trusted import ProgramStopped, load_trusted

_HOMES = {
    "BadOutput": "harness",
    "IsolationUnavailable": "isolation",
    "Isolation": "limits",
    "Limits": "limits",
    "CallOutcome": "outcome",
    "RunOutcome": "outcome",
    "RunStatus": "outcome",
    "ALLOWED_MODULES": "policy",
    "PolicyViolation": "policy",
    "compile_program": "policy",
    "isolation_report": "pool",
    "prestart_worker": "pool",
    "program_arguments": "runner",
    "run_program": "runner",
    "run_untrusted": "runner",
    "load_trusted": "trusted",
    "ProgramStopped": "trusted",
}
"""Where each public name lives: a name is imported from its module on first use, so a process
that needs a few of them (the sandbox worker, ``genplan solve`` before its worker is up) does
not import the policy, the runner and the pool all at once."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'genplan.sandbox' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"genplan.sandbox.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "ALLOWED_MODULES",
    "BadOutput",
    "CallOutcome",
    "Isolation",
    "IsolationUnavailable",
    "Limits",
    "PolicyViolation",
    "ProgramStopped",
    "RunOutcome",
    "RunStatus",
    "compile_program",
    "isolation_report",
    "load_trusted",
    "prestart_worker",
    "program_arguments",
    "run_program",
    "run_untrusted",
]
