"""Running untrusted programs: :func:`run_untrusted` (any harness) and :func:`run_program` (get_plan).

Every run goes through a sandbox worker (:mod:`genplan.sandbox.pool`), a process started by
exec with a clean environment, inside bubblewrap unless ``Limits.isolation`` is ``none``. The
worker forks one child per run; the child confines itself (limits, an unprivileged user under
root, a seccomp filter), compiles the source under the policy (:mod:`genplan.sandbox.policy`),
runs its top level in a fresh module, and calls a *harness*: genplan's own function, named by
import path, that does the run's work with the program's functions and returns JSON.

The harness contract (for approaches that need the sandbox for other model-written code):

* ``harness(namespace, *args) -> value``, in a module under ``genplan.`` (the worker refuses
  any other), named ``"genplan.pkg.module:function"``; the sandbox never imports it here, so an
  approach's harness keeps the sandbox free of imports from approaches;
* ``namespace`` is the program module's globals; ``args`` are the request's JSON arguments;
  ``value`` must be JSON of exact types, and at most ``Limits.max_result_bytes`` as JSON;
* whatever the program returns is hostile: check exact types, copy before checking, cap sizes,
  raise :class:`genplan.sandbox.harness.BadOutput` for output of the wrong shape;
* a search that calls the program's functions many times runs inside one harness call.

When the budget runs out the worker sends ``SIGINT``, which raises ``KeyboardInterrupt`` inside
the program, and the child reports where it was interrupted; a child that does not answer
within a grace period is killed with its whole process group, and the outcome says so. What
comes back is JSON read with a size cap and a deadline: a program cannot run code in genplan's
process, make it wait past the budget, or make these functions raise.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from genplan.sandbox.channel import ChannelError
from genplan.sandbox.limits import Limits
from genplan.sandbox.outcome import CallOutcome, RunOutcome, RunStatus
from genplan.sandbox.pool import ANSWER_SLACK_SECONDS, POOL, answer_cap

GET_PLAN_HARNESS = "genplan.sandbox.harness:call_get_plan"


def _text(value: object) -> str | None:
    return value if type(value) is str else None


def _outcome(answer: Any, timeout: float) -> CallOutcome:
    """A worker's answer as a :class:`CallOutcome`, every field checked (malformed: ``CRASHED``)."""
    if type(answer) is not dict:
        return CallOutcome(RunStatus.CRASHED, reason="the sandbox worker sent a malformed answer")
    try:
        status = RunStatus(answer.get("status"))
    except ValueError:
        return CallOutcome(RunStatus.CRASHED, reason="the sandbox worker sent an unknown status")
    given = answer.get("seconds")
    seconds = (
        float(given)
        if (type(given) is int or type(given) is float) and math.isfinite(given) and given >= 0
        else 0.0
    )
    if status is RunStatus.TIMED_OUT:
        seconds = max(seconds, timeout)
    stdout = answer.get("stdout")
    return CallOutcome(
        status=status,
        value=answer.get("value") if status is RunStatus.SUCCESS else None,
        seconds=seconds,
        traceback=_text(answer.get("traceback")),
        reason=_text(answer.get("reason")),
        output=_text(answer.get("output")),
        stdout=stdout if type(stdout) is str else "",
    )


def run_untrusted(
    source: str,
    harness: str,
    args: list[Any],
    *,
    timeout: float = 30.0,
    limits: Limits | None = None,
) -> CallOutcome:
    """Compile ``source`` under the policy in a sandboxed child and call ``harness`` on it.

    Args:
        source: the untrusted Python source.
        harness: ``"genplan.module:function"``, called as ``function(namespace, *args)``
            (see the module docstring for the contract).
        args: JSON-ready arguments for the harness (tuples arrive as lists).
        timeout: the budget in seconds, counted from the child's start.
        limits: resource limits and isolation (defaults: 2 GiB, 1 MiB output, 64 MiB result,
            bubblewrap).

    Returns:
        A :class:`CallOutcome`. Never raises for anything the program does; a compile-time
        policy violation or syntax error is a ``RAISED`` outcome.

    Raises:
        IsolationUnavailable: no sandbox worker can start with ``limits.isolation``; the
            message says how to enable isolation.
        TypeError: ``args`` cannot be encoded as JSON.
    """
    limits = limits or Limits()
    request = {
        "source": source,
        "harness": harness,
        "args": args,  # JSON-encoded on sending: TypeError for anything JSON cannot hold
        "timeout": float(timeout),
        "limits": limits.to_json(),
    }
    worker = POOL.acquire(limits.isolation, limits.hash_seed)
    deadline = time.monotonic() + timeout + limits.grace_seconds + ANSWER_SLACK_SECONDS
    try:
        # A few values more than the result's limit: the answer's own fields.
        answer = worker.run(request, deadline, answer_cap(limits), limits.max_result_values + 64)
    except ChannelError as error:
        return CallOutcome(
            RunStatus.CRASHED, seconds=timeout, reason=f"the sandbox worker failed: {error.detail}"
        )
    finally:
        POOL.release(worker)
    return _outcome(answer, timeout)


