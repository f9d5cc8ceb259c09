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

import os
from typing import Any, ClassVar

from genplan.approaches.autotos.categories import Component
from genplan.approaches.autotos.evaluate import evaluate
from genplan.approaches.autotos.examples import example_problems
from genplan.approaches.autotos.protocol import ProtocolResult, run_protocol
from genplan.approaches.autotos.sandboxed import HarnessRunner, sandbox_runner
from genplan.approaches.autotos.settings import AutoToSSettings
from genplan.approaches.base import (
    CONVERSATION_FILE,
    METADATA_FILE,
    RESULTS_FILE,
    RunContext,
    RunRecord,
    problem_key,
    settings_to_json,
    today,
    write_json,
    write_record,
)
from genplan.llm import ConversationRecorder, LanguageModel, RecordingModel
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


class AutoToS:
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

    def __init__(self, runner: HarnessRunner | None = None):
        self.runner = runner

    def label(self, settings: AutoToSSettings) -> str:
        """``autotos``, with the settings that differ from the main protocol (``autotos-partial``)."""
        return settings.label

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

    def run(
        self, problems: DomainProblems, model: LanguageModel, settings: AutoToSSettings, context: RunContext
    ) -> RunRecord:
        """Obtain the components, solve the evaluation problems, write the run folder.

        Raises:
            ValueError: the domain has no training problems.
            genplan.llm.LLMError: the backend failed; the folder keeps the recorded conversation.
        """
        folder = context.folder
        folder.mkdir(parents=True, exist_ok=True)
        conversation = folder / CONVERSATION_FILE
        conversation.unlink(missing_ok=True)
        recording = RecordingModel(model, ConversationRecorder(conversation), context.backend_name)
        runner = self.runner or sandbox_runner(context.limits)
        training = list(problems.training)
        if problems.size_check and len(training) > 1:
            training = training[:-1]  # the evaluation-sized check problem is the generalized plan's
        examples = example_problems(training, settings.example_problems, settings.walk_length, context.seed)
        date = today()
        result = run_protocol(
            recording,
            problems.domain.to_pddl(),
            examples,
            settings,
            runner,
            on_event=context.progress.note,
        )
        complete = all(result.sources.get(c) for c in Component)
        (folder / COMPONENTS_FILE).write_text(result.program if complete else "")
        write_json(folder / FEEDBACK_FILE, [e.to_json() for e in result.events])
        write_json(folder / CHECKS_FILE, result.checks)
        write_json(folder / MILESTONES_FILE, result.milestones)
        evaluation = list(problems.evaluation)
        keys = [problem_key(p, problems.root) for p in evaluation]
        workers = context.workers or os.cpu_count() or 1
        context.progress.note(
            f"evaluation: {settings.search} on {len(evaluation)} problems, up to {settings.search_seconds:g} s "
            f"each, {min(workers, max(len(evaluation), 1))} at a time"
            if complete
            else f"evaluation: no usable components, {len(evaluation)} problems not searched"
        )
        context.progress.start_problems(len(evaluation))
        results = evaluate(
            result.program if complete else None,
            evaluation,
            keys,
            settings,
            runner,
            workers=workers,
            on_result=context.progress.problem_done,
        )
        record = RunRecord(
            approach=self.name,
            label=settings.label,
            settings=settings_to_json(settings),
            domain=problems.name,
            seed=context.seed,
            model=context.model_name,
            backend=context.backend_name,
            date=date,
            problems=results,
            llm_calls=recording.calls,
            prompt_tokens=recording.prompt_tokens,
            completion_tokens=recording.completion_tokens,
            feedback=result.feedback_by_phase,
            world_model_queries=None,
            artifacts=[
                CONVERSATION_FILE,
                COMPONENTS_FILE,
                FEEDBACK_FILE,
                CHECKS_FILE,
                MILESTONES_FILE,
                METADATA_FILE,
                RESULTS_FILE,
            ],
            details=protocol_details(result, examples, settings),
            isolation=context.limits.isolation.value if self.runner is None else None,
            problem_set=problems.problem_set,
            generators=problems.generators,
        )
        write_record(folder, record)
        return record
