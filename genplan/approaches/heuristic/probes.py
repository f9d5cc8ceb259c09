"""Problems as the harness receives them, and the states every candidate heuristic is checked on.

A *probe* is a small training problem with states whose nature genplan knows: genplan's own
greedy best-first search with the goal-count heuristic finds a plan for it (trusted code, in
genplan's process), and the states along that plan are the probe's states: each is a state from
which a plan is known, every one but the last is not a goal state, and the last is. A heuristic
must give the goal state 0, and in a problem without action costs every non-goal state a value
> 0 (its optimal cost is at least 1), and no state on the plan ``math.inf`` (a plan leaves it).
Values that contradict this are *counterexamples* (:func:`counterexamples`), which counterexample
repair shows the model (after *Property-Guided LLM Program Synthesis for Planning*, arXiv
2605.16142, which checks generated heuristics against such properties on small problems).
When no plan is found within the budget the probe keeps the initial state alone.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from genplan.approaches.heuristic.gbfs import SearchStatus, State, gbfs, goal_count
from genplan.pddl.problem import Problem
from genplan.plans.costs import uses_action_costs
from genplan.plans.successors import SuccessorGenerator

PLAN_SECONDS = 5.0
"""Time limit of genplan's search for a probe's plan."""
PLAN_STATES = 50_000
"""States genplan's search for a probe's plan may reach."""
MAX_PROBE_STATES = 25
"""States kept per probe: the plan's states spread evenly, the first and the last included."""


def task_json(problem: Problem) -> dict[str, Any]:
    """``problem`` as the harness's ``task``: the successor generator over fluent states (with the
    static facts), and ``objects``, ``init`` and ``goal`` as ``make_heuristic`` receives them
    (the generalized plan's ``get_plan`` arguments: sorted JSON lists)."""
    from genplan.sandbox import program_arguments

    objects, init, goal = program_arguments(problem.objects, problem.init, problem.goal)
    generator = SuccessorGenerator.for_problem(problem, fluent=True)
    return {"generator": generator.to_json(), "objects": objects, "init": init, "goal": goal}


def state_json(state: State) -> list[list[str]]:
    """A state as JSON: its atoms as lists of strings, sorted."""
    return sorted(list(atom) for atom in state)


@dataclass(frozen=True)
class Probe:
    """A small training problem and states of it whose nature is known.

    Attributes:
        problem: the training problem.
        states: fluent states, the initial state first; with a known plan, states along it,
            its goal state last.
        plan_length: the known plan's length, or ``None`` when none was found.
        remaining: for each state, the known plan's actions left from it (``None`` without a plan).
        goals: for each state, whether it is a goal state.
    """

    problem: Problem
    states: tuple[State, ...]
    plan_length: int | None
    remaining: tuple[int | None, ...]
    goals: tuple[bool, ...]

    @property
    def unit_cost(self) -> bool:
        """Whether every action costs 1 (so a non-goal state's optimal cost is at least 1)."""
        return not uses_action_costs(self.problem)

    def to_json(self) -> dict[str, Any]:
        """What the run's details keep of the probe."""
        return {"problem": self.problem.name, "states": len(self.states), "plan_length": self.plan_length}

    def harness_json(self) -> dict[str, Any]:
        """The probe as :func:`genplan.approaches.heuristic.harness.values` takes it."""
        from genplan.sandbox import program_arguments

        objects, init, goal = program_arguments(self.problem.objects, self.problem.init, self.problem.goal)
        return {
            "objects": objects,
            "init": init,
            "goal": goal,
            "states": [state_json(s) for s in self.states],
        }


def _spread(count: int, keep: int) -> list[int]:
    """``keep`` indexes of ``range(count)`` spread evenly, the first and the last included."""
    if count <= keep:
        return list(range(count))
    return sorted({round(i * (count - 1) / (keep - 1)) for i in range(keep)})


def make_probe(problem: Problem) -> Probe:
    """The probe of ``problem`` (see the module's description)."""
    generator = SuccessorGenerator.for_problem(problem, fluent=True)
    init = generator.fluent(problem.init)
    goal = generator.fluent(frozenset(problem.goal))
    reachable = frozenset(problem.goal) - goal <= (generator.static_atoms or frozenset())

    def is_goal(state: State) -> bool:
        return reachable and goal <= state

    result = gbfs(
        generator.successors,
        init,
        goal,
        goal_count(goal),
        deadline=time.monotonic() + PLAN_SECONDS,
        max_states=PLAN_STATES,
    )
    if not reachable or result.status is not SearchStatus.PLAN_FOUND or result.plan is None:
        return Probe(problem, (init,), None, (None,), (is_goal(init),))
    states = [init]
    for action in result.plan:
        states.append(generator.apply(action, states[-1]))
    kept = _spread(len(states), MAX_PROBE_STATES)
    length = len(result.plan)
    kept_states = tuple(states[i] for i in kept)
    return Probe(
        problem, kept_states, length, tuple(length - i for i in kept), tuple(map(is_goal, kept_states))
    )


def make_probes(training: Sequence[Problem], count: int) -> list[Probe]:
    """The probes of the ``count`` smallest training problems (``training`` is smallest first)."""
    return [make_probe(problem) for problem in list(training)[:count]]


@dataclass(frozen=True)
class Counterexample:
    """A heuristic value that contradicts a property of a probe state.

    Attributes:
        probe: the probe's index.
        state: the state's index in the probe.
        kind: ``goal-not-zero`` (h > 0 on a goal state), ``zero-off-goal`` (h = 0 on a state
            that is not a goal state, in a problem without action costs), ``dead-end-on-plan``
            (h = inf on a state a known plan leaves).
        value: the heuristic's value (a float, or ``"inf"``).
    """

    probe: int
    state: int
    kind: str
    value: float | str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"probe": self.probe, "state": self.state, "kind": self.kind, "value": self.value}


def counterexamples(probes: Sequence[Probe], values: Sequence[Sequence[Any]]) -> list[Counterexample]:
    """Every value in ``values`` (per probe, per state, as the harness reports them) that
    contradicts a property of its state, in order."""
    found: list[Counterexample] = []
    for index, (probe, probe_values) in enumerate(zip(probes, values)):
        for state, value in enumerate(probe_values):
            goal = probe.goals[state]
            if goal and value != 0:
                found.append(Counterexample(index, state, "goal-not-zero", value))
            elif not goal and value == 0 and probe.unit_cost:
                found.append(Counterexample(index, state, "zero-off-goal", value))
            elif value == "inf" and probe.remaining[state] is not None:
                found.append(Counterexample(index, state, "dead-end-on-plan", value))
    return found
