"""Baselines of Silver et al. 2024, Sec. 5.1: a random walk and the LAMA-first planner."""

from genplan.baselines.lama import LamaResult, lama_available, run_lama
from genplan.baselines.random_walk import RandomWalkResult, applicable_actions, random_walk

__all__ = [
    "LamaResult",
    "RandomWalkResult",
    "applicable_actions",
    "lama_available",
    "random_walk",
    "run_lama",
]
