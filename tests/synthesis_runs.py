"""A generalized-plan run for tests that need its whole report (the selected program, rounds,
candidates), not only the record: the run session opened as every run's is
(:meth:`~genplan.approaches.base.Approach.open_session`), then the synthesis on it."""

from __future__ import annotations

from collections.abc import Callable

from genplan.approaches.base import RunContext
from genplan.approaches.generalized_plan.approach import GeneralizedPlan
from genplan.approaches.generalized_plan.runs import RunReport
from genplan.approaches.generalized_plan.runs import run_synthesis as synthesis_on_session
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings, TrainingRound
from genplan.llm import LanguageModel
from genplan.pddl.problem_sets import DomainProblems


def run_synthesis(
    problems: DomainProblems,
    model: LanguageModel,
    settings: SynthesisSettings,
    context: RunContext,
    *,
    on_round: Callable[[TrainingRound], None] | None = None,
) -> RunReport:
    """Synthesize, evaluate and write the run folder as ``genplan run --approach generalized-plan``
    does, returning the report."""
    session = GeneralizedPlan().open_session(problems, model, settings, context)
    return synthesis_on_session(session, problems, settings, on_round=on_round)
