"""The prompts of AutoToS (Cao et al., AAAI 2025, Sec. 4.1-4.5, Listing 1), as pure text builders.

* the system prompt of Sec. 4.1, verbatim, plus one sentence on what the sandbox allows;
* Step 1, two initial prompts (successor function, then goal test), each with an example input
  in the right format (Sec. 4.2); the domain is given as its PDDL, the state representation is
  documented with the example (see :mod:`genplan.approaches.autotos.states`);
* one feedback message per error category, worded as the paper's Listing 1: the failure, the
  example state and the offending or missing successors, "think step by step why ... then fix",
  and "Remember how you fixed the previous mistakes, if any. Keep the same function signature."

Every prompt is self-contained (a model that sees only the conversation can answer it) and
states what to answer. States are shown as Python literals; a successor is shown by how it
differs from its parent state, which is exact and much shorter than the full set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from genplan.approaches.autotos.categories import Component, ErrorCategory
from genplan.approaches.autotos.states import State, objects_text, state_from_json, state_text
from genplan.pddl.problem import Problem
from genplan.plans.untrusted_text import shown_block

SYSTEM_PROMPT = (
    "You are a Python coding assistant. Help me generate my Python functions based on the task "
    "descriptions. Please always generate only a single function and keep all imports in it. If you need "
    "to define any additional functions, define them as inner functions. Do not generate examples of how "
    "to invoke the function. Please do not add any print statements outside the function. Provide the "
    "complete function and do not include any ellipsis notation.\n\n"
    "The function runs in a restricted Python environment: it may import only these standard modules: "
    "collections, itertools, heapq, math, functools, re, copy, bisect, operator, string, typing, "
    "dataclasses, random, enum, statistics, fractions; it cannot read or write files."
)
"""Sec. 4.1, verbatim, then the sandbox sentence the generalized-plan prompts also carry."""

REMEMBER = "Remember how you fixed the previous mistakes, if any. Keep the same function signature."
ANSWER_FORMAT = "Answer with the complete function in one Python code block."
SIGNATURE = {Component.SUCCESSOR: "successor_states(state, objects)", Component.GOAL: "is_goal(state, goal)"}
NAME = {Component.SUCCESSOR: "successor function", Component.GOAL: "goal test function"}


def representation_text(typed: bool) -> str:
    """How states and objects are represented (shared by both initial prompts)."""
    objects = (
        "a frozenset of (name, type) pairs of strings"
        if typed
        else "a frozenset of object names (strings); the domain has no types, so unary static predicates "
        "such as the kinds of objects appear in the state"
    )
    return (
        "A state of a problem of this domain is a Python set of ground atoms: exactly the atoms that are "
        "true in the state (every atom not in the set is false; facts no action changes are in every state). "
        "A ground atom is a tuple of strings, the predicate name first, then its arguments, e.g. "
        "('at', 'ball1', 'rooma'). The objects of a problem (domain constants included) are given as "
        f"{objects}."
    )


def successor_prompt(domain_pddl: str, example: Problem) -> str:
    """Step 1, the successor function (Sec. 4.2), with the example problem's objects and initial state."""
    return (
        "Here is a planning domain in PDDL:\n\n"
        f"```pddl\n{domain_pddl.strip()}\n```\n\n"
        f"{representation_text(example.domain.typed)}\n\n"
        "Example input, from a problem of this domain:\n\n"
        f"```python\nobjects = {objects_text(example.objects)}\nstate = {state_text(example.init)}\n```\n\n"
        "Provide the Python function successor_states(state, objects) that returns a list of the successor "
        "states of state: one for each ground action applicable in state, with the semantics of the PDDL "
        "domain (an action is applicable when its positive preconditions hold and its negative ones do not; "
        "its delete effects are removed, then its add effects added). Each successor state is a new set of "
        f"ground atoms. {ANSWER_FORMAT}"
    )


def goal_prompt(example: Problem) -> str:
    """Step 1, the goal test (Sec. 4.2), with the example problem's initial state and goal."""
    return (
        "Provide the Python function is_goal(state, goal) that returns True if state is a goal state and "
        "False otherwise. state is a set of ground atoms as above; goal is the set of ground atoms the "
        "problem's goal requires to be true.\n\n"
        "Example input, from the same problem:\n\n"
        f"```python\nstate = {state_text(example.init)}\ngoal = {state_text(example.goal)}\n```\n\n"
        f"{ANSWER_FORMAT}"
    )