def _plan_of(value: Any) -> list[str] | None:
    if type(value) is not dict:
        return None
    plan, seconds = value.get("plan"), value.get("seconds")
    if type(plan) is not list or not all(type(action) is str for action in plan):
        return None
    if not (type(seconds) is int or type(seconds) is float) or not math.isfinite(seconds) or seconds < 0:
        return None  # the harness's shape (its own timing, checked, never used: see run_program)
    return plan


def _order_key(item: Any) -> Any:
    return "\x00".join(item) if type(item) is tuple else item  # tuple order, compared faster


def _json_arguments(items: Iterable[Any], order: random.Random | None = None) -> list[Any]:
    """``items`` in a fixed order (so a program's sets iterate alike whatever genplan's hash
    seed), shuffled by ``order`` when given (the program's sets are built in that order)."""
    items = list(items)
    try:
        items = sorted(items, key=_order_key)
    except TypeError:  # not strings and tuples of strings
        items = sorted(items, key=repr)
    if order is not None:
        order.shuffle(items)
    return items


def program_arguments(
    objects: Iterable[Any], init: Iterable[Any], goal: Iterable[Any], order_seed: int | None = None
) -> list[list[Any]]:
    """A problem as the JSON arguments ``[objects, init, goal]`` of a ``get_plan`` harness.

    Sorted, so a program's sets iterate alike whatever genplan's own hash seed; shuffled by
    ``random.Random(order_seed)`` when a seed is given (robustness checks).
    """
    order = None if order_seed is None else random.Random(order_seed)
    return [_json_arguments(part, order) for part in (objects, init, goal)]


def run_program(
    source: str,
    objects: Iterable[Any],
    init: Iterable[Any],
    goal: Iterable[Any],
    *,
    timeout: float = 30.0,
    limits: Limits | None = None,
    order_seed: int | None = None,
) -> RunOutcome:
    """Run ``get_plan(objects, init, goal)`` of an untrusted program in the sandbox.

    Args:
        source: Python source defining ``get_plan``.
        objects, init, goal: the problem as ``get_plan`` receives it (Sec. 4.1): sets of
            strings or tuples of strings; the program gets its own sets.
        timeout: the budget in seconds (the paper's 30 s), counted from the child's start.
        limits: resource limits and isolation (see :func:`run_untrusted`); its ``hash_seed``
            fixes the order in which the program's sets iterate.
        order_seed: ``None`` builds the program's sets from sorted objects and atoms; a seed
            shuffles that order first (``random.Random(order_seed)``), for robustness checks.

    Returns:
        A :class:`RunOutcome` whose plan, on ``SUCCESS``, is a ``list`` of exact ``str``.
        Never raises for anything the program does.

    Raises:
        IsolationUnavailable: no sandbox worker can start (the message says how to fix it).
    """
    arguments = program_arguments(objects, init, goal, order_seed)
    call = run_untrusted(source, GET_PLAN_HARNESS, arguments, timeout=timeout, limits=limits)
    outcome = RunOutcome(
        call.status,
        seconds=call.seconds,
        traceback=call.traceback,
        reason=call.reason,
        output=call.output,
        stdout=call.stdout,
    )
    if call.status is not RunStatus.SUCCESS:
        return outcome
    plan = _plan_of(call.value)
    if plan is None:
        return replace(outcome, status=RunStatus.CRASHED, reason="the run sent a malformed plan")
    too_big = _plan_over_limits(plan, limits or Limits())
    if too_big is not None:
        return replace(outcome, status=RunStatus.BAD_OUTPUT, reason=too_big, output=None)
    # The worker's own clock (fork to answer), never the time the child claims get_plan took.
    return replace(outcome, plan=plan)


def _plan_over_limits(plan: list[str], limits: Limits) -> str | None:
    """Why ``plan`` is over the limits on what comes back (actions, characters), or ``None``."""
    if len(plan) > limits.max_plan_actions:
        return f"the plan has {len(plan):,} actions, over the limit of {limits.max_plan_actions:,} actions"
    for step, action in enumerate(plan):
        if len(action) > limits.max_action_chars:
            return (
                f"the action at step {step + 1} has {len(action):,} characters, over the limit of "
                f"{limits.max_action_chars:,} characters"
            )
    return None
