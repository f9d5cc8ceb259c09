"""The generalized-plan approach behind the :class:`~genplan.approaches.base.Approach` seam."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from genplan.approaches.base import Approach, ModelCode, RunContext, RunRecord, RunSession
from genplan.approaches.generalized_plan.runs import run_synthesis
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings, TrainingRound
from genplan.pddl.problem_sets import DomainProblems


def describe_round(training_round: TrainingRound) -> str:
    """One line on a training round, e.g. ``round 1: plan-semantics on gripper-train-03 after 2 solved``."""
    if training_round.failure is None:
        state = f"solved all training problems ({training_round.passed})"
    else:
        where = f" on {training_round.failed_problem}" if training_round.failed_problem else ""
        state = f"{training_round.failure.value}{where} after {training_round.passed} solved"
    return f"round {training_round.round}: {state}"


class GeneralizedPlan(Approach[DomainProblems, SynthesisSettings]):
    """Silver et al. (AAAI 2024): one ``get_plan`` program per domain, written with chain of
    thought (Sec. 4.1), debugged on training problems with automated feedback (Sec. 4.2), and
    evaluated on every evaluation problem in the sandbox (Sec. 5)."""

    name: ClassVar[str] = "generalized-plan"
    summary: ClassVar[str] = "one Python get_plan program per domain (Silver et al., AAAI 2024)"
    settings_type: ClassVar[type] = SynthesisSettings
    model_code: ClassVar[ModelCode] = ModelCode.SANDBOX
    label_prefix: ClassVar[bool] = False

    def describe(self, record: RunRecord) -> list[str]:
        """The training rounds, feedback rounds used and training outcome (Sec. 4.2)."""
        details = record.details
        rounds = details.get("rounds", [])
        lines = []
        for candidate in details.get("candidates", []):
            chosen = " (selected)" if candidate.get("selected") else ""
            lines.append(
                f"Candidate {candidate['candidate']}{chosen}: {candidate['training_outcome']} after "
                f"{candidate['feedback_rounds_used']} feedback rounds; validation "
                f"{candidate['validation_solved']}/{candidate['validation_problems']} solved in "
                f"{candidate['validation_seconds']:.3g} s"
            )
        for check in details.get("strategy_checks", []):
            verdict = "valid" if check["valid"] else f"invalid ({check['failure'] or check['message']})"
            lines.append(f"  strategy check {check['round']} on {check['problem']}: plan {verdict}")
        for entry in rounds:
            failure = entry.get("failure")
            outcome = failure or "solved all training problems"
            scaling = entry.get("scaling")
            if scaling and scaling.get("projected_seconds") is not None:
                outcome += (
                    f"; projected {scaling['projected_seconds']:.3g} s at {scaling['target']['objects']} objects "
                    f"(growth exponent {scaling['exponent']:.1f} in {scaling['measure'].replace('_', ' ')})"
                )
            lines.append(f"  training round {entry['round']}: {outcome} ({entry['passed']} passed)")
        used = details.get("feedback_rounds_used", 0)
        kinds = ", ".join([entry["failure"] for entry in rounds if entry.get("failure")][:used]) or "none"
        lines.append(f"Feedback rounds used: {used} ({kinds})")
        lines.append(f"Training outcome: {details.get('training_outcome', 'unknown')}")
        if "shuffles" in details:
            lines.append(
                f"Robustness: {details['shuffles']} shuffled orders per problem; "
                f"{details['order_sensitive_problems']} problems order-sensitive"
            )
        return lines

    def per_step(
        self, folder: Path, problems: DomainProblems, context: RunContext
    ) -> list[dict[str, Any]] | None:
        """Figure 4: the fraction of the evaluation problems each program version solved
        (:func:`~genplan.approaches.generalized_plan.steps.per_step_fractions`)."""
        from genplan.approaches.generalized_plan.steps import per_step_fractions

        return per_step_fractions(folder, list(problems.evaluation), context)

    def solve(self, session: RunSession, problems: DomainProblems, settings: SynthesisSettings) -> RunRecord:
        """Synthesize, debug and evaluate; the run folder gets the conversation, programs,
        training rounds, results and record (see :mod:`.runs`).

        Raises:
            genplan.llm.LLMError: the backend failed; the folder keeps what was recorded.
        """
        report = run_synthesis(
            session,
            problems,
            settings,
            on_round=lambda training_round: session.note(describe_round(training_round)),
        )
        return report.record
