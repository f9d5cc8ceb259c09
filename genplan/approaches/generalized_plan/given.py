"""Evaluating a given program: ``genplan evaluate --program`` as an approach on the run seam.

A program written before (a saved run's ``program.py``, or one of the user's) runs on every
evaluation problem in the sandbox and every plan is checked (Silver et al. 2024, Sec. 5), the
books kept by the run session like any run, so its results have the run record's shape. A No
Names program (a ``name_mapping.json`` beside it, or given) sees every problem renamed, and its
plans are kept in the problems' own names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from genplan.approaches.base import Approach, ModelCode, ProblemResult, RunRecord, RunSession
from genplan.approaches.generalized_plan.checking import check_program
from genplan.approaches.generalized_plan.renaming import (
    find_name_mapping,
    load_name_mapping,
    plan_to_original,
    rename_problems,
)
from genplan.approaches.generalized_plan.solver import read_program
from genplan.errors import ConfigurationError
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems


@dataclass(frozen=True)
class GivenProgramSettings:
    """What to evaluate.

    Attributes:
        program: the Python file defining ``get_plan``.
        name_mapping: a No-Names run's ``name_mapping.json``; ``None``: the one beside the
            program, if any.
    """

    program: Path | None = field(default=None, metadata={"help": "Python file defining get_plan"})
    name_mapping: Path | None = field(
        default=None,
        metadata={
            "help": "a No-Names run's name_mapping.json: the program sees every problem in its names "
            "(default: the name_mapping.json beside the program, if any)"
        },
    )


class GivenProgram(Approach[DomainProblems, GivenProgramSettings]):
    """A given generalized plan, evaluated on every evaluation problem (``genplan evaluate
    --program``): no model is asked; the program runs in genplan's sandbox."""

    name: ClassVar[str] = "evaluate-program"
    summary: ClassVar[str] = "a given get_plan program, evaluated on the evaluation problems"
    settings_type: ClassVar[type] = GivenProgramSettings
    model_code: ClassVar[ModelCode] = ModelCode.SANDBOX
    asks_model: ClassVar[bool] = False

    def label(self, settings: GivenProgramSettings) -> str:
        """``evaluate-program``: the program's path is a setting, not a name."""
        return self.name

    def solve(
        self, session: RunSession, problems: DomainProblems, settings: GivenProgramSettings
    ) -> RunRecord:
        """Run the program on every evaluation problem, ``workers`` at once, and check every plan.

        Raises:
            ConfigurationError: no program given, or it cannot be read or is not Python; a name
                mapping that cannot be read or does not cover the domain.
        """
        if settings.program is None:
            raise ConfigurationError("evaluate-program needs a program (--program FILE)")
        program = read_program(settings.program)
        originals = list(problems.evaluation)
        evaluated = originals
        mapping_file = find_name_mapping(settings.program, settings.name_mapping)
        mapping = load_name_mapping(mapping_file) if mapping_file is not None else None
        if mapping_file is not None and mapping is not None:
            evaluated, mapping = rename_problems(originals, mapping)  # extended with the problems' names
            session.note(f"The program sees every problem in the names of {mapping_file} (No Names).")
        original_of = {id(shown): original for shown, original in zip(evaluated, originals)}
        timeout, limits = session.context.eval_timeout, session.limits

        def solve(problem: Problem, key: str) -> ProblemResult:
            check = check_program(program, problem, timeout=timeout, limits=limits)
            plan = check.outcome.plan
            return check.to_result(
                key,
                original_of[id(problem)],
                # a No-Names program's plan is kept in the problem's own names
                plan_to_original(plan, mapping) if mapping is not None and plan is not None else None,
            )

        keys = [session.key(original) for original in originals]
        results = session.solve_each(evaluated, solve, keys=keys)
        details: dict[str, Any] = {
            "program": str(settings.program),
            "name_mapping": None if mapping_file is None else str(mapping_file),
        }
        return session.close(results, details=details)
