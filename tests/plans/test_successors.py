"""The successor generator agrees with the simulator on every ground action of the built-in domains."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from genplan.paths import builtin_domain_names
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import load_domain_problems
from genplan.plans.simulator import apply, unsatisfied_preconditions
from genplan.plans.successors import SuccessorGenerator


def _brute_force(problem: Problem, state: set[Atom]) -> list[Atom]:
    """Every tuple of objects of the right types, kept when the simulator finds no unmet precondition."""
    domain = problem.domain
    actions = []
    for name, operator in sorted(domain.operators.items()):
        choices = [
            [o for o, t in problem.object_types.items() if not domain.typed or domain.is_subtype(t, pt)]
            for _, pt in operator.parameters
        ]
        for arguments in itertools.product(*choices):
            if not unsatisfied_preconditions(operator, arguments, state):
                actions.append((name, *arguments))
    return sorted(actions)


def _small(problems: tuple[Problem, ...]) -> Problem:
    return min(problems, key=lambda p: len(p.object_types))


@pytest.mark.parametrize("domain", builtin_domain_names())
@pytest.mark.slow
def test_applicable_actions_and_successors_match_the_simulator(domain: str, tmp_path: Path) -> None:
    problem = _small(load_domain_problems(domain, 0, 1, tmp_path).training)
    generator = SuccessorGenerator.for_problem(problem)
    rng = random.Random(domain)
    state = set(problem.init)
    for _ in range(12):
        expected = _brute_force(problem, state)
        assert generator.applicable(frozenset(state)) == expected
        for action, successor in generator.successors(frozenset(state)):
            simulated = set(state)
            apply(problem.domain.operators[action[0]], action[1:], simulated)
            assert successor == frozenset(simulated)
        if not expected:
            break
        action = rng.choice(expected)
        apply(problem.domain.operators[action[0]], action[1:], state)


def test_the_generator_round_trips_through_json(tmp_path: Path) -> None:
    problem = _small(load_domain_problems("spanner", 0, 1, tmp_path).training)
    generator = SuccessorGenerator.for_problem(problem)
    again = SuccessorGenerator.from_json(generator.to_json())
    assert again.successors(problem.init) == generator.successors(problem.init)
    assert again.to_json() == generator.to_json()


def test_a_precondition_with_a_constant_and_equality_is_matched() -> None:
    from genplan.pddl.domain import parse_domain_text
    from genplan.pddl.problem import parse_problem_text

    domain = parse_domain_text(
        """(define (domain d) (:requirements :strips :equality :negative-preconditions)
        (:constants home)
        (:predicates (at ?x) (road ?a ?b))
        (:action go :parameters (?to) :precondition (and (at home) (road home ?to) (not (= ?to home)))
          :effect (and (not (at home)) (at ?to))))"""
    )
    problem = parse_problem_text(
        "(define (problem p) (:domain d) (:objects a b) (:init (at home) (road home a) (road home home)) "
        "(:goal (at a)))",
        domain,
    )
    generator = SuccessorGenerator.for_problem(problem)
    assert generator.applicable(problem.init) == [("go", "a")]
    assert generator.apply(("go", "a"), problem.init) == frozenset(
        {("at", "a"), ("road", "home", "a"), ("road", "home", "home")}
    )


@pytest.mark.parametrize("domain", builtin_domain_names())
def test_without_static_facts_the_successors_are_the_full_ones_less_the_static_facts(
    domain: str, tmp_path: Path
) -> None:
    problem = _small(load_domain_problems(domain, 0, 1, tmp_path).training)
    full = SuccessorGenerator.for_problem(problem)
    fluent = SuccessorGenerator.for_problem(problem, fluent=True)
    assert fluent.static_atoms is not None and fluent.static_atoms <= problem.init
    rng = random.Random(domain)
    state = frozenset(problem.init)
    for _ in range(15):
        expected = [(action, fluent.fluent(successor)) for action, successor in full.successors(state)]
        assert fluent.successors(fluent.fluent(state)) == expected
        if not expected:
            break
        state = rng.choice(full.successors(state))[1]


def test_a_negative_precondition_on_a_static_predicate_is_checked_against_the_static_facts() -> None:
    from genplan.pddl.domain import parse_domain_text
    from genplan.pddl.problem import parse_problem_text

    domain = parse_domain_text(
        """(define (domain d) (:requirements :strips :negative-preconditions)
        (:predicates (at ?x) (blocked ?x))
        (:action go :parameters (?from ?to) :precondition (and (at ?from) (not (blocked ?to)))
          :effect (and (not (at ?from)) (at ?to))))"""
    )
    problem = parse_problem_text(
        "(define (problem p) (:domain d) (:objects a b c) (:init (at a) (blocked b)) (:goal (at c)))", domain
    )
    generator = SuccessorGenerator.for_problem(problem, fluent=True)
    assert generator.static_atoms == {("blocked", "b")}
    assert generator.applicable({("at", "a")}) == [("go", "a", "a"), ("go", "a", "c")]
    again = SuccessorGenerator.from_json(generator.to_json())
    assert again.static_atoms == generator.static_atoms
    assert again.successors({("at", "a")}) == generator.successors({("at", "a")})
