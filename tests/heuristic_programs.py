"""Canned heuristic programs for the heuristic approach's tests, and an in-process runner.

Test doubles, never results: each broken program has one defect the approach must catch, and
the runner does in the test's process what the sandbox does in a confined child (tests of the
approach's logic; the sandbox's own tests cover isolation).
"""

from __future__ import annotations

from typing import Any

from genplan.approaches.autotos.sandboxed import run_in_process as harness_in_process
from genplan.sandbox import CallOutcome, RunStatus

GOAL_COUNT = """
def make_heuristic(objects, init, goal):
    goal = frozenset(goal)

    def h(state):
        return len(goal - state)

    return h
"""
"""Goal atoms the state lacks: 0 exactly on goal states when every goal atom is a fluent."""

GOAL_COUNT_PLUS_ONE = GOAL_COUNT.replace("return len(goal - state)", "return len(goal - state) + 1")
"""Never 0, not even on a goal state (repair's counterexample)."""

BLIND = """
def make_heuristic(objects, init, goal):
    return lambda state: 0
"""
"""0 everywhere: usable, but 0 on every non-goal state (zero-off-goal counterexamples)."""

RAISES = """
def make_heuristic(objects, init, goal):
    def h(state):
        return 1 // (len(state) - len(state))
    return h
"""

RETURNS_STRING = """
def make_heuristic(objects, init, goal):
    return lambda state: "far"
"""

LOOPS = """
def make_heuristic(objects, init, goal):
    def h(state):
        while True:
            pass
    return h
"""

SWALLOWS = """
def make_heuristic(objects, init, goal):
    def h(state):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass
    return h
"""
"""Loops and swallows every interrupt: only the sandbox's own budget stops it."""

FACTORY_RAISES = """
def make_heuristic(objects, init, goal):
    return {}["missing"]
"""

NOT_CALLABLE = """
def make_heuristic(objects, init, goal):
    return 3
"""

INFINITE = """
def make_heuristic(objects, init, goal):
    return lambda state: float("inf")
"""


def fenced(code: str) -> str:
    """A model-style answer holding ``code`` in one Python block."""
    return f"Here is the heuristic.\n\n```python\n{code.strip()}\n```\n"


def run_in_process(source: str, harness: str, args: list[Any], timeout: float) -> CallOutcome:
    """What the sandbox does with a harness call, in this process (AutoToS's in-process runner,
    its outcome as the sandbox's: main thread only, no isolation, no overall budget)."""
    outcome = harness_in_process(source, harness, args, timeout)
    return CallOutcome(
        RunStatus(outcome.status), outcome.value, outcome.seconds, outcome.traceback, outcome.reason
    )
