"""What can go wrong with a model's search components, and in which phase it is found.

:class:`ErrorCategory` follows the ten error categories of AutoToS (Cao et al., AAAI 2025,
Sec. 6.1, Figure 4), each with its own feedback; genplan splits the goal test's failures into
soundness and completeness (Definition 1) and adds three kinds the paper's harness folded into
exceptions or time-outs. :class:`Phase` is the paper's partition of feedback (Figure 3): goal
test, successor soundness, successor completeness.
"""

from __future__ import annotations

from enum import Enum


class Phase(str, Enum):
    """The step of the protocol whose test sent a feedback message (Figure 3)."""

    GOAL = "goal"
    """Step 2, the goal unit tests, and goal-test failures found by the Step 3 search."""
    SUCCESSOR_SOUNDNESS = "successor-soundness"
    """Step 3, the soundness search with its checks."""
    SUCCESSOR_COMPLETENESS = "successor-completeness"
    """Step 4, the successor completeness test."""


class Component(str, Enum):
    """The two search components the model writes (Thought of Search)."""

    SUCCESSOR = "successor_states"
    GOAL = "is_goal"


class ErrorCategory(str, Enum):
    """Why a component failed a test; the value is used in records.

    The paper's categories (Sec. 6.1) are 1 ``successor-soundness``, 2 ``input-changed``,
    3 ``successor-completeness``, 4 ``goal-soundness`` and ``goal-completeness``,
    5 ``successor-exception``, 6 ``goal-exception``, 7 ``search-timeout``, 8
    ``successor-timeout``, 9 ``goal-timeout``, 10 ``parse-error``.
    """

    SUCCESSOR_SOUNDNESS = "successor-soundness"
    """A produced successor is no applicable action's result (exact) or fails the partial test."""
    INPUT_CHANGED = "input-changed"
    """``successor_states`` changed the state it was given."""
    SUCCESSOR_COMPLETENESS = "successor-completeness"
    """A successor some applicable action leads to was not produced."""
    GOAL_SOUNDNESS = "goal-soundness"
    """``is_goal`` said True for a state where the goal does not hold."""
    GOAL_COMPLETENESS = "goal-completeness"
    """``is_goal`` said False for a state where the goal holds."""
    SUCCESSOR_EXCEPTION = "successor-exception"
    GOAL_EXCEPTION = "goal-exception"
    SEARCH_TIMEOUT = "search-timeout"
    """The Step 3 search did not reach the example goal within the limit (the paper's
    "search timeout in succ soundness test")."""
    SEARCH_EXHAUSTED = "search-exhausted"
    """The Step 3 search ran out of states without reaching the example goal, which a random
    walk reached (genplan's; the paper's BFS either timed out or found a goal)."""
    SUCCESSOR_TIMEOUT = "successor-timeout"
    """One call of ``successor_states`` took longer than the limit (1 s)."""
    GOAL_TIMEOUT = "goal-timeout"
    """One call of ``is_goal`` took longer than the limit (1 s)."""
    SUCCESSOR_BAD_OUTPUT = "successor-bad-output"
    """``successor_states`` returned something other than a list of sets of ground atoms."""
    GOAL_BAD_OUTPUT = "goal-bad-output"
    """``is_goal`` returned something other than True or False."""
    PARSE_ERROR = "parse-error"
    """The answer held no code defining the requested function, or the code does not compile."""

    @property
    def component(self) -> Component:
        """The component that gets the feedback for this failure."""
        return Component.GOAL if self.value.startswith("goal") else Component.SUCCESSOR
