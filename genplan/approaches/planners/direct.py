"""I/O and I/O + CoT: the whole plan in one answer, no world model (Gonzalez-Pumariaga et al., Sec. 4.1, Baselines).

"*I/O* (Huang et al., 2022a) takes a problem description and an in-context demonstration as
input, then generates a sequence of actions. *I/O + CoT* (Wei et al., 2022) builds on this by
incorporating a chain of thought component" whose in-context example tracks the state after
each action (Sec. 4.2.2, Question 3). The demonstration is the domain's smallest training problem
with an optimal plan from Fast Downward (A* with LM-cut), its states from the simulator; one
model call per problem, no world-model query. The plan is checked like any other plan.
"""

from __future__ import annotations

from dataclasses import dataclass

from genplan.approaches.planners.answers import fenced_plan, find_actions
from genplan.approaches.planners.prompts import Task
from genplan.approaches.planners.session import NO_PLAN, SOLVED_BY_METHOD, Outcome, Session
from genplan.errors import ConfigurationError
from genplan.pddl.problem import Problem
from genplan.plans.optimal import optimal_plan
from genplan.plans.world_model import WorldModel


@dataclass(frozen=True)
class Demonstration:
    """A solved example: a problem of the domain, a plan, and the state after each action."""

    problem: Problem
    plan: tuple[str, ...]
    states: tuple[str, ...]

    @classmethod
    def of(cls, problem: Problem) -> Demonstration:
        """``problem`` with an optimal plan (Fast Downward, A* with LM-cut).

        Raises:
            ConfigurationError: Fast Downward is missing, or found no plan.
        """
        answer = optimal_plan(problem, timeout=60.0)
        if answer.plan is None:
            raise ConfigurationError(
                f"no plan for the demonstration problem {problem.name} ({answer.message}); run without "
                "--demonstration"
            )
        world = WorldModel(problem)
        task = Task.of(problem)
        rollout = world.rollout(answer.plan)
        states = tuple(task.state(step.state) for step in rollout.steps)
        return cls(problem, tuple(answer.plan), states)


def prompt(task: Task, demonstration: Demonstration | None, chain_of_thought: bool) -> str:
    """The one prompt of I/O (``chain_of_thought=False``) or I/O + CoT."""
    parts = ["Solve a planning problem given in PDDL.", task.environment]
    if demonstration is not None:
        example = demonstration.problem.to_pddl().strip()
        if chain_of_thought:
            steps = "\n".join(
                f"{index}. {action} -> state: {state}"
                for index, (action, state) in enumerate(zip(demonstration.plan, demonstration.states), 1)
            )
            worked = f"Each action with the state it leads to:\n{steps}\nThe goal holds in the last state.\n"
        else:
            worked = ""
        plan = "\n".join(demonstration.plan)
        parts.append(
            f"Example: another problem of this domain, solved.\n```pddl\n{example}\n```\n{worked}```plan\n{plan}\n```"
        )
    if chain_of_thought:
        parts.append(
            "Think step by step: write each action with the state it leads to (the facts that change, in PDDL "
            f"form) and check the goal at the end. Then give the whole plan for problem {task.problem.name} in a "
            "fenced code block (```plan), one action per line."
        )
    else:
        parts.append(
            f"Give a plan for problem {task.problem.name}: the actions in order, one per line, in a fenced code "
            "block (```plan). Answer with the plan only."
        )
    return "\n\n".join(parts)


def solve_directly(session: Session, demonstration: Demonstration | None, chain_of_thought: bool) -> Outcome:
    """Ask once for the whole plan; return it unchecked (the runner checks every plan)."""
    answer = session.prompt(prompt(session.task, demonstration, chain_of_thought))
    operators = session.problem.domain.operators
    plan = fenced_plan(answer, operators)
    if plan is None and not chain_of_thought:
        plan = find_actions(answer, operators) or None
    session.note("answer", plan=plan)
    if plan is None:
        return Outcome(None, NO_PLAN, "the answer holds no plan in a fenced code block")
    return Outcome(plan, SOLVED_BY_METHOD)
