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

import itertools
import math
import random
import re
import threading
import time
import weakref
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


_CONTROL = re.compile(r"[\x00-\x1f]")


def _packed_part(items: Iterable[Any], order: random.Random | None) -> dict[str, Any] | None:
    """``items`` as :func:`_json_arguments` orders them, packed in runs of space-separated
    names (:func:`genplan.sandbox.harness.items_from_packed`); ``None`` when they cannot be.

    Packable: names (exact ``str``) or atoms (non-empty exact ``tuple`` of ``str``) whose names
    hold no space or control character, as every PDDL name. Then sorting by the space-joined atom
    is sorting by the tuple (a space sorts below every character a name holds), so the order is
    the plain path's exactly, and so is every set the program gets.
    """
    items = list(items)
    kinds = set(map(type, items))
    if kinds == {str}:
        ordered: list[Any] = sorted(items)
    elif kinds == {tuple} and all(items):
        try:
            ordered = sorted(items, key=" ".join)
        except TypeError:  # a name that is not a string
            return None
    else:
        return None  # empty, mixed, or of other types: the plain path
    if order is not None:
        order.shuffle(ordered)
    runs: list[list[Any]] = []
    if kinds == {str}:
        runs.append([0, len(ordered), " ".join(ordered)])
    else:
        for arity, group in itertools.groupby(ordered, len):
            atoms = list(group)
            runs.append([arity, len(atoms), " ".join(itertools.chain.from_iterable(atoms))])
    for arity, count, text in runs:
        if text.count(" ") != max(arity, 1) * count - 1 or _CONTROL.search(text):
            return None  # a name holds a space or a control character
    return {"packed": runs}


def packed_program_arguments(
    objects: Iterable[Any], init: Iterable[Any], goal: Iterable[Any], order_seed: int | None = None
) -> list[Any]:
    """:func:`program_arguments` for :data:`GET_PLAN_HARNESS`, each part packed where it can be.

    A packed part is ``{"packed": [[arity, count, "name name ..."], ...]}`` (arity 0: names,
    else atoms of that many names, one run per stretch of equal arity): three strings cross the
    channel instead of a JSON list per atom, and the child rebuilds the atoms in C
    (:func:`genplan.sandbox.harness.items_from_packed`). The program's sets hold the same items,
    built in the same order, as from :func:`program_arguments` (a part that cannot be packed is
    sent as it does); ``tests/sandbox/test_packed_arguments.py`` checks the two against each other.
    """
    order = None if order_seed is None else random.Random(order_seed)
    arguments: list[Any] = []
    for part in (objects, init, goal):
        items = list(part)
        state = order.getstate() if order is not None else None
        packed = _packed_part(items, order)
        if packed is None and order is not None:
            order.setstate(state)  # type: ignore[arg-type]  # the plain path shuffles afresh
        arguments.append(packed if packed is not None else _json_arguments(items, order))
    return arguments


_PACKED: weakref.WeakKeyDictionary[Any, list[Any]] = weakref.WeakKeyDictionary()
_PACKED_LOCK = threading.Lock()


def _arguments(
    objects: Iterable[Any], init: Iterable[Any], goal: Iterable[Any], order_seed: int | None, reuse_for: Any
) -> list[Any]:
    """The packed arguments, from ``_PACKED`` when ``reuse_for`` was given them before."""
    if reuse_for is None or order_seed is not None:
        return packed_program_arguments(objects, init, goal, order_seed)
    with _PACKED_LOCK:
        arguments = _PACKED.get(reuse_for)
    if arguments is None:
        arguments = packed_program_arguments(objects, init, goal)
        with _PACKED_LOCK:
            _PACKED[reuse_for] = arguments
    return arguments


def run_program(
    source: str,
    objects: Iterable[Any],
    init: Iterable[Any],
    goal: Iterable[Any],
    *,
    timeout: float = 30.0,
    limits: Limits | None = None,
    order_seed: int | None = None,
    reuse_for: Any = None,
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
        reuse_for: the problem these arguments are (a hashable object that takes weak
            references, such as a :class:`~genplan.pddl.problem.Problem`): its arguments are
            sorted and packed once, kept as long as it lives, and reused by every later call
            given it (or an equal object) without an ``order_seed``. Sorting is most of what a
            call costs outside the program on a large problem (1.2 s of 1.8 s on 434k atoms).

    Returns:
        A :class:`RunOutcome` whose plan, on ``SUCCESS``, is a ``list`` of exact ``str``.
        Never raises for anything the program does.

    Raises:
        IsolationUnavailable: no sandbox worker can start (the message says how to fix it).
    """
    arguments = _arguments(objects, init, goal, order_seed, reuse_for)
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
