"""The synthesis loop: chain-of-thought prompting and automated debugging (Sec. 4.1, 4.2).

One conversation with a language model produces one generalized plan: a Python program
defining ``get_plan(objects, init, goal)``. Every answer's code is appended to a growing
program file, so helpers defined in earlier answers stay defined (Sec. 4.2, "Additional
Details"). After the last feedback round the final program is used whatever its training
outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from genplan.approaches.generalized_plan import prompts
from genplan.approaches.generalized_plan.checking import ProblemCheck, check_program
from genplan.approaches.generalized_plan.variants import Variant
from genplan.llm import LanguageModel, Message, Usage
from genplan.llm.extract import extract_code
from genplan.pddl.problem import Problem
from genplan.plans.failures import FailureKind
from genplan.sandbox import Limits


@dataclass(frozen=True)
class SynthesisSettings:
    """Settings of the generalized-plan approach; the defaults are the paper's main approach.

    Attributes:
        chain_of_thought: ask for a domain summary and a strategy before the code (Sec. 4.1);
            off is the "No CoT" ablation (Sec. 5.1).
        debugging: give feedback and ask for repairs (Sec. 4.2); off is "No Debug".
        names: show the domain's own names; off is "No Names" (every name obfuscated).
        feedback_rounds: feedback messages at most (the paper's 4).
        timeout: seconds per training run of the program (the paper's 30).
        prompt_problems: training problems shown in the first prompt (the paper's 2).
    """

    chain_of_thought: bool = field(
        default=True, metadata={"help": "summary and strategy prompts before the code (off: No CoT)"}
    )
    debugging: bool = field(default=True, metadata={"help": "automated debugging (off: No Debug)"})
    names: bool = field(default=True, metadata={"help": "the domain's own names (off: No Names)"})
    feedback_rounds: int = field(default=4, metadata={"help": "feedback messages at most"})
    timeout: float = field(default=30.0, metadata={"help": "seconds per training run of the program"})
    prompt_problems: int = field(default=2, metadata={"help": "training problems shown in the first prompt"})

    @property
    def variant(self) -> Variant:
        """Which of the paper's ablations these settings are (Sec. 5.1)."""
        return Variant(self.chain_of_thought, self.debugging, self.names)


@dataclass(frozen=True)
class TrainingRound:
    """The training check of one program version.

    Attributes:
        round: 0 for the first program, ``k`` for the program after ``k`` feedback messages.
        passed: training problems solved before the first failure (all of them on success).
        failed_problem: the problem that failed, or ``None``.
        failure: the kind of failure, ``FailureKind.NO_CODE`` when the answer held no code, or
            ``None`` when every training problem was solved.
        feedback: the feedback text sent back (or that would be sent when debugging is off).
    """

    round: int
    passed: int
    failed_problem: str | None
    failure: FailureKind | None
    feedback: str | None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "round": self.round,
            "passed": self.passed,
            "failed_problem": self.failed_problem,
            "failure": self.failure.value if self.failure else None,
            "feedback": self.feedback,
        }


@dataclass
class SynthesisResult:
    """What a synthesis run produced.

    Attributes:
        program: the final growing program (every answer's code, in order).
        rounds: the training check of each program version, in order.
        usage: prompt and completion tokens summed over the conversation (``None`` if unknown).
        training_problems_used: problems shown in the prompt or that triggered feedback
            (Figure 5 of the paper).
    """

    program: str
    rounds: list[TrainingRound] = field(default_factory=list)
    usage: Usage = field(default_factory=lambda: Usage(0, 0))
    training_problems_used: list[str] = field(default_factory=list)

    @property
    def solved_training(self) -> bool:
        """Whether the final program solved every training problem."""
        return bool(self.rounds) and self.rounds[-1].failure is None

    @property
    def feedback_rounds_used(self) -> int:
        """Feedback messages sent: each round after the first answers one."""
        return max(len(self.rounds) - 1, 0)


def feedback_for(check: ProblemCheck, problem: Problem) -> str:
    """The paper's feedback message for a failed check (Sec. 4.2), showing the problem."""
    verdict = check.verdict
    keep: set[str] = set()
    plan = check.outcome.plan
    if (
        verdict is not None
        and plan
        and verdict.failing_step is not None
        and 0 <= verdict.failing_step < len(plan)
    ):
        keep = set(plan[verdict.failing_step].strip("() ").lower().split()[1:])
    task = prompts.task_text_for_feedback(problem, keep)
    outcome = check.outcome
    if check.failure is FailureKind.PYTHON_EXCEPTION:
        return prompts.exception_feedback(task, outcome.traceback or outcome.reason or "")
    if check.failure is FailureKind.TIMEOUT:
        return prompts.timeout_feedback(task, outcome.traceback, outcome.seconds)
    if check.failure is FailureKind.CRASHED:
        return prompts.crash_feedback(task, outcome.reason or "the process died")
    assert verdict is not None
    if check.failure is FailureKind.PLAN_SYNTAX:
        shown = prompts.plan_display(outcome.plan) if outcome.plan is not None else (outcome.output or "")
        return prompts.syntax_feedback(task, shown, verdict.message, problem.domain.valid_operators_text())
    return prompts.semantics_feedback(task, outcome.plan or [], verdict.message)


def check_training(
    program: str, problems: Sequence[Problem], timeout: float, limits: Limits | None = None
) -> tuple[int, ProblemCheck | None, Problem | None]:
    """Run ``program`` on ``problems`` in order until the first failure.

    Returns:
        ``(passed, failed check or None, failed problem or None)``.
    """
    for index, problem in enumerate(problems):
        check = check_program(program, problem, timeout=timeout, limits=limits)
        if not check.solved:
            return index, check, problem
    return len(problems), None, None


def _add_count(total: int | None, count: int | None) -> int | None:
    """``total + count``, where an unknown count (None) makes the total unknown."""
    return None if total is None or count is None else total + count


class Conversation:
    """The growing message list of one run; every exchange goes through ``model``.

    ``on_exchange(messages, completion)`` is called after each answer (for recording).
    ``prompt_tokens`` and ``completion_tokens`` are totals over all answers, or None once any
    answer came without a count (the ``files`` and ``manual`` backends report none).
    """

    def __init__(self, model: LanguageModel, on_exchange: Callable[[list[Message], Any], None] | None = None):
        self.model = model
        self.messages: list[Message] = []
        self.on_exchange = on_exchange
        self.prompt_tokens: int | None = 0
        self.completion_tokens: int | None = 0

    def ask(self, text: str) -> str:
        """Send ``text`` as the next user message; return the assistant's answer."""
        self.messages.append(Message("user", text))
        completion = self.model.complete(list(self.messages))
        self.messages.append(Message("assistant", completion.text))
        self.prompt_tokens = _add_count(self.prompt_tokens, completion.usage.prompt_tokens)
        self.completion_tokens = _add_count(self.completion_tokens, completion.usage.completion_tokens)
        if self.on_exchange is not None:
            self.on_exchange(list(self.messages[:-1]), completion)
        return completion.text


def synthesize(
    model: LanguageModel,
    domain_pddl: str,
    training: Sequence[Problem],
    settings: SynthesisSettings = SynthesisSettings(),
    *,
    on_exchange: Callable[[list[Message], Any], None] | None = None,
    on_program: Callable[[str], None] | None = None,
    on_round: Callable[[TrainingRound], None] | None = None,
    limits: Limits | None = None,
) -> SynthesisResult:
    """Synthesize a generalized plan for a domain from its training problems.

    Args:
        model: the language model (any backend).
        domain_pddl: the domain as the model sees it (obfuscated for "No Names").
        training: training problems, the prompt problems first (smallest first, Sec. 4.1).
        settings: variant and budgets.
        on_exchange: called after every answer with the messages sent and the completion.
        on_program: called with the growing program each time it grows (to save it at once).
        on_round: called after each training check.
        limits: the sandbox's limits and isolation for the training checks.

    Returns:
        The :class:`SynthesisResult`; the program is returned even when training fails.

    Raises:
        genplan.llm.LLMError: when the backend fails (everything recorded so far is kept by
            the callbacks).
        IsolationUnavailable: the sandbox cannot start (the message says how to enable it).
    """
    if not training:
        raise ValueError("synthesis needs at least one training problem")
    variant = settings.variant
    examples = list(training[: settings.prompt_problems])
    typed = training[0].domain.typed
    conversation = Conversation(model, on_exchange)
    if variant.chain_of_thought:
        conversation.ask(prompts.summary_prompt(domain_pddl, examples))
        conversation.ask(prompts.STRATEGY_PROMPT)
        answer = conversation.ask(prompts.implementation_prompt(typed))
    else:
        answer = conversation.ask(prompts.no_cot_prompt(domain_pddl, examples, typed))

    result = SynthesisResult(program="", training_problems_used=[p.name for p in examples])
    rounds_allowed = settings.feedback_rounds if variant.debugging else 0
    for round_index in range(rounds_allowed + 1):
        code = extract_code(answer)
        if code is None:
            training_round = TrainingRound(
                round_index, 0, None, FailureKind.NO_CODE, prompts.no_code_feedback()
            )
        else:
            header = f"# ---- answer {round_index + 1} ----\n"
            result.program += ("\n\n" if result.program else "") + header + code
            if on_program is not None:
                on_program(result.program)
            passed, check, problem = check_training(result.program, training, settings.timeout, limits)
            if check is None or problem is None:
                training_round = TrainingRound(round_index, passed, None, None, None)
            else:
                if problem.name not in result.training_problems_used:
                    result.training_problems_used.append(problem.name)
                feedback = feedback_for(check, problem)
                training_round = TrainingRound(round_index, passed, problem.name, check.failure, feedback)
        result.rounds.append(training_round)
        if on_round is not None:
            on_round(training_round)
        if training_round.failure is None or round_index == rounds_allowed:
            break
        assert training_round.feedback is not None
        answer = conversation.ask(training_round.feedback)
    result.usage = Usage(conversation.prompt_tokens, conversation.completion_tokens)
    return result
