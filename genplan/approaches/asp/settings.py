"""Settings of the ASP approach; the defaults follow LLM+AL (Ishay and Lee, AAAI 2025) and its code."""

from __future__ import annotations

from dataclasses import dataclass, field

from genplan.runs.settings import settings_label


@dataclass(frozen=True)
class AspSettings:
    """Settings of the ASP approach.

    Attributes:
        revisions: model revisions at most, satisfiability-check and feedback revisions
            together (LLM+AL's ``max_updates``, 8).
        sample_queries: sample queries at most (LLM+AL B.5: "no more than 5").
        max_horizon: largest horizon (plan steps) clingo tries (LLM+AL's main-query maxstep, 130).
        check_timeout: seconds per clingo run during self-revision (LLM+AL's reasoner time-out, 60).
        horizon_growth: factor by which the horizon grows between tries; 1 tries every
            horizon, so plans have the fewest steps (as LLM+AL's incremental mode).
        distinct_states: forbid a plan to visit a state twice (never changes the fewest steps;
            lets clingo prove "no plan up to the horizon" quickly).
        val_check: validate the plans of the training problems with VAL (PDDL domains; beyond LLM+AL).
        successor_check: compare the encoding's transitions with the PDDL domain's on random
            states (PDDL domains; beyond LLM+AL).
        successor_states: states for the successor check, from random walks on training problems.
        walk_length: longest random walk to such a state.
        memory_mb: address-space limit of each clingo process, in MiB.
    """

    revisions: int = field(default=8, metadata={"help": "model revisions at most (LLM+AL's max_updates)"})
    sample_queries: int = field(
        default=5, metadata={"help": "sample queries at most (LLM+AL: no more than 5)"}
    )
    max_horizon: int = field(
        default=130, metadata={"help": "largest horizon clingo tries (LLM+AL's maxstep)"}
    )
    check_timeout: float = field(
        default=60.0, metadata={"help": "seconds per clingo run during self-revision"}
    )
    horizon_growth: float = field(
        default=1.0, metadata={"help": "horizon growth factor between tries (1: every horizon, fewest steps)"}
    )
    distinct_states: bool = field(default=True, metadata={"help": "no state repeats along a plan"})
    val_check: bool = field(default=True, metadata={"help": "validate training plans with VAL (PDDL)"})
    successor_check: bool = field(
        default=True, metadata={"help": "compare the encoding's transitions with PDDL's on random states"}
    )
    successor_states: int = field(default=30, metadata={"help": "states for the successor check"})
    walk_length: int = field(default=12, metadata={"help": "longest random walk to a successor-check state"})
    memory_mb: int = field(
        default=4096, metadata={"help": "address-space limit of each clingo process (MiB)"}
    )

    def __post_init__(self) -> None:
        if self.revisions < 0 or self.sample_queries < 0 or self.max_horizon < 0:
            raise ValueError("revisions, sample_queries and max_horizon must be 0 or more")
        if self.horizon_growth < 1.0:
            raise ValueError("horizon_growth must be at least 1")
        if self.check_timeout <= 0 or self.memory_mb <= 0:
            raise ValueError("check_timeout and memory_mb must be positive")

    @property
    def label(self) -> str:
        """``asp``, then every changed setting (:func:`~genplan.runs.settings.settings_label`):
        ``asp+revisions-2+no-successor-check``."""
        return settings_label(self, "asp")
