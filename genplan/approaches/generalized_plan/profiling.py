"""Trusted harnesses that time and line-profile ``get_plan`` inside the sandbox child.

They run in the confined child the sandbox worker forks (:mod:`genplan.sandbox.runner`
documents the harness contract), never in genplan's process: the untrusted program is only
ever called from here. What comes back is capped JSON of our own making (numbers, and line
numbers of the program's own source), never anything the program built.

* :func:`time_get_plan`: the best of several calls (the ``timeit`` rule: the minimum is the
  least disturbed by other processes), each on fresh argument sets, until a total time is
  spent or a number of calls is made;
* :func:`profile_get_plan`: how often each line of the program ran in one call (a
  ``sys.settrace`` line tracer that follows only frames whose code is the program's, so
  genplan's guards and the standard library are never counted), up to a cap of line events,
  after which tracing stops and the call finishes at full speed.

Line counts are deterministic for a given hash seed, unlike times, so the hottest lines are
chosen by count.
"""

from __future__ import annotations

import sys
import time
from types import FrameType
from typing import Any

from genplan.sandbox.harness import copy_plan, program_function, set_from_json
from genplan.sandbox.policy import PROGRAM_FILE_NAME

USAGE = "get_plan(objects, init, goal)"

MAX_HOT_LINES = 50
"""Lines a profile sends back at most (the most executed)."""


def _arguments(objects: list[Any], init: list[Any], goal: list[Any]) -> list[set[Any]]:
    return [set_from_json(part) for part in (objects, init, goal)]


def time_get_plan(
    namespace: dict[str, Any],
    objects: list[Any],
    init: list[Any],
    goal: list[Any],
    min_seconds: float,
    max_calls: int,
) -> dict[str, Any]:
    """Call ``get_plan`` until ``min_seconds`` are spent in it or ``max_calls`` calls are made.

    Returns:
        ``{"seconds": float, "calls": int, "plan_length": int}``: the fastest call's seconds,
        the calls made and the first call's plan length.

    Raises:
        NameError: no ``get_plan``; BadOutput: the first result is not a list of strings;
        BaseException: whatever ``get_plan`` raises.
    """
    get_plan = program_function(namespace, "get_plan", USAGE)
    best = float("inf")
    spent = 0.0
    calls = 0
    plan_length = 0
    while calls < max(1, int(max_calls)):
        arguments = _arguments(objects, init, goal)
        started = time.perf_counter()
        value = get_plan(*arguments)
        elapsed = time.perf_counter() - started
        if calls == 0:
            plan_length = len(copy_plan(value))
        best = min(best, elapsed)
        spent += elapsed
        calls += 1
        if spent >= min_seconds:
            break
    return {"seconds": best, "calls": calls, "plan_length": plan_length}


def profile_get_plan(
    namespace: dict[str, Any], objects: list[Any], init: list[Any], goal: list[Any], max_events: int
) -> dict[str, Any]:
    """Count how often each line of the program runs in one call of ``get_plan``.

    Returns:
        ``{"lines": [[line number, count], ...], "events": int, "complete": bool}``: at most
        :data:`MAX_HOT_LINES` lines, most executed first (ties by line number); the line
        events counted; whether the whole call was traced (``False`` once ``max_events``
        stopped the tracer).

    Raises:
        NameError: no ``get_plan``; BaseException: whatever ``get_plan`` raises.
    """
    get_plan = program_function(namespace, "get_plan", USAGE)
    counts: dict[int, int] = {}
    state = {"events": 0, "stopped": False}

    def local(frame: FrameType, event: str, _arg: object) -> Any:
        if state["stopped"]:
            return None
        if event == "line":
            counts[frame.f_lineno] = counts.get(frame.f_lineno, 0) + 1
            state["events"] += 1
            if state["events"] >= max_events:
                state["stopped"] = True
                sys.settrace(None)
                return None
        return local

    def calls(frame: FrameType, _event: str, _arg: object) -> Any:
        if state["stopped"] or frame.f_code.co_filename != PROGRAM_FILE_NAME:
            return None
        return local

    arguments = _arguments(objects, init, goal)
    sys.settrace(calls)
    try:
        get_plan(*arguments)
    finally:
        sys.settrace(None)
    hottest = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:MAX_HOT_LINES]
    return {
        "lines": [[line, count] for line, count in hottest],
        "events": int(state["events"]),
        "complete": not state["stopped"],
    }
