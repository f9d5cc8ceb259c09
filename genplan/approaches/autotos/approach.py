"""AutoToS behind the :class:`~genplan.approaches.base.Approach` seam.

A run lives in ``RUNS/<domain>/<label>-seed<S>/`` (label ``autotos`` for the main settings):

* ``conversation.jsonl`` — every exchange with the model, appended as it happens;
* ``components.py`` — the final components (successor function, then goal test; not a
  ``get_plan`` program, so the generalized plan's ``program.py`` is never confused with it);
* ``feedback.json`` — every feedback message: step, phase, component, error category, text;
* ``checks.json`` — every test run: step, example problem, outcome, states expanded;
* ``milestones.json`` — the components at the three points of the paper's Figure 2 (first
  answers, soundness tests passed, end), so each can be evaluated later;
* ``results.json`` and ``metadata.json`` — the run record; its ``feedback`` counts messages by
  phase (the paper's Figure 3), and ``details`` holds the error categories (Figure 4), the
  model calls per component and until the tests passed (Table 1), and the example problems.
"""

from __future__ import annotations

from typing import Any, ClassVar

from genplan.approaches.autotos.categories import Component
from genplan.approaches.autotos.evaluate import EvaluationStatus, solve_problem
from genplan.approaches.autotos.examples import example_problems
from genplan.approaches.autotos.protocol import ProtocolResult, run_protocol
from genplan.approaches.autotos.sandboxed import HarnessRunner, sandbox_runner
from genplan.approaches.autotos.settings import AutoToSSettings
from genplan.approaches.base import Approach, ModelCode, ProblemResult, RunContext, RunRecord, RunSession
from genplan.pddl.problem_sets import DomainProblems

COMPONENTS_FILE = "components.py"
FEEDBACK_FILE = "feedback.json"
CHECKS_FILE = "checks.json"
MILESTONES_FILE = "milestones.json"


def protocol_details(
    result: ProtocolResult, examples: list[Any], settings: AutoToSSettings
) -> dict[str, Any]:
    """The ``details`` of an AutoToS record (JSON-ready)."""
    return {
        "outcome": result.outcome,
        "calls_until_sound": result.calls_until_sound,
        "calls_until_passed": result.calls_until_passed,
        "calls_per_component": {c.value: result.calls.get(c, 0) for c in Component},
        "feedback_by_phase": result.feedback_by_phase,
        "error_categories": result.error_categories,
        "feedback_events": [e.to_json(with_message=False) for e in result.events],
        "example_problems": [
            {"problem": e.name, "walk_length": len(e.walk), "goal_atoms": len(e.goal)} for e in examples
        ],
        "checks": settings.checks,
        "search": settings.search,
        "search_seconds": settings.search_seconds,
        "call_seconds": settings.call_seconds,
    }


class AutoToS(Approach[DomainProblems, AutoToSSettings]):
    """AutoToS (Cao, Katz, Kokel, Srinivas, Sohrabi, AAAI 2025): the model writes a successor
    function and a goal test for the domain (Thought of Search), debugged automatically with
    goal unit tests, a soundness search and a completeness test (Sec. 4); genplan's BFS over
    them solves each evaluation problem, and every plan is validated.

    Args:
        runner: how harness calls reach the sandbox; by default the sandbox with the run
            context's limits (tests pass an in-process runner).
    """

    name: ClassVar[str] = "autotos"
    summary: ClassVar[str] = (
        "search components (successor function, goal test) per domain (Cao et al., AAAI 2025)"
    )
    settings_type: ClassVar[type] = AutoToSSettings
    model_code: ClassVar[ModelCode] = ModelCode.SANDBOX

    def __init__(self, runner: HarnessRunner | None = None):
        self.runner = runner

    def describe(self, record: RunRecord) -> list[str]:
        """The protocol's outcome, model calls, feedback by phase and error categories."""
        details = record.details
        calls = details.get("calls_per_component", {})
        shown_calls = ", ".join(f"{name} {count}" for name, count in calls.items())
        if details.get("outcome") == "passed":
            outcome = f"all tests passed after {details.get('calls_until_passed')} LLM calls"
        else:
            outcome = "the call budget ran out before every test passed"
        phases = ", ".join(
            f"{phase} {count}" for phase, count in details.get("feedback_by_phase", {}).items()
        )
        categories = ", ".join(
            f"{name} {count}" for name, count in details.get("error_categories", {}).items()
        )
        return [
            f"Protocol ({details.get('checks')} checks): {outcome} ({shown_calls})",
            f"Feedback by phase: {phases or 'none'}",
            f"Error categories: {categories or 'none'}",
            f"Search: {details.get('search')}, {details.get('search_seconds') or 0:g} s per problem, "
            f"{details.get('call_seconds') or 0:g} CPU s per call",
        ]

    def isolation(self, context: RunContext) -> str | None:
        """The sandbox's isolation, or ``None`` with an in-process runner (tests)."""
        return None if self.runner is not None else super().isolation(context)

    def solve(self, session: RunSession, problems: DomainProblems, settings: AutoToSSettings) -> RunRecord:
        """Obtain the components, solve the evaluation problems, write the run folder.

        Raises:
            ValueError: the domain has no training problems.
            genplan.llm.LLMError: the backend failed; the folder keeps the recorded conversation.
        """
        runner = self.runner or sandbox_runner(session.limits)
        examples = example_problems(
            problems.training, settings.example_problems, settings.walk_length, session.context.seed
        )
        result = run_protocol(
            session.model,
            problems.domain.to_pddl(),
            examples,
            settings,
            runner,
            on_event=session.note,
        )
        complete = all(result.sources.get(c) for c in Component)
        program = result.program if complete else None
        session.write_text(COMPONENTS_FILE, program or "")
        session.write_json(FEEDBACK_FILE, [e.to_json() for e in result.events])
        session.write_json(CHECKS_FILE, result.checks)
        session.write_json(MILESTONES_FILE, result.milestones)
        count = len(problems.evaluation)
        session.note(
            f"evaluation: {settings.search} on {count} problems, up to {settings.search_seconds:g} s "
            f"each, {session.workers(count)} at a time"
            if program is not None
            else f"evaluation: no usable components, {count} problems not searched"
        )
        results = session.solve_each(
            problems.evaluation,
            lambda problem, key: (
                solve_problem(program, problem, key, settings, runner)
                if program is not None
                else ProblemResult(key, EvaluationStatus.NO_COMPONENTS.value, None, 0.0)
            ),
        )
        return session.close(
            results, feedback=result.feedback_by_phase, details=protocol_details(result, examples, settings)
        )
