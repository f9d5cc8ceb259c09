"""The kinds of failure a candidate program can show on a training problem.

The four feedback kinds of Silver et al. 2024, Sec. 4.2 (Python exception, timeout, plan
syntax, plan semantics), the sandbox's own verdict for a child process that died, and a fifth
kind of feedback beyond the paper: scaling (a correct program projected to be too slow), and a
sixth: plan quality (a correct program whose plans cost too much more than optimal ones).
"""

from __future__ import annotations

from enum import Enum


class FailureKind(str, Enum):
    """What went wrong when a program ran on one problem; the value is used in JSON files."""

    PYTHON_EXCEPTION = "python-exception"
    """``get_plan`` raised; the feedback shows the traceback."""
    TIMEOUT = "timeout"
    """``get_plan`` ran past its time budget; the feedback shows where it was interrupted."""
    PLAN_SYNTAX = "plan-syntax"
    """The output is not a list of well-formed actions of this domain and problem."""
    PLAN_SEMANTICS = "plan-semantics"
    """The actions are well formed but the plan is not valid (VAL's plan repair advice)."""
    CRASHED = "crashed"
    """The sandboxed process died: memory, recursion, signal or output limits."""
    NO_CODE = "no-code"
    """The model's answer held no Python code (not a run of the program at all)."""
    SCALING = "scaling"
    """Every training problem was solved, but the measured times, extrapolated to the largest
    evaluation problem's size, exceed the budget (scaling feedback; never an evaluation status)."""
    PLAN_QUALITY = "plan-quality"
    """Every training problem was solved, but the plans cost more than optimal plans by more than
    the threshold (quality feedback; never an evaluation status)."""
