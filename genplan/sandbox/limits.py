"""Settings of a sandboxed run: resource limits and the kind of operating-system isolation."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any

GIB = 1024**3
MIB = 1024**2
MAX_HASH_SEED = 4_294_967_295
"""The largest ``PYTHONHASHSEED`` Python accepts."""


class Isolation(str, Enum):
    """How the sandbox worker is isolated from the rest of the machine (the value is the CLI's)."""

    BWRAP = "bwrap"
    """bubblewrap: new namespaces (no network, own PID space), a read-only view of the system, a
    private ``/tmp``, an unprivileged user for programs; the default."""
    NONE = "none"
    """No namespaces: only the policy, the child's limits, its seccomp filter and, under root,
    its unprivileged user. For machines where bubblewrap cannot run (``--isolation none``)."""


@dataclass(frozen=True)
class Limits:
    """Resource limits and isolation of sandboxed runs.

    Attributes:
        address_space_bytes: RLIMIT_AS of each child (default 2 GiB).
        cpu_seconds: RLIMIT_CPU of each child; ``None`` means the time budget plus 5 s.
        max_output_bytes: what a program may print before it is stopped (default 1 MiB).
        max_result_bytes: the largest result a child may send, as JSON bytes (default 64 MiB);
            a larger one is a ``CRASHED`` outcome that says so.
        max_result_values: the most JSON values (strings, numbers, lists, ...) a result may
            hold, counted before it is decoded (default 2,000,000); nesting is bounded too
            (:data:`genplan.sandbox.channel.MAX_DEPTH`). More is a ``CRASHED`` outcome.
        max_plan_actions: the most actions a plan may have (default 1,000,000); more is a
            ``BAD_OUTPUT`` outcome.
        max_action_chars: the most characters one action of a plan may have (default 1,000);
            more is a ``BAD_OUTPUT`` outcome.
        recursion_limit: Python recursion limit in the child.
        grace_seconds: how long a child may take to answer the interrupt before it is killed.
        isolation: the operating-system isolation of the worker (:class:`Isolation`).
        hash_seed: ``PYTHONHASHSEED`` of the worker, so of every program it runs (0 to
            4294967295; default 0). String hashes, and with them the order in which a
            program's sets iterate, depend on it; it is a setting of the run, never taken from
            the caller's environment, so the same program gives the same plans (and a saved
            run replays) whatever the user's shell exports. Robustness checks run programs
            under other seeds (``--shuffles``).
    """

    address_space_bytes: int = 2 * GIB
    cpu_seconds: int | None = None
    max_output_bytes: int = MIB
    max_result_bytes: int = 64 * MIB
    max_result_values: int = 2_000_000
    max_plan_actions: int = 1_000_000
    max_action_chars: int = 1_000
    recursion_limit: int = 10_000
    grace_seconds: float = 2.0
    isolation: Isolation = Isolation.BWRAP
    hash_seed: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "isolation", Isolation(self.isolation))
        if type(self.hash_seed) is not int or not 0 <= self.hash_seed <= MAX_HASH_SEED:
            raise ValueError(
                f"hash_seed must be an integer from 0 to {MAX_HASH_SEED}, not {self.hash_seed!r}"
            )

    def to_json(self) -> dict[str, Any]:
        """The limits as the worker receives them (JSON-ready)."""
        data = asdict(self)
        data["isolation"] = self.isolation.value
        return data
