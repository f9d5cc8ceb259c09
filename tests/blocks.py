"""Small Blocksworld problems written out by hand, for tests of the world model and the planners."""

from __future__ import annotations

from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import Problem, parse_problem_text
from genplan.pddl.problem_sets import DomainProblems

TOWER = """
(define (problem tower) (:domain blocksworld-4ops)
  (:objects a b c)
  (:init (on a b) (ontable b) (ontable c) (clear a) (clear c) (handempty))
  (:goal (and (on b c))))
"""
"""``a`` on ``b``, ``c`` alone; the goal ``b`` on ``c`` takes 4 actions: the OPTIMAL plan."""

OPTIMAL = ["(unstack a b)", "(put-down a)", "(pick-up b)", "(stack b c)"]

TWO_MOVES = """
(define (problem two) (:domain blocksworld-4ops)
  (:objects a b)
  (:init (ontable a) (ontable b) (clear a) (clear b) (handempty))
  (:goal (and (on a b))))
"""
"""Two blocks on the table; ``(pick-up a) (stack a b)`` solves it."""


def problem(text: str = TOWER) -> Problem:
    """The problem ``text`` over the built-in Blocksworld domain."""
    return parse_problem_text(text, load_domain(builtin_domain_file("blocksworld")))


def problem_set(*texts: str, optimal: dict[str, int] | None = None) -> DomainProblems:
    """A problem set whose evaluation problems are ``texts`` (default: TOWER), keyed by name."""
    problems = tuple(problem(text) for text in (texts or (TOWER,)))
    return DomainProblems(
        name="blocksworld",
        domain=problems[0].domain,
        training=(problem(TWO_MOVES),),
        evaluation_sources=problems,
        optimal_lengths=optimal or {},
    )
