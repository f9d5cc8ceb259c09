"""Unit tests and example problems for AutoToS, derived from a domain's training problems.

The paper's human expert writes, per domain, a few goal and non-goal states, a few states with
(some of) their successors, and picks example instances for the soundness search (Cao et al.,
AAAI 2025, Sec. 4 and Appendix A). genplan derives all of them from the PDDL model instead:

* an **example problem** starts at a training problem's initial state; a random walk of a few
  steps (seeded, never revisiting a state) reaches a state ``s_L``, and the example goal is
  every atom of ``s_L`` whose predicate the training problem's goal uses, so a sound and
  complete search reaches it within the walk's length, and the walk is a known solution path;
* **goal unit tests** (Step 2): ``s_L`` with its example goal and with the part of that goal
  the walk achieved (goal states); the initial state and the walk's last-but-one state with the
  example goal, and ``s_L`` with the training problem's own goal (non-goal states, unless the
  goal happens to hold);
* **successor unit tests** (Step 4 of the paper's partial mode): the initial state with all its
  successors, and every step of the walk (a single transition along a known solution path).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from genplan.approaches.autotos.states import State, objects_to_json, state_to_json
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.successors import SuccessorGenerator

WALK_ATTEMPTS = 200
"""Random walks tried per example problem."""


@dataclass(frozen=True)
class ExampleProblem:
    """A training problem's initial state with a goal a random walk reached.

    Attributes:
        problem: the training problem it comes from.
        goal: the example goal (ground atoms).
        walk: the walk's actions, in order.
        states: the walk's states, the initial state first, ``s_L`` last.
    """

    problem: Problem
    goal: State
    walk: tuple[Atom, ...]
    states: tuple[State, ...]

    @property
    def name(self) -> str:
        """The training problem's name."""
        return self.problem.name

    @property
    def init(self) -> State:
        """The initial state."""
        return self.states[0]


def _walk(
    generator: SuccessorGenerator, init: State, predicates: set[str], length: int, rng: random.Random
) -> list[tuple[Atom, State]] | None:
    """A random walk that never revisits a state, stopped at the first step from ``length`` on
    whose atoms of ``predicates`` are not all initial ones; ``None`` when no such step comes
    within ``3 * length`` steps."""
    steps: list[tuple[Atom, State]] = []
    seen = {init}
    state = init
    for index in range(3 * length):
        options = [(a, s) for a, s in generator.successors(state) if s not in seen]
        if not options:
            return None
        action, state = rng.choice(options)
        seen.add(state)
        steps.append((action, state))
        if index + 1 >= length and not {a for a in state if a[0] in predicates} <= init:
            return steps
    return None


def example_problem(problem: Problem, walk_length: int, seed: int) -> ExampleProblem:
    """The example problem made from ``problem`` (see the module docstring).

    The walk is the first of up to :data:`WALK_ATTEMPTS` seeded walks that, after at least
    ``walk_length`` steps, reaches a state with an atom of the goal's predicates that does not
    hold initially (it stops there); if none does, the training problem's own goal is used with
    an empty walk.
    """
    generator = SuccessorGenerator.for_problem(problem)
    rng = random.Random(f"autotos/{problem.name}/{seed}")
    init = frozenset(problem.init)
    predicates = {atom[0] for atom in problem.goal}
    for _ in range(WALK_ATTEMPTS):
        steps = _walk(generator, init, predicates, walk_length, rng)
        if steps is not None:
            end = steps[-1][1]
            goal = frozenset(a for a in end if a[0] in predicates)
            return ExampleProblem(problem, goal, tuple(a for a, _ in steps), (init, *(s for _, s in steps)))
    return ExampleProblem(problem, frozenset(problem.goal), (), (init,))


def example_problems(
    training: Sequence[Problem], count: int, walk_length: int, seed: int
) -> list[ExampleProblem]:
    """Example problems from the first ``count`` training problems (smallest first)."""
    return [example_problem(p, walk_length, seed) for p in list(training)[:count]]


def goal_cases(examples: Sequence[ExampleProblem]) -> list[dict[str, Any]]:
    """The goal unit tests (Step 2) as JSON: ``{"state", "goal", "expected", "example"}``,
    goal states first, then non-goal states, duplicates dropped."""
    goals: list[tuple[State, State, bool, str]] = []
    others: list[tuple[State, State, bool, str]] = []
    for example in examples:
        end = example.states[-1]
        achieved = frozenset(example.goal - example.init)
        goals.append((end, example.goal, example.goal <= end, example.name))
        if achieved:
            goals.append((end, achieved, achieved <= end, example.name))
        others.append((example.init, example.goal, example.goal <= example.init, example.name))
        if len(example.states) > 2:
            before = example.states[-2]
            others.append((before, example.goal, example.goal <= before, example.name))
        real = frozenset(example.problem.goal)
        others.append((end, real, real <= end, example.name))
    cases: list[dict[str, Any]] = []
    seen: set[tuple[State, State]] = set()
    for state, goal, expected, name in [*goals, *others]:
        if (state, goal) in seen:
            continue
        seen.add((state, goal))
        cases.append(
            {
                "state": state_to_json(state),
                "goal": state_to_json(goal),
                "expected": expected,
                "example": name,
            }
        )
    return cases


def successor_cases(example: ExampleProblem) -> list[dict[str, Any]]:
    """The successor unit tests of one example problem (the paper's Step 4) as JSON:
    ``{"state", "successors"}``; every listed successor must be produced."""
    generator = SuccessorGenerator.for_problem(example.problem)
    init = example.init
    everything = sorted({s for _, s in generator.successors(init) if s != init}, key=lambda s: sorted(s))
    cases = [{"state": state_to_json(init), "successors": [state_to_json(s) for s in everything]}]
    for state, successor in zip(example.states, example.states[1:]):
        cases.append({"state": state_to_json(state), "successors": [state_to_json(successor)]})
    return cases


def task_json(
    problem: Problem, init: State | None = None, goal: State | None = None, walk: Sequence[Atom] = ()
) -> dict[str, Any]:
    """What the harness needs to know about a problem, as JSON: the successor generator,
    predicates with their arities, static predicates, objects, initial state, goal and a walk."""
    return {
        "generator": SuccessorGenerator.for_problem(problem).to_json(),
        "predicates": {name: len(types) for name, types in problem.domain.predicates.items()},
        "static": problem.domain.static_predicates,
        "objects": objects_to_json(problem),
        "init": state_to_json(problem.init if init is None else init),
        "goal": state_to_json(problem.goal if goal is None else goal),
        "walk": [list(action) for action in walk],
    }


def example_task(example: ExampleProblem) -> dict[str, Any]:
    """:func:`task_json` for an example problem."""
    return task_json(example.problem, example.init, example.goal, example.walk)
