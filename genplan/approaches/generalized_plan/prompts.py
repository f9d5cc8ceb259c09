"""The prompting protocol of Silver et al. 2024, Sec. 4.1 and 4.2, as pure text builders.

Three prompts make the chain of thought (domain summary, strategy proposal, implementation);
four feedback messages drive automated debugging. Nothing here calls a model or runs code.

Departures from the paper's code, each fixing a defect its authors' logs show
(``shared/domains.md``, last section):

* objects of untyped domains are abbreviated per *kind* (the set of static unary predicates an
  object satisfies, e.g. ``ball``/``room``/``gripper``), not all in one group;
* feedback shows the problem that failed: in full when it is small, else abbreviated with
  every atom that mentions an object of the failing action kept.
* the implementation prompt ends with one sentence on the sandbox (which standard modules may
  be imported, no file access), so a correct program is not lost to an import the sandbox
  refuses; it says nothing about any domain.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.untrusted_text import shown_block

ABBREVIATION_LIMIT = 10
"""Objects per type and ground atoms per predicate shown before an ellipsis (Sec. 4.1)."""

FULL_TASK_ATOM_LIMIT = 250
"""Feedback shows a task in full up to this many initial-state and goal atoms."""

PLAN_DISPLAY_LIMIT = 200
"""Actions of a returned plan shown in feedback before the rest is elided."""

ALLOWED_MODULES_NOTE = (
    "The function runs in a restricted Python environment: it may import only these standard "
    "modules: collections, itertools, heapq, math, functools, re, copy, bisect, operator, string, "
    "typing, dataclasses, random, enum, statistics, fractions; it cannot read or write files."
)

SUMMARY_QUESTION = "Write a short summary of this domain in words."
STRATEGY_PROMPT = (
    "There is a simple strategy for solving all problems in this domain without using search. "
    "What is that strategy?"
)
NO_COT_STRATEGY_SENTENCE = (
    "There is a simple strategy for solving all problems in this domain without using search."
)
FIX_THE_CODE = "Fix the code."
TIMEOUT_NOTE = "The code was interrupted because it timed out (possible infinite loop)."


def _atom_text(atom: Atom) -> str:
    return "(" + " ".join(atom) + ")"


def _object_groups(problem: Problem) -> dict[str, list[str]]:
    """Objects grouped by type; untyped domains group by the static unary predicates true of them."""
    groups: dict[str, list[str]] = defaultdict(list)
    if problem.domain.typed:
        for obj, type_name in problem.object_types.items():
            groups[type_name].append(obj)
    else:
        # Static unary predicates (never added or deleted) play the part of types.
        changing = {
            atom[0]
            for operator in problem.domain.operators.values()
            for atom in (*operator.add_effects, *operator.delete_effects)
        }
        kinds: dict[str, list[str]] = defaultdict(list)
        for atom in problem.init:
            if len(atom) == 2 and atom[0] not in changing:
                kinds[atom[1]].append(atom[0])
        for obj in problem.object_types:
            groups[" ".join(sorted(kinds.get(obj, [])))].append(obj)
    return {key: sorted(objs, key=_natural_key) for key, objs in sorted(groups.items())}


def _natural_key(text: str) -> tuple[object, ...]:
    parts: list[object] = []
    number = ""
    word = ""
    for char in text:
        if char.isdigit():
            if word:
                parts.append(word)
                word = ""
            number += char
        else:
            if number:
                parts.append(int(number))
                number = ""
            word += char
    if number:
        parts.append(int(number))
    if word:
        parts.append(word)
    return tuple((0, p) if isinstance(p, int) else (1, p) for p in parts)


def _atom_key(atom: Atom) -> tuple[object, ...]:
    return (atom[0], *(_natural_key(a) for a in atom[1:]))


def _abbreviated_atoms(atoms: Iterable[Atom], limit: int | None, keep: set[str]) -> list[str]:
    by_predicate: dict[str, list[Atom]] = defaultdict(list)
    for atom in atoms:
        by_predicate[atom[0]].append(atom)
    lines: list[str] = []
    for predicate in sorted(by_predicate):
        group = sorted(by_predicate[predicate], key=_atom_key)
        if limit is None or len(group) <= limit:
            lines.extend(_atom_text(a) for a in group)
            continue
        shown = group[:limit]
        shown += [a for a in group[limit:] if keep.intersection(a[1:])]
        lines.extend(_atom_text(a) for a in sorted(set(shown), key=_atom_key))
        lines.append("...")
    return lines


def problem_text(
    problem: Problem, *, limit: int | None = ABBREVIATION_LIMIT, keep: Iterable[str] = ()
) -> str:
    """PDDL text of ``problem`` as the model sees it, abbreviated as in Sec. 4.1.

    Args:
        problem: the problem to show.
        limit: objects per type and ground atoms per predicate shown before ``...``; ``None``
            shows everything.
        keep: objects whose atoms stay visible whatever the limit (used in feedback so the
            model sees the part of the task its program failed on).

    Returns:
        PDDL-like text: ``(define (problem ...) (:domain ...) (:objects ...) (:init ...) (:goal ...))``.
    """
    keep_set = set(keep)
    object_lines = []
    for key, objs in _object_groups(problem).items():
        if limit is not None and len(objs) > limit:
            shown = objs[:limit] + [o for o in objs[limit:] if o in keep_set]
            text = " ".join(shown) + " ..."
        else:
            text = " ".join(objs)
        object_lines.append(f"    {text} - {key}" if problem.domain.typed else f"    {text}")
    init_lines = [f"    {line}" for line in _abbreviated_atoms(problem.init, limit, keep_set)]
    goal_lines = [f"      {line}" for line in _abbreviated_atoms(problem.goal, limit, keep_set)]
    return "\n".join(
        [
            f"(define (problem {problem.name}) (:domain {problem.domain.name})",
            "  (:objects",
            *object_lines,
            "  )",
            "  (:init",
            *init_lines,
            "  )",
            "  (:goal (and",
            *goal_lines,
            "  ))",
            ")",
        ]
    )


def task_text_for_feedback(problem: Problem, keep: Iterable[str] = ()) -> str:
    """The task shown in feedback: in full if small, else abbreviated keeping ``keep``'s atoms."""
    small = len(problem.init) + len(problem.goal) <= FULL_TASK_ATOM_LIMIT
    return problem_text(problem, limit=None if small else ABBREVIATION_LIMIT, keep=keep)


