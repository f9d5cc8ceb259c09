"""Differential test of genplan's successor generator against Pyperplan's grounding (the oracle).

Pyperplan (Alkhazraji et al., aibasel/pyperplan, GPL-3) is a test-only dependency, never imported
by genplan's package: its grounded task gives every applicable action and successor of a state
independently of genplan's joins. On random walks over training problems of the built-in domains
Pyperplan can read (STRIPS with types; not forest, whose domain has negative preconditions), the
two agree on every state (a walk that meets a dead end starts again): the same actions, each leading to the same state. Pyperplan's states
hold the fluent facts only, as genplan's generator built with the static facts does
(``SuccessorGenerator.for_problem(problem, fluent=True)``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from genplan.paths import builtin_domain_file
from genplan.pddl.domain import Atom
from genplan.pddl.problem_sets import load_domain_problems
from genplan.plans.successors import SuccessorGenerator

pyperplan_grounding = pytest.importorskip("pyperplan.grounding")
pyperplan_parser = pytest.importorskip("pyperplan.pddl.parser")

PYPERPLAN_DOMAINS = (
    "blocksworld",
    "delivery",
    "ferry",
    "gripper",
    "heavy",
    "logistics",
    "miconic",
    "spanner",
)
"""The built-in domains Pyperplan parses (forest has negative preconditions, which it does not support)."""


def pyperplan_task(domain_file: Path, problem_file: Path) -> object:
    """Pyperplan's grounded task, every operator kept (no relevance analysis, which drops actions)."""
    parser = pyperplan_parser.Parser(str(domain_file), str(problem_file))
    domain = parser.parse_domain()
    return pyperplan_grounding.ground(
        parser.parse_problem(domain),
        remove_statics_from_initial_state=True,
        remove_irrelevant_operators=False,
    )


def fact_atom(fact: str) -> Atom:
    """Pyperplan's ``"(at ball1 rooma)"`` as genplan's ``("at", "ball1", "rooma")``."""
    return tuple(fact.strip("()").split())


def pyperplan_successors(task: object, state: frozenset[Atom]) -> set[tuple[Atom, frozenset[Atom]]]:
    facts = frozenset(f"({' '.join(atom)})" for atom in state)
    return {
        (fact_atom(operator.name), frozenset(map(fact_atom, successor)))
        for operator, successor in task.get_successor_states(facts)  # type: ignore[attr-defined]
    }


@pytest.mark.parametrize("domain", PYPERPLAN_DOMAINS)
def test_the_successor_generator_agrees_with_pyperplan_on_random_walks(domain: str, tmp_path: Path) -> None:
    problems = load_domain_problems(domain, 0, 1, tmp_path)
    rng = random.Random(f"pyperplan/{domain}")
    compared = 0
    for problem in problems.training[:3]:
        assert problem.source is not None
        task = pyperplan_task(builtin_domain_file(domain), problem.source)
        facts = frozenset(map(fact_atom, task.facts))  # type: ignore[attr-defined]
        generator = SuccessorGenerator.for_problem(problem, fluent=True)
        state = generator.fluent(problem.init)
        assert state & facts == frozenset(map(fact_atom, task.initial_state))  # type: ignore[attr-defined]
        for _ in range(30):
            ours = {(action, successor & facts) for action, successor in generator.successors(state)}
            assert ours == pyperplan_successors(task, state & facts), (problem.name, sorted(state))
            compared += 1
            # A dead end starts the walk again from the initial state.
            state = rng.choice(generator.successors(state))[1] if ours else generator.fluent(problem.init)
    assert compared == 90
