"""The additive heuristic h_add (Bonet and Geffner 2001) that guides policy-guided planning.

PG3's planner is A* with h_add on the problem's ground actions (Yang et al. 2022, Sec. 5). The
ground actions are those reachable in the delete relaxation from the initial state (negative
preconditions ignored), found once per problem; facts and actions are numbered so one
evaluation is a Dijkstra-like sweep over integer arrays that stops once every goal fact is
reached.
"""

from __future__ import annotations

import heapq
from collections.abc import Set as AbstractSet
from dataclasses import replace

from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.successors import SuccessorGenerator

INFINITE = float("inf")


class AdditiveHeuristic:
    """h_add for one problem: the sum over goal atoms of the cheapest relaxed cost to reach each.

    Args:
        problem: the problem (its init gives the reachable ground actions; its goal the target).
    """

    def __init__(self, problem: Problem):
        relaxed = [replace(o, negative_preconditions=()) for o in problem.domain.operators.values()]
        generator = SuccessorGenerator.for_problem(problem)
        relaxed_generator = SuccessorGenerator(relaxed, generator.type_objects)
        reached: set[Atom] = set(problem.init)
        actions: set[Atom] = set()
        while True:  # relaxed reachability: the add effects of every action applicable so far
            found = set(relaxed_generator.applicable(reached)) - actions
            if not found:
                break
            actions |= found
            for action in found:
                reached |= relaxed_generator.apply(action, frozenset())
        changing = problem.domain.fluent_predicates
        # static facts hold in every state: left out of preconditions, so a state is only its fluents
        self._ids: dict[Atom, int] = {}
        for atom in sorted(a for a in reached | set(problem.goal) if a[0] in changing):
            self._ids[atom] = len(self._ids)
        by_name = {o.name: o for o in problem.domain.operators.values()}
        self._preconditions: list[list[int]] = []
        self._adds: list[list[int]] = []
        self._consumers: list[list[int]] = [[] for _ in self._ids]
        for action in sorted(actions):
            operator = by_name[action[0]]
            binding = {v: a for (v, _), a in zip(operator.parameters, action[1:])}
            pre = sorted(
                {
                    self._ids[ground]
                    for a in operator.positive_preconditions
                    if a[0] in changing and (ground := tuple(binding.get(t, t) for t in a)) in self._ids
                }
            )
            add = sorted({self._ids[tuple(binding.get(t, t) for t in a)] for a in operator.add_effects})
            number = len(self._preconditions)
            self._preconditions.append(pre)
            self._adds.append(add)
            for fact in pre:
                self._consumers[fact].append(number)
        self._free = [a for a, pre in enumerate(self._preconditions) if not pre]
        self._goal = sorted(self._ids[g] for g in problem.goal if g in self._ids)
        self._unreachable_goal = any(g not in reached for g in problem.goal)

    def __call__(self, state: AbstractSet[Atom]) -> float:
        """h_add of ``state``: 0 at a goal state, ``inf`` when the relaxation cannot reach the goal."""
        if self._unreachable_goal:
            return INFINITE
        ids = self._ids
        cost = [INFINITE] * len(ids)
        zero: list[int] = []
        for atom in state:
            fact = ids.get(atom)
            if fact is not None:
                cost[fact] = 0.0
                zero.append(fact)
        waiting = [len(pre) for pre in self._preconditions]
        summed = [0.0] * len(self._preconditions)
        queue: list[tuple[float, int]] = []
        for action in self._free:
            for fact in self._adds[action]:
                if cost[fact] > 1.0:
                    cost[fact] = 1.0
                    queue.append((1.0, fact))
        heapq.heapify(queue)
        goals = set(self._goal)
        remaining = len(goals)
        done = [False] * len(ids)
        consumers, adds = self._consumers, self._adds
        while (zero or queue) and remaining:
            if zero:  # facts of the state first: cost 0, no ordering needed
                value, fact = 0.0, zero.pop()
            else:
                value, fact = heapq.heappop(queue)
            if done[fact]:
                continue
            done[fact] = True
            if fact in goals:
                remaining -= 1
            for action in consumers[fact]:
                waiting[action] -= 1
                summed[action] += value
                if waiting[action] == 0:
                    reach = summed[action] + 1.0
                    for added in adds[action]:
                        if reach < cost[added]:
                            cost[added] = reach
                            heapq.heappush(queue, (reach, added))
        return sum(cost[g] for g in self._goal)
