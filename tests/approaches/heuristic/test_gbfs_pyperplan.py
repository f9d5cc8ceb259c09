"""Differential test of genplan's greedy best-first search against Pyperplan's (the oracle).

Pyperplan (GPL-3) is a test-only dependency. Given the same heuristic (goal count, a function of
the state) and the same successor order (Pyperplan's operators sorted as genplan orders actions),
both searches must expand the same number of states and return the same plan: genplan's GBFS
makes Pyperplan's choices (FIFO ties, goal test on expansion, re-reached states, dead ends).
Pyperplan reports its expansions in a log line, which the test reads.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from genplan.approaches.heuristic.gbfs import SearchStatus, gbfs, goal_count
from genplan.paths import builtin_domain_file
from genplan.pddl.problem_sets import load_domain_problems
from genplan.plans.successors import SuccessorGenerator

pyperplan_search = pytest.importorskip("pyperplan.search")
pyperplan_grounding = pytest.importorskip("pyperplan.grounding")
pyperplan_parser = pytest.importorskip("pyperplan.pddl.parser")

DOMAINS = ("blocksworld", "delivery", "ferry", "gripper", "logistics", "miconic", "spanner")
"""Built-in domains Pyperplan reads whose training problems goal-count GBFS solves in a moment."""


def fact_atom(fact: str) -> tuple[str, ...]:
    return tuple(fact.strip("()").split())


@pytest.mark.parametrize("domain", DOMAINS)
def test_gbfs_expands_what_pyperplans_gbfs_expands_and_finds_the_same_plan(
    domain: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    problems = load_domain_problems(domain, 0, 1, tmp_path)
    for problem in problems.training[:4]:
        assert problem.source is not None
        parser = pyperplan_parser.Parser(str(builtin_domain_file(domain)), str(problem.source))
        parsed = parser.parse_domain()
        task = pyperplan_grounding.ground(parser.parse_problem(parsed), True, False)
        task.operators.sort(key=lambda operator: fact_atom(operator.name))  # genplan's action order
        caplog.clear()
        with caplog.at_level(logging.INFO):
            theirs = pyperplan_search.greedy_best_first_search(
                task, lambda node, goals=task.goals: len(goals - node.state)
            )
        counted = [int(m.group(1)) for m in re.finditer(r"(\d+) Nodes expanded", caplog.text)]

        generator = SuccessorGenerator.for_problem(problem, fluent=True)
        goal = generator.fluent(frozenset(problem.goal))
        ours = gbfs(generator.successors, generator.fluent(problem.init), goal, goal_count(goal))

        assert ours.status is SearchStatus.PLAN_FOUND and theirs is not None, problem.name
        assert [fact_atom(operator.name) for operator in theirs] == list(ours.plan or ()), problem.name
        assert counted == [ours.expanded], problem.name
