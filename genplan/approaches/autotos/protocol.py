"""The AutoToS feedback loop (Cao et al., AAAI 2025, Sec. 4, Figure 1).

Step 1 asks for the successor function, then the goal test, in one conversation under the
paper's system prompt. Step 2 runs the goal unit tests; Step 3 a search with checks on each
example problem; Step 4 (optional) the successor completeness test. Each failure is fed back
with its evidence; "every time a goal test fails, we go back to Step 2, every time the successor
test fails, we go back to Step 3", until every test passes or the model-call budget (10 per
function, 19 per domain) is spent. Whatever the outcome, the last components are returned (the
paper evaluates them; every plan they give is validated).

All model-written code runs through a :data:`~genplan.approaches.autotos.sandboxed.HarnessRunner`.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from genplan.approaches.autotos import prompts
from genplan.approaches.autotos.categories import Component, ErrorCategory, Phase
from genplan.approaches.autotos.examples import (
    ExampleProblem,
    example_task,
    goal_cases,
    successor_cases,
)
from genplan.approaches.autotos.sandboxed import HarnessOutcome, HarnessRunner
from genplan.approaches.autotos.settings import AutoToSSettings
from genplan.approaches.autotos.states import objects_from_json, objects_to_json
from genplan.llm import LanguageModel, Message
from genplan.llm.extract import extract_code

HARNESS = "genplan.approaches.autotos.harness"
SLACK_SECONDS = 30.0
"""Budget of one harness call beyond its search limit (start-up, checks, plan recovery)."""

_CHECK_NAMES = {2: "goal unit tests", 3: "soundness search", 4: "completeness check"}
"""What each step checks, for the progress lines (Cao et al. 2025, Sec. 4.3-4.5)."""

PHASE_OF_STEP = {2: Phase.GOAL, 3: Phase.SUCCESSOR_SOUNDNESS, 4: Phase.SUCCESSOR_COMPLETENESS}


@dataclass(frozen=True)
class FeedbackEvent:
    """One feedback message sent to the model.

    Attributes:
        step: the protocol step whose test failed (1: an initial answer without usable code).
        phase: the feedback phase (Figure 3): goal, successor soundness, successor completeness.
        component: the function asked to be revised.
        category: the error category (Sec. 6.1).
        example: the example problem the failure came from, if any.
        message: the feedback text.
    """

    step: int
    phase: Phase
    component: Component
    category: ErrorCategory
    example: str | None
    message: str

    def to_json(self, *, with_message: bool = True) -> dict[str, Any]:
        """JSON-ready form."""
        data = {
            "step": self.step,
            "phase": self.phase.value,
            "component": self.component.value,
            "category": self.category.value,
            "example": self.example,
        }
        if with_message:
            data["message"] = self.message
        return data


@dataclass
class ProtocolResult:
    """What the feedback loop produced.

    Attributes:
        sources: the last code of each component (``None`` if the model never gave usable code).
        events: every feedback message, in order.
        calls: model calls per component.
        outcome: ``passed`` (every test passed) or ``budget-exhausted``.
        calls_until_sound: model calls when Steps 2 and 3 first passed together, or ``None``.
        calls_until_passed: model calls when every test passed (the paper's Table 1), or ``None``.
        checks: every test run, in order (step, example, passed, category, figures).
        milestones: the program at the three points of the paper's Figure 2: ``initial``
            (the first components, no feedback), ``sound`` (when Steps 2 and 3 first passed)
            and ``final``; a point never reached is missing.
    """

    sources: dict[Component, str | None] = field(default_factory=lambda: {c: None for c in Component})
    events: list[FeedbackEvent] = field(default_factory=list)
    calls: Counter[Component] = field(default_factory=Counter)
    outcome: str = "budget-exhausted"
    calls_until_sound: int | None = None
    calls_until_passed: int | None = None
    checks: list[dict[str, Any]] = field(default_factory=list)
    milestones: dict[str, str] = field(default_factory=dict)

    @property
    def program(self) -> str:
        """The program the search uses: the successor function's code, then the goal test's."""
        return combine(self.sources)

    @property
    def feedback_by_phase(self) -> dict[str, int]:
        """Feedback messages per phase (Figure 3), every phase listed."""
        counts = Counter(e.phase.value for e in self.events)
        return {phase.value: counts.get(phase.value, 0) for phase in Phase}

    @property
    def error_categories(self) -> dict[str, int]:
        """Feedback messages per error category (Figure 4), sorted."""
        return dict(sorted(Counter(e.category.value for e in self.events).items()))


def combine(sources: dict[Component, str | None]) -> str:
    """The program: each component's code (successor function first), blank lines between."""
    parts = [sources[c] for c in (Component.SUCCESSOR, Component.GOAL) if sources.get(c)]
    return "\n\n".join(p.rstrip("\n") for p in parts if p) + "\n"


def component_code(answer: str, component: Component) -> tuple[str | None, str | None]:
    """The code of ``answer`` for ``component``: ``(code, None)`` or ``(None, problem)``.

    The code must parse and define the requested function at its top level; top-level
    definitions of the *other* component are dropped, so each answer changes only the function
    asked for.
    """
    code = extract_code(answer)
    if code is None:
        return None, "it contains no Python code"
    try:
        tree = ast.parse(code)
    except SyntaxError as error:
        return None, f"its code does not parse (SyntaxError: {error.msg}, line {error.lineno})"
    other = Component.GOAL if component is Component.SUCCESSOR else Component.SUCCESSOR
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    if component.value not in defined:
        return None, f"its code defines no function {component.value}"
    lines = code.splitlines()
    for node in reversed(tree.body):
        if isinstance(node, ast.FunctionDef) and node.name == other.value:
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
            del lines[start : node.end_lineno]
    return "\n".join(lines).strip("\n") + "\n", None


class BudgetExhausted(Exception):
    """No model call is left for the component that needs one."""


class Loop:
    """One run of the protocol; see :func:`run_protocol`."""

    def __init__(
        self,
        model: LanguageModel,
        domain_pddl: str,
        examples: Sequence[ExampleProblem],
        settings: AutoToSSettings,
        runner: HarnessRunner,
        on_event: Callable[[str], None],
    ):
        self.model = model
        self.domain_pddl = domain_pddl
        self.examples = list(examples)
        self.settings = settings
        self.runner = runner
        self.on_event = on_event
        self.messages = [Message("system", prompts.SYSTEM_PROMPT)]
        self.result = ProtocolResult()
        self.tasks = [example_task(e) for e in self.examples]

    # -- the conversation ------------------------------------------------------------------
    @property
    def total_calls(self) -> int:
        """Model calls so far."""
        return sum(self.result.calls.values())

    def _ask(self, component: Component, text: str) -> str:
        if (
            self.result.calls[component] >= self.settings.calls_per_function
            or self.total_calls >= self.settings.max_calls
        ):
            raise BudgetExhausted
        self.messages.append(Message("user", text))
        completion = self.model.complete(list(self.messages))
        self.messages.append(Message("assistant", completion.text))
        self.result.calls[component] += 1
        return completion.text

    def _obtain(self, component: Component, text: str, step: int) -> None:
        """Ask with ``text`` until an answer holds usable code for ``component`` (each unusable
        answer is parse-error feedback)."""
        while True:
            code, problem = component_code(self._ask(component, text), component)
            if code is not None:
                self.result.sources[component] = code
                return
            assert problem is not None
            phase = (
                Phase.GOAL
                if component is Component.GOAL
                else PHASE_OF_STEP.get(step, Phase.SUCCESSOR_SOUNDNESS)
            )
            text = prompts.parse_feedback(component, problem)
            self._record(FeedbackEvent(step, phase, component, ErrorCategory.PARSE_ERROR, None, text))

    def _record(self, event: FeedbackEvent) -> None:
        self.result.events.append(event)
        self.on_event(f"step {event.step}: {event.category.value} -> feedback on {event.component.value}")

    # -- running the tests -----------------------------------------------------------------
    def _run(
        self, function: str, args: list[Any], timeout: float, step: int, example: ExampleProblem | None = None
    ) -> HarnessOutcome:
        """Run a harness check; before a search (it may take minutes) a line says what runs."""
        if function == "search_check":
            where = f" on {example.name}" if example else ""
            self.on_event(f"step {step}: {_CHECK_NAMES[step]}{where}, up to {timeout:g} s ...")
        return self.runner(self.result.program, f"{HARNESS}:{function}", args, timeout)

    def _failure_of(self, outcome: HarnessOutcome, step: int) -> dict[str, Any] | None:
        """The harness's failure report, or one made for an outcome that is not a result."""
        if outcome.status == "success" and isinstance(outcome.value, dict):
            if outcome.value.get("passed"):
                return None
            failure = outcome.value.get("failure")
            if _known_failure(failure):
                return failure
            # A report genplan's harness never writes (a program past the policy forged it).
            reason = "the run sent a malformed report (an unknown error category or no report)"
            outcome = HarnessOutcome("crashed", seconds=outcome.seconds, reason=reason)
        component = self._component_at_fault(outcome.traceback) if outcome.status == "raised" else None
        if component is None:
            component = Component.GOAL if step == 2 else Component.SUCCESSOR
        if outcome.status == "timed-out":
            if step == 2:
                return {"category": ErrorCategory.GOAL_TIMEOUT.value, "seconds": self.settings.call_seconds}
            if step == 4 and self.settings.checks == "partial":
                return {
                    "category": ErrorCategory.SUCCESSOR_TIMEOUT.value,
                    "seconds": self.settings.call_seconds,
                }
            return {"category": ErrorCategory.SEARCH_TIMEOUT.value, "seconds": self.settings.search_seconds}
        category = (
            ErrorCategory.GOAL_EXCEPTION if component is Component.GOAL else ErrorCategory.SUCCESSOR_EXCEPTION
        )
        return {
            "category": category.value,
            "traceback": outcome.traceback or outcome.reason or "the run failed",
        }

    def _component_at_fault(self, trace: str | None) -> Component | None:
        """The component whose code holds the last program line a traceback names."""
        if not trace:
            return None
        lines = [
            line for line in trace.splitlines() if line.strip().startswith('File "<file-name-omitted>", line')
        ]
        if not lines:
            return None
        try:
            number = int(lines[-1].split("line", 1)[1].split(",")[0].strip())
        except ValueError:
            return None
        successor = self.result.sources.get(Component.SUCCESSOR) or ""
        return (
            Component.SUCCESSOR if number <= len(successor.rstrip("\n").splitlines()) + 1 else Component.GOAL
        )

    def _check(
        self, step: int, example: ExampleProblem | None, outcome: HarnessOutcome
    ) -> dict[str, Any] | None:
        failure = self._failure_of(outcome, step)
        entry: dict[str, Any] = {
            "step": step,
            "example": example.name if example else None,
            "passed": failure is None,
        }
        if failure is not None:
            entry["category"] = failure["category"]
        if isinstance(outcome.value, dict):
            for key in ("tests", "outcome", "expanded", "generated"):
                if key in outcome.value:
                    entry[key] = outcome.value[key]
        entry["seconds"] = round(outcome.seconds, 3)
        self.result.checks.append(entry)
        where = f" on {example.name}" if example else ""
        verdict = "passed" if failure is None else f"failed ({failure['category']})"
        self.on_event(f"step {step}: {_CHECK_NAMES[step]}{where} {verdict} in {outcome.seconds:.1f} s")
        return failure

    def step2(self) -> tuple[dict[str, Any], ExampleProblem | None] | None:
        """The goal unit tests (Sec. 4.3)."""
        cases = goal_cases(self.examples)
        args = [
            self.result.program,
            [{k: c[k] for k in ("state", "goal", "expected")} for c in cases],
            self.settings.call_seconds,
        ]
        timeout = len(cases) * self.settings.call_seconds + SLACK_SECONDS
        failure = self._check(2, None, self._run("goal_tests", args, timeout, 2))
        if failure is None:
            return None
        index = failure.get("case")
        name = cases[index]["example"] if isinstance(index, int) and 0 <= index < len(cases) else None
        return failure, next((e for e in self.examples if e.name == name), None)

    def _search_options(self, *, completeness: bool) -> dict[str, Any]:
        exact = self.settings.checks == "exact"
        soundness = self.settings.checks if self.settings.soundness_test else None
        return {
            "search": self.settings.search,
            "search_seconds": self.settings.search_seconds,
            "call_seconds": self.settings.call_seconds,
            "soundness": soundness if not completeness else ("exact" if exact and soundness else None),
            "goal_verdicts": exact and not completeness,
            "completeness": completeness,
            "max_expansions": self.settings.completeness_states if completeness else 0,
        }

    def step3(self) -> tuple[dict[str, Any], ExampleProblem] | None:
        """The soundness search on each example problem (Sec. 4.4)."""
        options = self._search_options(completeness=False)
        for example, task in zip(self.examples, self.tasks):
            args = [self.result.program, task, options]
            timeout = self.settings.search_seconds + SLACK_SECONDS
            failure = self._check(3, example, self._run("search_check", args, timeout, 3, example))
            if failure is not None:
                return failure, example
        return None

    def step4(self) -> tuple[dict[str, Any], ExampleProblem] | None:
        """The successor completeness test (Sec. 4.5): exact over the states a search expands, or
        the paper's unit tests of known successors."""
        for example, task in zip(self.examples, self.tasks):
            if self.settings.checks == "exact":
                options = self._search_options(completeness=True)
                args: list[Any] = [self.result.program, task, options]
                outcome = self._run(
                    "search_check", args, self.settings.search_seconds + SLACK_SECONDS, 4, example
                )
            else:
                cases = successor_cases(example)
                args = [self.result.program, task, cases, self.settings.call_seconds]
                timeout = len(cases) * self.settings.call_seconds + SLACK_SECONDS
                outcome = self._run("successor_tests", args, timeout, 4, example)
            failure = self._check(4, example, outcome)
            if failure is not None:
                return failure, example
        return None

    def _feedback(self, step: int, failure: dict[str, Any], example: ExampleProblem | None) -> int:
        """Send the feedback for ``failure``, get the revised component; return the next step."""
        category = ErrorCategory(failure["category"])
        component = category.component
        phase = Phase.GOAL if component is Component.GOAL else PHASE_OF_STEP[max(step, 3)]
        objects = objects_from_json(objects_to_json(example.problem)) if example else frozenset()
        try:
            text = prompts.feedback(
                failure,
                objects,
                init=example.init if example else None,
                goal=example.goal if example else None,
                walk_steps=len(example.walk) if example else 0,
            )
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            # Evidence of the wrong shape: an error boundary, never a traceback of genplan's.
            category = (
                ErrorCategory.GOAL_EXCEPTION
                if component is Component.GOAL
                else ErrorCategory.SUCCESSOR_EXCEPTION
            )
            failure = {
                "category": category.value,
                "traceback": f"the run sent a malformed report ({type(error).__name__})",
            }
            text = prompts.feedback(failure, objects)
        self._record(FeedbackEvent(step, phase, component, category, example.name if example else None, text))
        self._obtain(component, text, step)
        return 2 if component is Component.GOAL or step == 2 else 3

    def run(self) -> ProtocolResult:
        """Steps 1 to 4 until every test passes or the budget is spent."""
        first = self.examples[0].problem
        try:
            self._obtain(Component.SUCCESSOR, prompts.successor_prompt(self.domain_pddl, first), 1)
            self._obtain(Component.GOAL, prompts.goal_prompt(first), 1)
            self.result.milestones["initial"] = self.result.program
            step = 2
            while True:
                if step == 2:
                    found = self.step2()
                    step = 3 if found is None else self._feedback(2, *found)
                elif step == 3:
                    found = self.step3()
                    if found is None:
                        if self.result.calls_until_sound is None:
                            self.result.calls_until_sound = self.total_calls
                            self.result.milestones["sound"] = self.result.program
                        if not self.settings.completeness_test:
                            break
                        step = 4
                    else:
                        step = self._feedback(3, *found)
                else:
                    found = self.step4()
                    if found is None:
                        break
                    step = self._feedback(4, *found)
            self.result.outcome = "passed"
            self.result.calls_until_passed = self.total_calls
        except BudgetExhausted:
            self.result.outcome = "budget-exhausted"
        if "initial" in self.result.milestones:
            self.result.milestones["final"] = self.result.program
        return self.result


def run_protocol(
    model: LanguageModel,
    domain_pddl: str,
    examples: Sequence[ExampleProblem],
    settings: AutoToSSettings,
    runner: HarnessRunner,
    on_event: Callable[[str], None] = lambda text: None,
) -> ProtocolResult:
    """Obtain search components from ``model`` by the AutoToS protocol.

    Args:
        model: the language model (wrapped by the caller for recording).
        domain_pddl: the domain as the model sees it.
        examples: the example problems (the first one's initial state and goal are the
            prompts' example input).
        settings: the protocol's settings.
        runner: how harness calls reach the sandbox.
        on_event: called with a line for a person after each feedback message.

    Returns:
        The :class:`ProtocolResult`; components are returned whatever the outcome.

    Raises:
        ValueError: no example problems.
        genplan.llm.LLMError: the backend failed (the caller's recorder keeps the conversation).
    """
    if not examples:
        raise ValueError("AutoToS needs at least one training problem to make example problems from")
    return Loop(model, domain_pddl, examples, settings, runner, on_event).run()


_FEEDBACK_CATEGORIES = frozenset(c.value for c in ErrorCategory if c is not ErrorCategory.PARSE_ERROR)


def _known_failure(failure: object) -> bool:
    """Whether a harness's failure report names an error category that has feedback."""
    return isinstance(failure, dict) and failure.get("category") in _FEEDBACK_CATEGORIES
