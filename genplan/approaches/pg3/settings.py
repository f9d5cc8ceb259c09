"""Settings of the PG3, PE and PC approaches (defaults: the authors' released settings where they
give one, Yang et al. 2022)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PolicySearchSettings:
    """How the policy search runs; the three approaches differ only in the score.

    Attributes:
        max_policies: candidate policies scored before the search stops (the authors' released
            settings: 10 epochs of 100 candidates).
        max_seconds: wall-clock seconds of learning the policy, from the run's start: the
            set-up (each training problem's search prepared and planned with the empty policy,
            PC's example plans, the empty policy scored) and the search (ours; the released code
            has no limit). A set-up that outlasts it ends the learning with the empty policy
            (:mod:`~genplan.approaches.pg3.learning`).
        max_steps: the step bound of executing a policy, and PG3's charge for a training problem
            its guided search cannot solve (the released settings: 1000 for every domain but
            Delivery, 200, and Forest, 100; one bound for all here).
        rollout_steps: the policy's actions executed from each state policy-guided planning
            expands (the released settings: 50).
        planning_expansions: states policy-guided planning expands per training problem before
            the problem counts as unsolved (ours; keeps a bad candidate's score cheap).
        planner: PC's planner for the example plans: ``lama-first`` (Fast Downward's
            ``--alias lama-first``) or ``astar`` (Fast Downward's A* with LM-cut, optimal plans).
        planner_seconds: wall-clock seconds per training problem for PC's planner (at most what
            is left of ``max_seconds``).
        bottom_up: whether a policy's successors include the rule induced from an example plan
            the policy does not follow (:mod:`~genplan.approaches.pg3.bottom_up`; the paper's
            released search has such an operator besides the two top-down ones).
    """

    max_policies: int = field(
        default=1000, metadata={"help": "candidate policies scored before the search stops"}
    )
    max_seconds: float = field(
        default=1800.0,
        metadata={
            "help": "wall-clock seconds of learning the policy, set-up included, before the search stops"
        },
    )
    max_steps: int = field(default=1000, metadata={"help": "step bound of executing a policy"})
    rollout_steps: int = field(
        default=50, metadata={"help": "policy steps per expansion in policy-guided planning"}
    )
    planning_expansions: int = field(
        default=2000, metadata={"help": "states expanded per training problem by policy-guided planning"}
    )
    planner: str = field(
        default="lama-first", metadata={"help": "PC's planner for the example plans (lama-first or astar)"}
    )
    planner_seconds: float = field(
        default=60.0, metadata={"help": "seconds per training problem for PC's planner"}
    )
    bottom_up: bool = field(
        default=True, metadata={"help": "also induce a rule from an example plan the policy does not follow"}
    )
