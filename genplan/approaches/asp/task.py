"""The task the ASP approach works on: a PDDL domain with its problems, or a task in English."""

from __future__ import annotations

from dataclasses import dataclass

from genplan.approaches.asp.interface import AspNames, problem_facts
from genplan.pddl.described import DescribedTask
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems


@dataclass(frozen=True)
class AspTask:
    """What the model writes an encoding for.

    Attributes:
        name: the domain's or task folder's name.
        problems: the PDDL problem set, or ``None`` for a task in English.
        described: the task in English, or ``None`` for a PDDL domain.
        training: the training problems the checks run (PDDL; smallest first).
        names: PDDL names as ASP constants (PDDL), else ``None``.
    """

    name: str
    problems: DomainProblems | None = None
    described: DescribedTask | None = None
    training: tuple[Problem, ...] = ()
    names: AspNames | None = None

    @classmethod
    def from_problems(cls, problems: DomainProblems) -> AspTask:
        """A PDDL task (with the evaluation-sized check problem last when the problem set has one)."""
        training = problems.training_with_size_check  # LLM+AL's checks run on the size check too
        names = AspNames.for_problems(problems.domain, training)
        return cls(problems.name, problems=problems, training=tuple(training), names=names)

    @classmethod
    def from_description(cls, described: DescribedTask) -> AspTask:
        """A task in English."""
        return cls(described.name, described=described)

    @property
    def is_pddl(self) -> bool:
        """Whether the task is a PDDL domain (genplan writes each problem's facts)."""
        return self.problems is not None

    @property
    def example(self) -> Problem:
        """The smallest training problem: shown in prompts, and its objects serve the sample
        queries and the satisfiability check (PDDL only)."""
        assert self.training, "a PDDL task has training problems"
        return self.training[0]

    def object_facts(self) -> str:
        """The example problem's ``object``/``type`` facts (PDDL), else nothing."""
        if not self.is_pddl or self.names is None:
            return ""
        return problem_facts(self.example, self.names, with_init=False, with_goal=False)

    def example_facts(self) -> str:
        """The example problem's full facts (PDDL), else nothing."""
        if not self.is_pddl or self.names is None:
            return ""
        return problem_facts(self.example, self.names)

    def static_constants(self) -> frozenset[str]:
        """ASP names of static PDDL predicates (left out of traces shown to the model)."""
        if self.problems is None or self.names is None:
            return frozenset()
        domain = self.problems.domain
        changing = domain.fluent_predicates
        return frozenset(self.names.asp(p) for p in domain.predicates if p not in changing)
