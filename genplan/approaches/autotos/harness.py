"""Trusted harnesses that call the model's search components inside the sandbox child.

Each public function here is a sandbox *harness* (see :mod:`genplan.sandbox`): it is named by
import path (``"genplan.approaches.autotos.harness:goal_tests"``), called in the sandboxed child
as ``harness(namespace, *args)`` with the compiled program's globals and JSON arguments, and
returns JSON. Searches run here, inside one child, because they call the model's functions
millions of times (Cao et al., AAAI 2025, Sec. 4.4: "BFS extended with additional checks").

* :func:`goal_tests` — Step 2, the goal unit tests.
* :func:`search_check` — Step 3, the search on an example problem with its checks (1 s per
  call, input mutation, per-transition soundness, goal verdicts), or, with ``completeness``,
  the exact Step 4 over the states such a search expands.
* :func:`successor_tests` — Step 4 of the paper's partial mode: known successors of known states.
* :func:`solve` — the evaluation search; returns a plan whose actions are recovered by matching
  each transition against the PDDL model (the paper's successor function returns states only).

Everything the model's functions return is hostile: results are checked for exact types
(``list`` of ``set``/``frozenset`` of ``tuple`` of ``str``; ``bool``), sizes are capped, and a
failure comes back as data (category, offending state, traceback) for the feedback message.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from genplan.approaches.autotos.calls import (
    ComponentFailure,
    Components,
    atoms_ok,
    capped_repr,
)
from genplan.approaches.autotos.categories import ErrorCategory
from genplan.approaches.autotos.checks import TransitionChecks
from genplan.approaches.autotos.frontier import LevelWatch, depth_bound
from genplan.approaches.autotos.states import (
    State,
    objects_from_json,
    state_from_json,
    state_to_json,
)

MAX_MISSING_SHOWN = 5
"""Missing successors reported per completeness failure."""


def _canonical(state: State) -> tuple[tuple[str, ...], ...]:
    return tuple(sorted(state))


def goal_tests(
    namespace: dict[str, Any], source: str, cases: list[dict[str, Any]], call_seconds: float
) -> dict[str, Any]:
    """Step 2 (Sec. 4.3): ``is_goal`` on known goal and non-goal states.

    Args:
        cases: ``{"state": atoms, "goal": atoms, "expected": bool}`` each, in order.

    Returns:
        ``{"passed": bool, "tests": int, "failure": report or None}``; the first failure stops,
        and its report names the failing case's index as ``case``.
    """
    components = Components(namespace, source, frozenset(), call_seconds)
    try:
        for index, case in enumerate(cases):
            state, goal = state_from_json(case["state"]), state_from_json(case["goal"])
            try:
                verdict = components.is_goal(state, goal)
            except ComponentFailure as failure:
                failure.data["case"] = index
                raise
            if verdict != case["expected"]:
                category = ErrorCategory.GOAL_SOUNDNESS if verdict else ErrorCategory.GOAL_COMPLETENESS
                raise ComponentFailure(
                    category, state=state_to_json(state), goal=state_to_json(goal), case=index
                )
        return {"passed": True, "tests": len(cases), "failure": None}
    except ComponentFailure as failure:
        return {"passed": False, "tests": len(cases), "failure": failure.data}
    finally:
        components.close()


def _walk_states(checks: TransitionChecks, init: State, walk: list[list[str]]) -> list[State]:
    states = [init]
    for action in walk:
        states.append(checks.generator.apply(tuple(action), states[-1]))
    return states


def search_check(
    namespace: dict[str, Any], source: str, task: dict[str, Any], options: dict[str, Any]
) -> dict[str, Any]:
    """Step 3 (Sec. 4.4), or the exact Step 4: a search on one example problem with checks.

    Args:
        task: the example problem (:func:`genplan.approaches.autotos.examples.task_json`):
            generator, predicates, static predicates, objects, ``init``, ``goal`` and ``walk``,
            the actions of a random walk from ``init`` that reaches ``goal``.
        options: ``search`` (``bfs``/``dfs``), ``search_seconds``, ``call_seconds``,
            ``soundness`` (``None``, ``"exact"`` or ``"partial"``: the per-transition test),
            ``goal_verdicts`` (compare every ``is_goal`` verdict with the PDDL goal),
            ``completeness`` (check every expanded state's successors; the search then runs
            through ``max_expansions`` states instead of stopping at the goal).

    Returns:
        ``{"passed": bool, "failure": report or None, "outcome": "goal" | "timeout" |
        "exhausted" | "limit" | "memory" | "failure", "expanded": int, "generated": int,
        "seconds": float}``; running out of memory is a ``search-timeout`` failure marked
        ``memory``.
    """
    checks = TransitionChecks.from_json(task)
    objects = objects_from_json(task["objects"])
    init, goal = state_from_json(task["init"]), state_from_json(task["goal"])
    components = Components(namespace, source, objects, float(options["call_seconds"]))
    started = time.monotonic()
    deadline = started + float(options["search_seconds"])
    soundness = options.get("soundness")
    completeness = bool(options.get("completeness"))
    verdicts = bool(options.get("goal_verdicts"))
    limit = int(options.get("max_expansions") or 0)
    depth_first = options.get("search") == "dfs"
    counts = {"expanded": 0, "generated": 1}

    def goal_verdict(state: State) -> bool:
        verdict = components.is_goal(state, goal)
        if verdicts and verdict != (goal <= state):
            category = ErrorCategory.GOAL_SOUNDNESS if verdict else ErrorCategory.GOAL_COMPLETENESS
            raise ComponentFailure(category, state=state_to_json(state), goal=state_to_json(goal))
        return verdict

    def report(passed: bool, outcome: str, failure: dict[str, Any] | None) -> dict[str, Any]:
        return {
            "passed": passed,
            "failure": failure,
            "outcome": outcome,
            "seconds": time.monotonic() - started,
            **counts,
        }

    try:
        seen = {init}
        frontier = deque([init])
        found = init if not completeness and goal_verdict(init) else None
        outcome = "exhausted"
        while frontier and (found is None or completeness):
            if time.monotonic() > deadline:
                outcome = "timeout"
                break
            if limit and counts["expanded"] >= limit:
                outcome = "limit"
                break
            state = frontier.pop() if depth_first else frontier.popleft()
            produced = components.successors(state)
            counts["expanded"] += 1
            ordered = sorted(set(produced), key=_canonical)
            for successor in ordered:
                if soundness == "exact" and not checks.exact_soundness(state, successor):
                    raise ComponentFailure(
                        ErrorCategory.SUCCESSOR_SOUNDNESS,
                        state=state_to_json(state),
                        successor=state_to_json(successor),
                    )
                if soundness == "partial":
                    reason = checks.partial_soundness(state, successor)
                    if reason is not None:
                        raise ComponentFailure(
                            ErrorCategory.SUCCESSOR_SOUNDNESS,
                            state=state_to_json(state),
                            successor=state_to_json(successor),
                            reason=reason,
                        )
            if completeness:
                missing = sorted(checks.missing(state, set(ordered)), key=_canonical)
                if missing:
                    raise ComponentFailure(
                        ErrorCategory.SUCCESSOR_COMPLETENESS,
                        state=state_to_json(state),
                        missing=[state_to_json(m) for m in missing[:MAX_MISSING_SHOWN]],
                        missing_count=len(missing),
                    )
            for successor in ordered:
                if successor in seen:
                    continue
                seen.add(successor)
                counts["generated"] += 1
                if not completeness and goal_verdict(successor):
                    found = successor
                    break
                frontier.append(successor)
        if found is not None and not goal <= found:
            raise ComponentFailure(
                ErrorCategory.GOAL_SOUNDNESS, state=state_to_json(found), goal=state_to_json(goal)
            )
        if found is not None or completeness:
            return report(True, "goal" if found is not None else outcome, None)
        _diagnose(components, checks, init, goal, task.get("walk") or [], outcome)
        category = ErrorCategory.SEARCH_TIMEOUT if outcome == "timeout" else ErrorCategory.SEARCH_EXHAUSTED
        raise ComponentFailure(category, seconds=float(options["search_seconds"]))
    except ComponentFailure as failure:
        return report(False, "failure", failure.data)
    except MemoryError:
        evidence = {"category": ErrorCategory.SEARCH_TIMEOUT.value, "memory": True}
        return report(False, "memory", {**evidence, "seconds": float(options["search_seconds"])})
    finally:
        components.close()


def _diagnose(
    components: Components,
    checks: TransitionChecks,
    init: State,
    goal: State,
    walk: list[list[str]],
    outcome: str,
) -> None:
    """After a search that missed a goal the random walk reached: find the first walk step the
    successor function does not produce, or the walk's end that ``is_goal`` rejects.

    Raises:
        ComponentFailure: the step or state found (``search-timeout``/``search-exhausted``
            with a missing successor; ``goal-completeness`` for the end state).
    """
    states = _walk_states(checks, init, walk)
    category = ErrorCategory.SEARCH_TIMEOUT if outcome == "timeout" else ErrorCategory.SEARCH_EXHAUSTED
    for state, successor in itertools.pairwise(states):
        if successor == state:
            continue
        if successor not in set(components.successors(state)):
            raise ComponentFailure(
                category, state=state_to_json(state), missing=[state_to_json(successor)], missing_count=1
            )
    if states[-1] != init and goal <= states[-1] and not components.is_goal(states[-1], goal):
        raise ComponentFailure(
            ErrorCategory.GOAL_COMPLETENESS, state=state_to_json(states[-1]), goal=state_to_json(goal)
        )


def successor_tests(
    namespace: dict[str, Any],
    source: str,
    task: dict[str, Any],
    cases: list[dict[str, Any]],
    call_seconds: float,
) -> dict[str, Any]:
    """Step 4 of the paper's protocol (Sec. 4.5): known states with (some of) their successors.

    Args:
        task: the example problem (only ``objects`` is used).
        cases: ``{"state": atoms, "successors": [atoms, ...]}`` each; every listed successor
            must be produced.

    Returns:
        ``{"passed": bool, "tests": int, "failure": report or None}``.
    """
    components = Components(namespace, source, objects_from_json(task["objects"]), call_seconds)
    try:
        for case in cases:
            state = state_from_json(case["state"])
            produced = set(components.successors(state))
            missing = sorted(
                (s for s in (state_from_json(item) for item in case["successors"]) if s not in produced),
                key=_canonical,
            )
            if missing:
                raise ComponentFailure(
                    ErrorCategory.SUCCESSOR_COMPLETENESS,
                    state=state_to_json(state),
                    missing=[state_to_json(m) for m in missing[:MAX_MISSING_SHOWN]],
                    missing_count=len(missing),
                )
        return {"passed": True, "tests": len(cases), "failure": None}
    except ComponentFailure as failure:
        return {"passed": False, "tests": len(cases), "failure": failure.data}
    finally:
        components.close()


def solve(
    namespace: dict[str, Any], source: str, task: dict[str, Any], options: dict[str, Any]
) -> dict[str, Any]:
    """Solve one problem by search over the model's components (Sec. 4.6, 5).

    Args:
        task: the problem (generator, objects, ``init``, ``goal``).
        options: ``search``, ``search_seconds``, ``call_seconds``.

    Returns:
        ``{"status": ..., "plan": [str] or None, "expanded": int, "generated": int,
        "seconds": float, "message": str or None}`` (``seconds``: the search's, as the child
        measured it; a problem's reported seconds are the worker's clock around the whole call,
        :mod:`genplan.approaches.autotos.evaluate`). Status ``plan-found`` (the plan still
        needs validating), ``search-timeout``, ``search-exhausted`` (no goal among the states
        the successor function reaches), ``search-memory``, ``unsound-transition`` (a step of
        the path found is no action's result), or a component failure's category.
    """
    started = time.monotonic()
    counts = {"expanded": 0, "generated": 1}

    def result(status: str, plan: list[str] | None = None, message: str | None = None) -> dict[str, Any]:
        return {
            "status": status,
            "plan": plan,
            "message": message,
            "seconds": time.monotonic() - started,
            **counts,
        }

    checks = TransitionChecks.from_json(task)
    components = Components(
        namespace, source, objects_from_json(task["objects"]), float(options["call_seconds"])
    )
    try:
        path = _search(components, task, options, counts, started, checks)
        if isinstance(path, Stopped):
            return result(path.status, message=path.message)
        if path is None or isinstance(path, str):
            return result(path or "search-exhausted")
        return _plan_of(checks, path, result)
    except ComponentFailure as failure:
        data = failure.data
        message = data.get("traceback") or data.get("reason")
        if data.get("state") is not None and len(data["state"]) <= 200:
            message = f"on state {data['state']}: {message}" if message else f"on state {data['state']}"
        return result(data["category"], message=message)
    except MemoryError:
        return result("search-memory", message="the search ran out of memory")
    finally:
        components.close()


def _search(
    components: Components,
    task: dict[str, Any],
    options: dict[str, Any],
    counts: dict[str, int],
    started: float,
    checks: TransitionChecks,
) -> list[State] | str | Stopped | None:
    """The plain search: a path of states to a goal, ``"search-timeout"``, a
    ``search-memory`` stop of a BFS whose levels cannot fit (:mod:`.frontier`), or ``None``."""
    init, goal = state_from_json(task["init"]), state_from_json(task["goal"])
    deadline = started + float(options["search_seconds"])
    depth_first = options.get("search") == "dfs"
    parents: dict[State, State | None] = {init: None}
    found = init if components.is_goal(init, goal) else None
    frontier = deque([init])
    watch = None if depth_first else LevelWatch.begin(depth_bound(goal, init, checks.generator.operators))
    in_level, next_level = 1, 0  # BFS: states of the level being expanded left, of the next found
    while frontier and found is None:
        if time.monotonic() > deadline:
            return "search-timeout"
        if watch is not None and in_level == 0:
            why = watch.level_done(next_level, len(parents))
            if why is not None:
                return Stopped("search-memory", why)
            in_level, next_level = next_level, 0
        in_level -= 1
        state = frontier.pop() if depth_first else frontier.popleft()
        counts["expanded"] += 1
        for successor in components.successors(state, check_mutation=False, check_atoms=False):
            if successor in parents:
                continue
            bad = atoms_ok(successor - state)  # the parent's atoms were checked already
            if bad is not None:
                raise ComponentFailure(
                    ErrorCategory.SUCCESSOR_BAD_OUTPUT,
                    state=state_to_json(state),
                    reason=f"a successor state contains {capped_repr(bad)}, not a tuple of strings",
                )
            parents[successor] = state
            counts["generated"] += 1
            if components.is_goal(successor, goal):
                found = successor
                break
            frontier.append(successor)
            next_level += 1
    if found is None:
        return None
    path = [found]
    while (previous := parents[path[-1]]) is not None:
        path.append(previous)
    return path[::-1]


@dataclass(frozen=True)
class Stopped:
    """A search that stopped early: its status (``search-memory``) and why."""

    status: str
    message: str


def _plan_of(
    checks: TransitionChecks, path: list[State], result: Callable[..., dict[str, Any]]
) -> dict[str, Any]:
    """The actions of ``path``: for each step, the first applicable ground action leading there."""
    plan: list[str] = []
    for state, successor in itertools.pairwise(path):
        action = next((a for a, s in checks.generator.successors(state) if s == successor), None)
        if action is None:
            removed, added = sorted(state - successor), sorted(successor - state)
            return result(
                "unsound-transition",
                message=f"step {len(plan) + 1} of the path found is no action's result: it removes "
                f"{removed[:10]} and adds {added[:10]}",
            )
        plan.append("(" + " ".join(action) + ")")
    return result("plan-found", plan=plan)
