"""The settings of the LLM-written heuristics approach (Corrêa, Pereira, Seipp, NeurIPS 2025).

Where the paper gives a value and this machine can afford it, the default is the paper's; where
not, the default is smaller and says so: 4 candidate heuristics (the paper asks for 25), training
searches of 10 s on 10 training problems. The evaluation searches take the run's
``--eval-timeout`` (the paper gave each test problem 30 minutes).
"""

from __future__ import annotations

from dataclasses import dataclass, field

PAPER_CANDIDATES = 25
"""Candidate heuristics the paper asks the model for, per domain (one sample each)."""


@dataclass(frozen=True)
class HeuristicSettings:
    """Settings of the heuristic approach.

    Attributes:
        candidates: heuristics asked of the model, one independent sample each (the paper's 25;
            default 4 on a 2-core machine: each candidate costs one model call and a training
            search per training problem).
        repair: counterexample repair, beyond the paper (after *Property-Guided LLM Program
            Synthesis for Planning*, arXiv 2605.16142): a candidate whose values contradict a
            checkable property on states of known plans (``h = 0`` on a non-goal state,
            ``h != 0`` on a goal state, ``h = inf`` on a state a plan leaves) gets one revision
            request showing the counterexamples, before selection.
        training_problems: training problems the candidates are searched on for selection,
            spread evenly over the training problems ordered by size (the smallest and the
            largest included); all when there are as many or fewer.
        training_seconds: the time limit of one training search (wall-clock seconds, the
            factory included); the evaluation searches take the run's ``--eval-timeout``.
        max_states: distinct states one search may reach before it stops as ``search-limit``
            (besides the sandbox's memory limit, which stops it as ``search-memory``).
        prompt_examples: training problems shown in the prompt, smallest first.
        probe_problems: smallest training problems whose known plans (found by genplan's own
            search) give the states each candidate is checked on.
        check_seconds: the time limit of one candidate's check (the factory and ``h`` on every
            probe state).
        memory_gib: the address-space limit of each sandboxed search and check, in GiB (the
            sandbox's default 2; the paper's searches had 8 GiB). A search that reaches it stops
            as ``search-memory``; searches run ``--workers`` at a time, each with its own limit.
    """

    candidates: int = field(
        default=4,
        metadata={"help": f"candidate heuristics asked of the model (the paper: {PAPER_CANDIDATES})"},
    )
    repair: bool = field(
        default=False,
        metadata={"help": "counterexample repair before selection (beyond the paper, arXiv 2605.16142)"},
    )
    training_problems: int = field(
        default=10, metadata={"help": "training problems each candidate is searched on, spread over sizes"}
    )
    training_seconds: float = field(
        default=10.0, metadata={"help": "seconds per training search (evaluation: --eval-timeout)"}
    )
    max_states: int = field(default=1_000_000, metadata={"help": "distinct states one search may reach"})
    prompt_examples: int = field(default=2, metadata={"help": "training problems shown in the prompt"})
    probe_problems: int = field(
        default=3, metadata={"help": "small training problems whose known plans check each candidate"}
    )
    check_seconds: float = field(default=20.0, metadata={"help": "seconds for one candidate's check"})
    memory_gib: float = field(
        default=2.0, metadata={"help": "GiB of address space per sandboxed search (the paper: 8)"}
    )

    def __post_init__(self) -> None:
        """Reject values no run could use.

        Raises:
            ValueError: a count below 1 (``prompt_examples``: below 0) or a time limit that is not
                positive; the message names the field.
        """
        for name in ("candidates", "training_problems", "max_states", "probe_problems"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)!r}")
        if self.prompt_examples < 0:
            raise ValueError(f"prompt_examples must be at least 0, not {self.prompt_examples!r}")
        for name in ("training_seconds", "check_seconds", "memory_gib"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)!r}")
