"""Settings of the LLM-as-planner methods, one frozen dataclass each, defaults from the papers.

Gonzalez-Pumariaga et al. (*Query-Efficient Planning with Language Models*): a budget of 20
world-model queries in its Blocksworld experiments (Sec. 4.2.2, Figure 2); "the interactive LLM
approaches are allowed to make 20 decisions"; ToI uses ``k = 2`` proposed actions and ToI-BFS a
beam of ``b = 2`` (App. A.3).
SymPlanner (Xiong et al., Sec. 3.1): at most 16 planning steps, 32 rollouts per instance, three
generations per step, group size and beam width 3, one comparison per option; the authors' code
allows 10 generations per candidate (9 corrections), which the paper leaves open as ``R``.
Values the papers do not give are marked as genplan's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RATINGS = ("impossible", "maybe", "sure")


def _positive(settings: object, *names: str) -> None:
    for name in names:
        value = getattr(settings, name)
        if value is not None and value < 1:
            raise ValueError(f"{name.replace('_', '-')} must be at least 1, got {value}")


@dataclass(frozen=True)
class IOSettings:
    """I/O (Gonzalez-Pumariaga et al., Sec. 4.1): the whole plan in one answer."""

    demonstration: bool = field(
        default=True,
        metadata={
            "help": "show the domain's smallest training problem with an optimal plan as an in-context example "
            "(Gonzalez-Pumariaga et al.: I/O takes an in-context demonstration)"
        },
    )


@dataclass(frozen=True)
class IOCoTSettings:
    """I/O + CoT (Gonzalez-Pumariaga et al., Sec. 4.1): the whole plan in one answer, reasoning state by state."""

    demonstration: bool = field(
        default=True,
        metadata={
            "help": "show the domain's smallest training problem solved step by step with its states "
            "(Gonzalez-Pumariaga et al.: the CoT example predicts states)"
        },
    )


@dataclass(frozen=True)
class ReActSettings:
    """ReAct (Gonzalez-Pumariaga et al., Sec. 2): one action per call from the last state reached."""

    budget: int = field(
        default=20, metadata={"help": "world-model queries per problem (Gonzalez-Pumariaga et al.: 20)"}
    )
    steps: int = field(
        default=20,
        metadata={"help": "decisions (model calls) per problem (Gonzalez-Pumariaga et al., App. A.3: 20)"},
    )
    valid_actions: bool = field(
        default=True,
        metadata={
            "help": "list the valid actions of the state reached (as Gonzalez-Pumariaga et al.'s prompts do, App. A.4)"
        },
    )

    def __post_init__(self) -> None:
        _positive(self, "budget", "steps")


@dataclass(frozen=True)
class ReActSelectSettings:
    """ReAct-Select (Gonzalez-Pumariaga et al., Sec. 2): a visited state and an action per call."""

    budget: int = field(
        default=20, metadata={"help": "world-model queries per problem (Gonzalez-Pumariaga et al.: 20)"}
    )
    steps: int = field(
        default=20,
        metadata={"help": "decisions (model calls) per problem (Gonzalez-Pumariaga et al., App. A.3: 20)"},
    )
    valid_actions: bool = field(
        default=True,
        metadata={
            "help": "list the valid actions of each new state (as Gonzalez-Pumariaga et al.'s prompts do, App. A.4)"
        },
    )

    def __post_init__(self) -> None:
        _positive(self, "budget", "steps")


@dataclass(frozen=True)
class ToIBFSSettings:
    """Tree of Interaction with beam search (Gonzalez-Pumariaga et al., Algorithm 1)."""

    budget: int = field(
        default=20, metadata={"help": "world-model queries per problem (Gonzalez-Pumariaga et al.: 20)"}
    )
    iterations: int = field(
        default=20,
        metadata={"help": "search iterations T (Gonzalez-Pumariaga et al., App. A.3: 20 decisions)"},
    )
    proposals: int = field(
        default=2,
        metadata={"help": "actions k proposed per expansion (Gonzalez-Pumariaga et al., App. A.3: 2)"},
    )
    beam_width: int = field(
        default=2, metadata={"help": "states b kept in the beam (Gonzalez-Pumariaga et al., App. A.3: 2)"}
    )
    retries: int = field(
        default=2,
        metadata={
            "help": "re-asks with Error Feedback after a malformed proposal or rating (genplan's value)"
        },
    )

    def __post_init__(self) -> None:
        _positive(self, "budget", "iterations", "proposals", "beam_width")
        if self.retries < 0:
            raise ValueError(f"retries must be at least 0, got {self.retries}")


@dataclass(frozen=True)
class ToIDFSSettings:
    """Tree of Interaction with depth-first search (Gonzalez-Pumariaga et al., App. A.6, Algorithm 3)."""

    budget: int = field(
        default=20, metadata={"help": "world-model queries per problem (Gonzalez-Pumariaga et al.: 20)"}
    )
    iterations: int = field(
        default=20,
        metadata={"help": "search iterations T (Gonzalez-Pumariaga et al., App. A.3: 20 decisions)"},
    )
    proposals: int = field(
        default=2,
        metadata={"help": "actions k proposed per expansion (Gonzalez-Pumariaga et al., App. A.3: 2)"},
    )
    min_rating: str = field(
        default="maybe",
        metadata={"help": "lowest rating a new state needs to be pushed: impossible, maybe or sure (v_min)"},
    )
    retries: int = field(
        default=2,
        metadata={
            "help": "re-asks with Error Feedback after a malformed proposal or rating (genplan's value)"
        },
    )

    def __post_init__(self) -> None:
        _positive(self, "budget", "iterations", "proposals")
        if self.min_rating not in RATINGS:
            raise ValueError(f"min-rating must be one of {', '.join(RATINGS)}, got {self.min_rating!r}")
        if self.retries < 0:
            raise ValueError(f"retries must be at least 0, got {self.retries}")


@dataclass(frozen=True)
class BoomerangSettings:
    """Boomerang (Gonzalez-Pumariaga et al., Sec. 3.2, Algorithm 2): a whole plan per call, rolled out with feedback."""

    budget: int = field(
        default=20, metadata={"help": "world-model queries per problem (Gonzalez-Pumariaga et al.: 20)"}
    )
    iterations: int = field(
        default=20,
        metadata={
            "help": "plans proposed per problem at most (Gonzalez-Pumariaga et al., App. A.3: 20 decisions)"
        },
    )
    valid_actions: bool = field(
        default=True,
        metadata={
            "help": "list the valid actions of the starting state (as Gonzalez-Pumariaga et al.'s prompt does, App. A.4.3)"
        },
    )

    def __post_init__(self) -> None:
        _positive(self, "budget", "iterations")


@dataclass(frozen=True)
class SymPlannerSettings:
    """SymPlanner (Xiong et al., Algorithm 1) with Iterative Correction and Contrastive Ranking."""

    max_steps: int = field(default=16, metadata={"help": "planning steps T (SymPlanner, Sec. 3.1: 16)"})
    rollouts: int = field(
        default=32, metadata={"help": "branches (partial plans) created per problem at most (SymPlanner: 32)"}
    )
    generations: int = field(
        default=3,
        metadata={"help": "candidate actions per branch and step while branches remain (SymPlanner: 3)"},
    )
    beam_width: int = field(default=3, metadata={"help": "branches b kept per step (SymPlanner: 3)"})
    group_size: int = field(
        default=3, metadata={"help": "options compared in one Contrastive Ranking prompt (SymPlanner: 3)"}
    )
    comparisons_per_option: int = field(
        default=1, metadata={"help": "comparisons each option takes part in (SymPlanner: 1)"}
    )
    corrections: int = field(
        default=9,
        metadata={
            "help": "Iterative Correction re-asks per candidate, R (the authors' code: 10 generations)"
        },
    )
    iterative_correction: bool = field(
        default=True, metadata={"help": "repair refused actions with the typed error (IC, Sec. 2.3)"}
    )
    contrastive_ranking: bool = field(
        default=True,
        metadata={"help": "rank candidates by pairwise comparison (CR, Sec. 2.4); off: rate each 1-10"},
    )
    diverse_generation: bool = field(
        default=False,
        metadata={
            "help": "ask a branch's further candidates with the earlier ones listed and a different action "
            "wanted (the authors' code's diverse generation; for deterministic answers, e.g. --llm files)"
        },
    )
    budget: int | None = field(
        default=None, metadata={"help": "world-model queries per problem, or none (SymPlanner sets none)"}
    )

    def __post_init__(self) -> None:
        _positive(
            self, "max_steps", "rollouts", "generations", "beam_width", "comparisons_per_option", "budget"
        )
        if self.group_size < 2:
            raise ValueError(f"group-size must be at least 2, got {self.group_size}")
        if self.corrections < 0:
            raise ValueError(f"corrections must be at least 0, got {self.corrections}")
