"""The bottom-up successor of the policy search: a rule induced from a plan the policy does not follow
(Yang et al. 2022; the paper's released search adds it to the two top-down successors).

The two top-down successors (add a rule with an operator's preconditions, add one literal to a
rule) reach a rule with several conditions one literal at a time, and the score may not improve
until the last literal is in. The bottom-up successor proposes such a rule in one step, from an
example plan of a training problem (PG3: the plan policy-guided planning found for the policy;
PE: plain A*'s plan; PC: the planner's plan):

1. take the example with the shortest plan among those where the policy would act otherwise at
   some step, and in it the last such step ``i``: its ground action is the rule's action;
2. follow the plan's causal links forward from step ``i`` (an action's add effect that a later
   action needs) to the nearest step that achieves goal atoms not true before it: the goal the
   action at ``i`` serves (the triangle-table reading of a plan, Fikes, Hart and Nilsson 1972);
3. the rule's conditions are the action's preconditions, that goal (as goal literals, and as
   negative state literals: not yet achieved) and the atoms of the state at ``i`` that actions
   on the causal path from ``i`` to that goal need, over the objects of the action and the goal;
   when that rule would choose another action at ``i``, the objects of the first action on the
   path that brings new ones are added, with their atoms (once: widening further along the path
   gives rules that encode the path's shape, k steps ahead, which fit the training problems and
   not others, as in Forest);
4. every object (domain constants aside) becomes a variable, and the rule is inserted just before
   the first rule that applies at ``i`` (at the end when none does), so it acts there.

The child is one policy among the others; the score decides whether the search keeps it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from genplan.approaches.pg3.matching import PolicyMatcher
from genplan.approaches.pg3.policy import DecisionList, Literal, Rule
from genplan.pddl.domain import Atom, Operator
from genplan.pddl.problem import Problem


@dataclass(frozen=True)
class Example:
    """A plan to induce rules from.

    Attributes:
        problem: the training problem.
        matcher: its policy matcher (shared with the score, so matches are remembered once).
        states: the state before each action (``states[k]`` before ``actions[k]``).
        actions: the plan's ground actions.
    """

    problem: Problem
    matcher: PolicyMatcher
    states: tuple[frozenset[Atom], ...]
    actions: tuple[Atom, ...]


@dataclass(frozen=True)
class _Step:
    needs: frozenset[Atom]
    adds: frozenset[Atom]


def _grounding(operator: Operator, action: Atom) -> Callable[[Atom], Atom]:
    """Grounds ``operator``'s lifted atoms with ``action``'s arguments (constants stay)."""
    binding = dict(zip((v for v, _ in operator.parameters), action[1:]))
    return lambda atom: (atom[0], *(binding.get(t, t) for t in atom[1:]))


def _ground(operator: Operator, action: Atom) -> _Step:
    ground = _grounding(operator, action)
    return _Step(
        frozenset(ground(a) for a in operator.positive_preconditions if a[0] != "="),
        frozenset(ground(a) for a in operator.add_effects),
    )


def _causal_links(steps: Sequence[_Step]) -> list[list[int]]:
    """``links[k]``: the later steps that need an atom step ``k`` adds (before another step re-adds it)."""
    links: list[list[int]] = [[] for _ in steps]
    for k, step in enumerate(steps):
        for atom in step.adds:
            for m in range(k + 1, len(steps)):
                if atom in steps[m].needs:
                    links[k].append(m)
                if atom in steps[m].adds:
                    break
    return [sorted(set(targets)) for targets in links]


def _served_goal(
    start: int, steps: Sequence[_Step], states: Sequence[frozenset[Atom]], goal: frozenset[Atom]
) -> tuple[int, frozenset[Atom], list[int]] | None:
    """The nearest step (by causal links from ``start``) that achieves goal atoms, those atoms, and
    the steps on causal paths from ``start`` to it (in plan order); ``None`` when none is reached."""
    links = _causal_links(steps)
    distance = {start: 0}
    queue = deque([start])
    while queue:
        k = queue.popleft()
        for m in links[k]:
            if m not in distance:
                distance[m] = distance[k] + 1
                queue.append(m)
    achieving = [
        (d, k, (steps[k].adds & goal) - states[k])
        for k, d in distance.items()
        if (steps[k].adds & goal) - states[k]
    ]
    if not achieving:
        return None
    _, target, achieved = min(achieving, key=lambda item: (item[0], item[1]))
    reaches = {target}
    for k in sorted(distance, reverse=True):
        if any(m in reaches for m in links[k]):
            reaches.add(k)
    path = sorted(reaches - {start})
    return target, achieved, path


def _objects(atoms: Sequence[Atom] | frozenset[Atom], constants: set[str]) -> set[str]:
    return {t for atom in atoms for t in atom[1:] if t not in constants}


def _lift(
    example: Example,
    step: int,
    achieved: frozenset[Atom],
    context: frozenset[Atom],
    important: set[str],
    name: str,
) -> Rule:
    """The rule for the action at ``step`` over the ``important`` objects (see the module)."""
    problem = example.problem
    domain = problem.domain
    constants = set(domain.constants)
    action = example.actions[step]
    operator = domain.operators[action[0]]
    variables: dict[str, str] = {}
    parameters: list[tuple[str, str]] = []

    def variable(obj: str, kind: str) -> str:
        if obj not in variables:
            variables[obj] = f"?v{len(variables)}"
            parameters.append((variables[obj], kind))
        return variables[obj]

    for obj, (_, kind) in zip(action[1:], operator.parameters):
        if obj not in constants:
            variable(obj, kind)
    kept = [atom for atom in sorted(context) if _objects([atom], constants) <= important]
    for atom in sorted(achieved) + kept:
        for obj in atom[1:]:
            if obj not in constants:
                variable(obj, problem.object_types[obj])

    def lifted(atom: Atom) -> Atom:
        return (atom[0], *(variables.get(t, t) for t in atom[1:]))

    ground = _grounding(operator, action)

    def own(atom: Atom) -> Atom:
        return lifted(ground(atom))

    conditions = {Literal(own(a), True, False) for a in operator.positive_preconditions if a[0] != "="}
    conditions |= {Literal(own(a), False, False) for a in operator.negative_preconditions if a[0] != "="}
    for atom in achieved:
        conditions.add(Literal(lifted(atom), True, True))
        conditions.add(Literal(lifted(atom), False, False))
    conditions |= {Literal(lifted(atom), True, False) for atom in kept}
    return Rule(name, tuple(parameters), tuple(sorted(conditions)), lifted(action))


def _failed_step(policy: DecisionList, examples: Sequence[Example]) -> tuple[Example, int] | None:
    chosen: tuple[Example, int] | None = None
    for example in examples:
        if chosen is not None and len(example.actions) >= len(chosen[0].actions):
            continue
        failed = [
            k
            for k, (state, action) in enumerate(zip(example.states, example.actions))
            if example.matcher.action(policy, state) != action
        ]
        if failed:
            chosen = (example, failed[-1])
    return chosen


def induced_child(policy: DecisionList, examples: Sequence[Example]) -> DecisionList | None:
    """``policy`` with one rule induced from ``examples`` (see the module), or ``None`` when the
    policy follows every example plan or the chosen step serves no goal atom."""
    found = _failed_step(policy, examples)
    if found is None:
        return None
    example, step = found
    problem = example.problem
    domain = problem.domain
    constants = set(domain.constants)
    steps = [_ground(domain.operators[a[0]], a) for a in example.actions]
    served = _served_goal(step, steps, example.states, problem.goal)
    if served is None:
        return None
    _, achieved, path = served
    state = example.states[step]
    action = example.actions[step]
    context = frozenset().union(*(steps[k].needs & state for k in path)) if path else frozenset()
    important = _objects([action], constants) | _objects(achieved, constants)
    used = {r.name for r in policy.rules}
    number = next(n for n in range(len(used) + 1) if f"{action[0]}-bu{n}" not in used)
    name = f"{action[0]}-bu{number}"
    rule = _lift(example, step, achieved, context, important, name)
    matcher = example.matcher
    if matcher.rule_action(rule, state) != action:
        for k in path:
            wider = important | _objects([example.actions[k]], constants)
            if wider != important:
                rule = _lift(example, step, achieved, context, wider, name)
                break
    position = next(
        (i for i, existing in enumerate(policy.rules) if matcher.rule_action(existing, state) is not None),
        len(policy.rules),
    )
    return DecisionList((*policy.rules[:position], rule, *policy.rules[position:]))
