"""The settings of AutoToS (Cao, Katz, Kokel, Srinivas, Sohrabi, AAAI 2025), one frozen record.

Every field defaults to the paper's value where the paper gives one (Sec. 4 and 5): 1 s per
call of a search component, 600 s per search, 10 model calls per function and 19 per domain,
BFS, the partial soundness test and the completeness step both on. Where genplan goes beyond
the paper (the PDDL model replaces the human-written unit tests) the default is genplan's
``exact`` mode; ``checks="partial"`` is the paper's protocol, for its ablations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from genplan.runs.settings import settings_label

CHECK_MODES = ("exact", "partial")
SEARCHES = ("bfs", "dfs")


@dataclass(frozen=True)
class AutoToSSettings:
    """Settings of the AutoToS approach.

    Attributes:
        checks: ``"exact"``: every transition the successor function produces during the
            soundness search (Step 3) must be the result of one applicable ground action, every
            such result must be produced (Step 4), and every goal-test verdict on a searched
            state must agree with the PDDL goal; ``"partial"``: the paper's protocol, with a
            domain-independent partial soundness test per transition (ground atoms well formed,
            static facts unchanged) and successor unit tests on a few known states (Sec. 4.4, 4.5).
        soundness_test: run the per-transition soundness test during the Step 3 search; off
            is the paper's "w/o val" ablation (Figure 2).
        completeness_test: run Step 4, the successor completeness test; off stops after the
            soundness tests pass (the paper's second ablation, Figure 2).
        search: ``"bfs"`` (the paper's choice for every domain but crosswords) or ``"dfs"``.
        search_seconds: the limit of one search, on an example problem or an evaluation
            problem (the paper's 600 s); the run context's ``eval_timeout`` (``--eval-timeout``,
            the generalized plan's budget per program run) does not apply to AutoToS.
        call_seconds: the limit of one call of ``successor_states`` or ``is_goal`` (the
            paper's 1 s), in CPU seconds, so that a busy machine does not cut calls short.
        calls_per_function: model calls per search component at most (the paper's 10).
        max_calls: model calls per domain at most (the paper's 19).
        example_problems: training problems (smallest first) the unit tests and the example
            searches are made from (the paper used up to 10 instances for its unit tests).
        walk_length: steps of the random walk from each example problem's initial state whose
            end defines the example goal (so a correct search reaches it within this depth).
        completeness_states: states whose successors the exact completeness test checks per
            example problem (those a search with the model's functions expands first).
    """

    checks: Literal["exact", "partial"] = field(
        default="exact",
        metadata={
            "help": "exact: checks against the PDDL model; partial: the paper's partial-check protocol",
            "label": "{}",
        },
    )
    soundness_test: bool = field(
        default=True, metadata={"help": "per-transition soundness test in Step 3 (off: the paper's w/o val)"}
    )
    completeness_test: bool = field(
        default=True, metadata={"help": "Step 4, the successor completeness test (off: stop after soundness)"}
    )
    search: Literal["bfs", "dfs"] = field(
        default="bfs", metadata={"help": "search algorithm: bfs or dfs", "label": "{}"}
    )
    search_seconds: float = field(
        default=600.0, metadata={"help": "seconds per search (example and evaluation problems)"}
    )
    call_seconds: float = field(
        default=1.0, metadata={"help": "CPU seconds per call of successor_states or is_goal"}
    )
    calls_per_function: int = field(default=10, metadata={"help": "model calls per search component at most"})
    max_calls: int = field(default=19, metadata={"help": "model calls per domain at most"})
    example_problems: int = field(
        default=3, metadata={"help": "training problems the unit tests and example searches come from"}
    )
    walk_length: int = field(
        default=3, metadata={"help": "random-walk steps that define each example problem's goal"}
    )
    completeness_states: int = field(
        default=200,
        metadata={"help": "states per example problem whose successors Step 4 checks (exact mode)"},
    )

    def __post_init__(self) -> None:
        """Reject values no run could use.

        Raises:
            ValueError: an unknown mode or search, or a limit that is not positive.
        """
        if self.checks not in CHECK_MODES:
            raise ValueError(f"checks must be one of {', '.join(CHECK_MODES)}, not {self.checks!r}")
        if self.search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, not {self.search!r}")
        for name in ("search_seconds", "call_seconds"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)!r}")
        for name in (
            "calls_per_function",
            "max_calls",
            "example_problems",
            "walk_length",
            "completeness_states",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)!r}")
        if self.max_calls < 2:
            raise ValueError("max_calls must be at least 2 (one initial call per search component)")

    @property
    def label(self) -> str:
        """The run's name: ``autotos``, then every setting that differs from genplan's main
        protocol (:func:`~genplan.runs.settings.settings_label`), e.g.
        ``autotos+partial+no-soundness-test``, ``autotos+dfs`` or ``autotos+max-calls-5``."""
        return settings_label(self, "autotos")
