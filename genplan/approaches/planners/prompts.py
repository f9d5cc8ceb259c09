"""Prompt pieces every LLM-as-planner method shares: the task in PDDL, states, actions, trajectories.

The papers describe the environment in natural language (Gonzalez-Pumariaga et al. translate PDDL states and
goals with GPT-4 first, App. A.4.1-A.4.2; SymPlanner writes Blocksworld's rules in words,
App. A). genplan shows the PDDL domain and problem as they are, for any domain, and states as
PDDL atoms: no translation calls, nothing lost in translation, and every prompt is
self-contained (it is all a model answering through the ``files`` backend sees). States list
only the facts that can change (predicates some operator adds or deletes); the problem's other
facts hold throughout and are in its ``:init``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.simulator import applicable_actions
from genplan.plans.world_model import State, action_text

LISTED_ACTIONS = 60
"""Valid actions listed at most (a 50-room Gripper state has 2,500); the rest are counted."""


def atoms_text(atoms: Iterable[Atom]) -> str:
    """Atoms in PDDL form, sorted, space-separated: ``(clear a) (handempty) (on a b)``."""
    return " ".join(action_text(atom) for atom in sorted(atoms)) or "(none)"


def actions_text(actions: Sequence[Atom]) -> str:
    """Actions comma-separated: ``(pick-up a), (unstack d g)``."""
    return ", ".join(action_text(action) for action in actions)


@dataclass(frozen=True)
class Task:
    """One problem's fixed prompt text, built once.

    Attributes:
        problem: the problem.
        fluents: predicates some operator adds or deletes (the facts a state lists).
        environment: the domain and problem in PDDL and how to write actions.
    """

    problem: Problem
    fluents: frozenset[str]
    environment: str

    @classmethod
    def of(cls, problem: Problem, example: Atom | None = None) -> Task:
        """The task text of ``problem``; ``example`` is an action shown as the format's example
        (default: the first action applicable initially, else an operator's signature)."""
        domain = problem.domain
        fluents = frozenset(
            atom[0]
            for operator in domain.operators.values()
            for atom in (*operator.add_effects, *operator.delete_effects)
        )
        if example is None:
            applicable = applicable_actions(problem, problem.init)
            shown = (
                action_text(applicable[0]) if applicable else next(iter(domain.operators.values())).signature
            )
        else:
            shown = action_text(example)
        static = sorted(set(domain.predicates) - fluents)
        static_note = (
            f" States below list only the facts that can change; the {', '.join(static)} facts of :init always hold."
            if static
            else ""
        )
        environment = (
            f"Domain (PDDL):\n```pddl\n{domain.to_pddl().strip()}\n```\n\n"
            f"Problem (PDDL):\n```pddl\n{problem.to_pddl().strip()}\n```\n\n"
            f"Write every action as in a PDDL plan: the operator, then its objects, in parentheses, "
            f"e.g. {shown}.{static_note}"
        )
        return cls(problem, fluents, environment)

    def state(self, state: State) -> str:
        """A state's changing facts in PDDL form."""
        return atoms_text(atom for atom in state if atom[0] in self.fluents)

    def goal(self) -> str:
        """The goal atoms in PDDL form."""
        return atoms_text(self.problem.goal)


def valid_actions_text(actions: Sequence[Atom]) -> str:
    """The valid-action list of Gonzalez-Pumariaga et al.'s prompts (App. A.4.3), at most :data:`LISTED_ACTIONS`."""
    if not actions:
        return "(none: no action is applicable)"
    shown = actions_text(actions[:LISTED_ACTIONS])
    if len(actions) > LISTED_ACTIONS:
        shown += f" (and {len(actions) - LISTED_ACTIONS} more not listed)"
    return shown