def _contract(typed: bool) -> str:
    objects_line = (
        "    • objects is a set of (object name, type name) tuples"
        if typed
        else "    • objects is a set of object names (this domain has no object types)"
    )
    return "\n".join(
        [
            "def get_plan(objects, init, goal):",
            "    # Your code here",
            "    return plan",
            "where",
            "",
            objects_line,
            "    • init is a set of ground atoms represented as tuples of predicate names and arguments "
            "(e.g., ('predicate-foo', 'object-bar', ...))",
            "    • goal is also a set of ground atoms represented in the same way",
            "    • plan is a list of actions, where each action is a ground operator represented as a "
            "string (e.g., '(operator-baz object-qux ...)')",
            "",
            ALLOWED_MODULES_NOTE,
        ]
    )


def domain_and_examples(domain_pddl: str, examples: Sequence[Problem]) -> str:
    """The opening of the first prompt: the domain and the abbreviated example problems."""
    shown = "\n\n".join(problem_text(p) for p in examples)
    return f"Domain:\n{domain_pddl.strip()}\n\nExample problems:\n{shown}"


def summary_prompt(domain_pddl: str, examples: Sequence[Problem]) -> str:
    """Sec. 4.1, domain summarization: domain, two abbreviated training tasks, the question."""
    return f"{domain_and_examples(domain_pddl, examples)}\n\n{SUMMARY_QUESTION}"


def implementation_prompt(typed: bool) -> str:
    """Sec. 4.1, strategy implementation: the exact ``get_plan`` contract."""
    return "Implement the strategy as a Python function. The code should be of the form\n" + _contract(typed)


def no_cot_prompt(domain_pddl: str, examples: Sequence[Problem], typed: bool) -> str:
    """Sec. 5.1, "No CoT": the three prompts merged without the summary and strategy questions."""
    return "\n\n".join(
        [
            domain_and_examples(domain_pddl, examples),
            NO_COT_STRATEGY_SENTENCE,
            implementation_prompt(typed),
        ]
    )


def plan_display(plan: Sequence[str]) -> str:
    """A returned plan as the model sees it: the Python list, elided past :data:`PLAN_DISPLAY_LIMIT`."""
    if len(plan) <= PLAN_DISPLAY_LIMIT:
        return repr(list(plan))
    head = repr(list(plan[:PLAN_DISPLAY_LIMIT]))[:-1]
    return f"{head}, ...] ({len(plan)} actions in all)"


def exception_feedback(task: str, traceback: str) -> str:
    """Sec. 4.2, Python exception: the task, the full traceback, "Fix the code."."""
    return f"Given this task: {task}\nThe code raised the following exception:\n{shown_block(traceback.strip())}\n{FIX_THE_CODE}"


def timeout_feedback(task: str, traceback: str | None, seconds: float) -> str:
    """Sec. 4.2, timeout: the interrupted traceback and the possible-infinite-loop note."""
    where = (
        f"The code raised the following exception:\n{shown_block(traceback.strip())}\n"
        if traceback
        else f"The code did not respond to the interrupt after {seconds:g} seconds and was stopped.\n"
    )
    return f"Given this task: {task}\n{where}{TIMEOUT_NOTE}\n{FIX_THE_CODE}"


def syntax_feedback(task: str, output: str, message: str, valid_operators: str) -> str:
    """Sec. 4.2, plan syntax: the returned output, what is wrong, the valid operators."""
    return (
        f"Given this task: {task}\nThe code returned this plan:\n{output}\n"
        f"However, {message}. NOTE: the valid operators are: {valid_operators}.\n{FIX_THE_CODE}"
    )


def semantics_feedback(task: str, plan: Sequence[str], advice: str) -> str:
    """Sec. 4.2, plan semantics: the returned plan and VAL's plan repair advice."""
    return (
        f"Given this task: {task}\nThe code failed. It returned the following plan:\n"
        f"{plan_display(plan)}.\nNOTE: {advice.strip()}\n{FIX_THE_CODE}"
    )


def crash_feedback(task: str, reason: str) -> str:
    """A sandbox crash (memory, recursion, output limits): the reason in words."""
    return f"Given this task: {task}\nThe code crashed: {shown_block(reason.strip())}\n{FIX_THE_CODE}"


def no_code_feedback() -> str:
    """The answer held no Python code: ask for ``get_plan`` in a code block."""
    return (
        "The response did not contain any Python code. Implement the strategy as a Python "
        "function get_plan(objects, init, goal) in a ```python code block."
    )