def difference_text(parent: State, child: State) -> str:
    """``child`` described by its difference from ``parent``."""
    removed, added = parent - child, child - parent
    if not removed and not added:
        return "the input state itself (unchanged)"
    parts = []
    if removed:
        parts.append(f"without {state_text(removed)}")
    if added:
        parts.append(f"with {state_text(added)}")
    return "the input state " + " and ".join(parts)


def _input_lines(evidence: Mapping[str, Any], objects: Iterable[Any] | None) -> str:
    lines = []
    if objects is not None:
        lines.append(f"objects = {objects_text(objects)}")
    lines.append(f"state = {state_text(state_from_json(evidence['state']))}")
    if "goal" in evidence:
        lines.append(f"goal = {state_text(state_from_json(evidence['goal']))}")
    return "```python\n" + "\n".join(lines) + "\n```"


def feedback(
    evidence: Mapping[str, Any],
    objects: Iterable[Any],
    *,
    init: State | None = None,
    goal: State | None = None,
    walk_steps: int = 0,
) -> str:
    """The feedback message for a failure report from the harness (Listing 1).

    Args:
        evidence: the harness's report: ``category`` and the evidence for it (``state``,
            ``goal``, ``successor``, ``missing``, ``traceback``, ``reason``, ...).
        objects: the example problem's objects (shown to the successor function's feedback).
        init, goal: for a failed search, the example problem's initial state and goal.
        walk_steps: for a failed search, the length of the known solution path.

    Raises:
        ValueError: a category without feedback (``parse-error``: see :func:`parse_feedback`).
    """
    category = ErrorCategory(evidence["category"])
    component = category.component
    shown_objects = objects if component is Component.SUCCESSOR else None
    has_state = evidence.get("state") is not None
    state = state_from_json(evidence["state"]) if has_state else None
    given = f"Input:\n{_input_lines(evidence, shown_objects)}\n" if has_state else ""
    name = NAME[component]
    revise = f"Then provide the complete Python code for the revised {name}. {REMEMBER} {ANSWER_FORMAT}"
    if category in (ErrorCategory.GOAL_SOUNDNESS, ErrorCategory.GOAL_COMPLETENESS):
        wrong, right = (
            ("a goal state", "False")
            if category is ErrorCategory.GOAL_SOUNDNESS
            else ("not a goal state", "True")
        )
        return (
            f"The goal test function failed on the following input, incorrectly reporting that the state is "
            f"{wrong}.\n{given}First think step by step what it means for a state to be a goal state in this "
            f"domain. Then think through in words why the goal test function incorrectly reported this input "
            f"state as {wrong}. Now, revise the goal test function and ensure it returns {right} for the input "
            f"state. {REMEMBER} {ANSWER_FORMAT}"
        )
    if category in (ErrorCategory.SUCCESSOR_EXCEPTION, ErrorCategory.GOAL_EXCEPTION):
        trace = evidence.get("traceback") or evidence.get("reason") or ""
        where = " on the following input" if has_state else ""
        return (
            f"The {name} raised an exception{where}.\n{given}```\n{shown_block(str(trace).strip())}\n```\n"
            f"Let's think step by step. First think through in words why the {name} raised this exception. "
            f"{revise}"
        )
    if category in (ErrorCategory.SUCCESSOR_TIMEOUT, ErrorCategory.GOAL_TIMEOUT):
        return (
            f"The {name} took longer than {evidence.get('seconds', 1):g} s on the following input; it should "
            f"take a few milliseconds.\n{given}Let's think step by step. First think through in words why the "
            f"{name} is this slow (for example an infinite loop, unnecessary computation, or several steps "
            f"taken instead of one). {revise}"
        )
    if category in (ErrorCategory.SUCCESSOR_BAD_OUTPUT, ErrorCategory.GOAL_BAD_OUTPUT):
        got = f"\nThe offending value: {shown_block(str(evidence['got']))}" if evidence.get("got") else ""
        expected = (
            "a list of states, each a set of ground atoms (tuples of strings)"
            if component is Component.SUCCESSOR
            else "True or False"
        )
        return (
            f"The {name} returned a value of the wrong kind on the following input: "
            f"{shown_block(str(evidence.get('reason')))}."
            f"{got}\n{given}It must return {expected}. Let's think step by step. First think through in words "
            f"why the {name} returned this value. {revise}"
        )
    if category is ErrorCategory.INPUT_CHANGED:
        assert state is not None
        changes = []
        if evidence.get("removed"):
            changes.append(f"removed {state_text(state_from_json(evidence['removed']))} from it")
        if evidence.get("added"):
            changes.append(f"added {{{', '.join(evidence['added'])}}} to it")
        return (
            f"The successor function changed its input state: when run on the following input, it "
            f"{' and '.join(changes) or 'modified it'}. The input state must stay unchanged; every successor "
            f"must be a new set.\n{given}Let's think step by step. First think through in words why the "
            f"successor function modified the input state. {revise}"
        )
    if category is ErrorCategory.SUCCESSOR_SOUNDNESS:
        assert state is not None
        successor = state_from_json(evidence["successor"])
        reason = evidence.get("reason") or (
            "Invalid transition: the successor function produced a successor state that no single applicable "
            "action leads to."
        )
        return (
            f"{reason}\n{given}Example wrong successor state: {difference_text(state, successor)}.\n"
            "Let's think step by step. First think through in words why the successor function produced this "
            f"successor state. {revise}"
        )
    if category is ErrorCategory.SUCCESSOR_COMPLETENESS:
        assert state is not None
        return (
            f"Successor function when run on the following input failed to produce all successors.\n{given}"
            f"{_missing_text(state, evidence)}\nFirst think step by step why the successor function failed to "
            f"produce all successors of the state. Then, fix the successor function. {REMEMBER} {ANSWER_FORMAT}"
        )
    if category in (ErrorCategory.SEARCH_TIMEOUT, ErrorCategory.SEARCH_EXHAUSTED):
        return _search_feedback(
            category, evidence, objects, init or frozenset(), goal or frozenset(), walk_steps
        )
    raise ValueError(f"no feedback for category {category.value}")


def _missing_text(state: State, evidence: Mapping[str, Any]) -> str:
    missing = [state_from_json(m) for m in evidence.get("missing", [])]
    lines = [f"- {difference_text(state, m)}" for m in missing]
    more = evidence.get("missing_count", len(missing)) - len(missing)
    if more > 0:
        lines.append(f"- and {more} more")
    return "Missing successors are:\n" + "\n".join(lines)


def _search_feedback(
    category: ErrorCategory,
    evidence: Mapping[str, Any],
    objects: Iterable[Any],
    init: State,
    goal: State,
    walk_steps: int,
) -> str:
    if evidence.get("memory"):
        how = "ran out of memory before it reached a goal state"
    elif category is ErrorCategory.SEARCH_TIMEOUT:
        how = f"did not reach a goal state within {evidence.get('seconds', 0):g} s"
    else:
        how = "ran out of states to expand without reaching a goal state"
    start = (
        f"```python\nobjects = {objects_text(objects)}\nstate = {state_text(init)}\n"
        f"goal = {state_text(goal)}\n```\n"
    )
    text = (
        f"A search with the successor function and the goal test {how}, starting "
        "from the following state; a state where the goal holds is reachable from it"
        f"{f' in {walk_steps} steps' if walk_steps else ''}.\n{start}"
    )
    if evidence.get("state") is not None:
        state = state_from_json(evidence["state"])
        text += (
            f"On the way, the successor function run on the state\n```python\nstate = {state_text(state)}\n```\n"
            f"failed to produce a successor.\n{_missing_text(state, evidence)}\n"
            "First think step by step why the successor function failed to produce this successor. Then, fix "
            f"the successor function. {REMEMBER} {ANSWER_FORMAT}"
        )
    else:
        text += (
            "Let's think step by step. First think through in words why the search does not reach the goal (for "
            "example, successors that are not produced, or a successor function so slow that the search cannot "
            f"finish). Then provide the complete Python code for the revised successor function. {REMEMBER} "
            f"{ANSWER_FORMAT}"
        )
    return text


def parse_feedback(component: Component, problem: str) -> str:
    """Feedback for an answer without usable code (error category 10)."""
    return (
        f"Your answer could not be used: {problem}. Provide the complete function {SIGNATURE[component]} "
        "in one Python code block."
    )
