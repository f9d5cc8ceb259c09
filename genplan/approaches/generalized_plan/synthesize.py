"""The synthesis loop: chain-of-thought prompting and automated debugging (Sec. 4.1, 4.2).

One conversation with a language model produces one generalized plan: a Python program
defining ``get_plan(objects, init, goal)``. Every answer's code is appended to a growing
program file, so helpers defined in earlier answers stay defined (Sec. 4.2, "Additional
Details"). After the last feedback round the final program is used whatever its training
outcome.

Beyond the paper, each behind a setting that is off by default (:mod:`.settings`): a strategy
check before the code (:mod:`.strategy`), reflection before each repair, and scaling feedback
after a program solves every training problem (:mod:`.scaling`). Several candidates are
several calls of :func:`synthesize`, one per sample (:mod:`.candidates`, :mod:`.runs`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from genplan.approaches.generalized_plan import prompts, refinement_prompts
from genplan.approaches.generalized_plan.checking import check_training, feedback_for
from genplan.approaches.generalized_plan.plan_quality import check_quality
from genplan.approaches.generalized_plan.scaling import ScalingTarget, ScalingVerdict, check_scaling
from genplan.approaches.generalized_plan.settings import SynthesisSettings
from genplan.approaches.generalized_plan.strategy import StrategyCheck, check_strategy
from genplan.llm import LanguageModel, Message, Usage
from genplan.llm.extract import extract_code
from genplan.pddl.problem import Problem
from genplan.plans.failures import FailureKind
from genplan.runs.keys import ProblemNames
from genplan.runs.observations import Observations
from genplan.sandbox import Limits

REFLECTION_LIMIT = 4000
"""Characters of a reflection kept in the training rounds."""


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
        scaling: the scaling check (:meth:`~.scaling.ScalingVerdict.to_json`) when
            ``scaling_feedback`` is on and the program solved every training problem, else ``None``.
        reflection: with ``reflect``, the model's explanation before this program's code (the
            answer's text before its first code block), else ``None``.
        quality: with ``quality_feedback``, the plan-cost check
            (:meth:`~.plan_quality.QualityVerdict.to_json`) of a program that solved every training
            problem; for a revision after plan-quality feedback also ``kept`` (``False``: the
            program before it stays, and ``reason`` says why), else ``None``.
    """

    round: int
    passed: int
    failed_problem: str | None
    failure: FailureKind | None
    feedback: str | None
    scaling: dict[str, Any] | None = None
    reflection: str | None = None
    quality: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``scaling`` and ``reflection`` only when present, so the paper's
        runs keep the paper's fields)."""
        data: dict[str, Any] = {
            "round": self.round,
            "passed": self.passed,
            "failed_problem": self.failed_problem,
            "failure": self.failure.value if self.failure else None,
            "feedback": self.feedback,
        }
        if self.scaling is not None:
            data["scaling"] = self.scaling
        if self.reflection is not None:
            data["reflection"] = self.reflection
        if self.quality is not None:
            data["quality"] = self.quality
        return data


@dataclass
class SynthesisResult:
    """What a synthesis run produced.

    Attributes:
        program: the final growing program (every answer's code, in order).
        rounds: the training check of each program version, in order.
        usage: prompt and completion tokens summed over the conversation (``None`` if unknown).
        training_problems_used: problems shown in the prompt or that triggered feedback
            (Figure 5 of the paper).
        strategy_checks: with ``check_strategy``, each plan the model wrote by following its
            strategy (:class:`~.strategy.StrategyCheck`), in order.
        exchanges: model calls made.
    """

    program: str
    rounds: list[TrainingRound] = field(default_factory=list)
    usage: Usage = field(default_factory=lambda: Usage(0, 0))
    training_problems_used: list[str] = field(default_factory=list)
    strategy_checks: list[StrategyCheck] = field(default_factory=list)
    exchanges: int = 0

    @property
    def solved_training(self) -> bool:
        """Whether the final program solved every training problem (plans costlier than
        optimal ones count as solved)."""
        return bool(self.rounds) and self.rounds[-1].failure in (None, FailureKind.PLAN_QUALITY)

    @property
    def feedback_rounds_used(self) -> int:
        """Feedback messages sent: each round after the first answers one."""
        return max(len(self.rounds) - 1, 0)

    @property
    def feedback_kinds(self) -> list[str]:
        """The kind of each feedback message on the code sent, in order."""
        kinds = [r.failure.value for r in self.rounds if r.failure is not None]
        return kinds[: self.feedback_rounds_used]

    @property
    def strategy_feedback(self) -> int:
        """Strategy revision requests sent (each after an invalid or missing plan)."""
        return max(len(self.strategy_checks) - 1, 0)


class Conversation:
    """The growing message list of one run; every exchange goes through ``model``.

    ``on_exchange(messages, completion)`` is called after each answer (for recording).
    ``prompt_tokens`` and ``completion_tokens`` are totals over all answers, or None once any
    answer came without a count (the ``files`` and ``manual`` backends report none). Every
    request asks for ``sample`` (several candidates: one independent conversation each).
    """

    def __init__(
        self,
        model: LanguageModel,
        on_exchange: Callable[[list[Message], Any], None] | None = None,
        sample: int = 0,
    ):
        self.model = model
        self.messages: list[Message] = []
        self.on_exchange = on_exchange
        self.sample = sample
        self.calls = 0
        self.prompt_tokens: int | None = 0
        self.completion_tokens: int | None = 0

    def ask(self, text: str) -> str:
        """Send ``text`` as the next user message; return the assistant's answer."""
        self.messages.append(Message("user", text))
        completion = self.model.complete(list(self.messages), sample=self.sample)
        self.calls += 1
        self.messages.append(Message("assistant", completion.text))
        total = Usage(self.prompt_tokens, self.completion_tokens).plus(completion.usage)
        self.prompt_tokens, self.completion_tokens = total.prompt_tokens, total.completion_tokens
        if self.on_exchange is not None:
            self.on_exchange(list(self.messages[:-1]), completion)
        return completion.text


def pddl_name(problem: Problem) -> str:
    """``problem``'s PDDL name (how a run names generated problems: their names are unique)."""
    return problem.name


def reflection_of(answer: str) -> str | None:
    """The text of ``answer`` before its first code block (the model's explanation), capped at
    :data:`REFLECTION_LIMIT` characters, or ``None`` when there is none."""
    text = answer.split("```", 1)[0].strip()
    return text[:REFLECTION_LIMIT] or None


def synthesize(
    model: LanguageModel,
    domain_pddl: str,
    training: Sequence[Problem],
    settings: SynthesisSettings | None = None,
    *,
    on_exchange: Callable[[list[Message], Any], None] | None = None,
    on_program: Callable[[str], None] | None = None,
    on_round: Callable[[TrainingRound], None] | None = None,
    limits: Limits,
    sample: int = 0,
    scaling_target: ScalingTarget | None = None,
    observations: Observations | None = None,
    names: ProblemNames | None = None,
    note: Callable[[str], None] | None = None,
) -> SynthesisResult:
    """Synthesize a generalized plan for a domain from its training problems (one conversation).

    Args:
        model: the language model (any backend).
        domain_pddl: the domain as the model sees it (obfuscated for "No Names").
        training: training problems, the prompt problems first (smallest first, Sec. 4.1).
        settings: variant, budgets and the mechanisms beyond the paper (default: the paper's
            main approach).
        on_exchange: called after every answer with the messages sent and the completion.
        on_program: called with the growing program each time it grows (to save it at once).
        on_round: called after each training check.
        limits: the sandbox's limits and isolation for the training checks.
        sample: the sample every request asks for (candidate ``k`` of several asks for ``k``).
        scaling_target: the largest evaluation size and budget, for ``scaling_feedback``
            (without it no scaling check is made).
        observations: where the scaling check's measurements are recorded and reused.
        names: how rounds, ``training_problems_used`` and the plan-quality table name training
            problems (a folder's file keys, ``training/easy/p01.pddl``, as results name problems,
            :func:`~genplan.runs.keys.names_by_key`); their PDDL names where not given.
        note: where progress lines of long checks go (the optimal costs of quality feedback).

    Returns:
        The :class:`SynthesisResult`; the program is returned even when training fails.

    Raises:
        genplan.llm.LLMError: when the backend fails (everything recorded so far is kept by
            the callbacks).
        IsolationUnavailable: the sandbox cannot start (the message says how to enable it).
    """
    if not training:
        raise ValueError("synthesis needs at least one training problem")
    settings = settings or SynthesisSettings()
    variant = settings.variant
    examples = list(training[: settings.prompt_problems])
    typed = training[0].domain.typed
    conversation = Conversation(model, on_exchange, sample)
    named: ProblemNames = names or pddl_name
    result = SynthesisResult(program="", training_problems_used=[named(p) for p in examples])
    if variant.chain_of_thought:
        conversation.ask(prompts.summary_prompt(domain_pddl, examples))
        conversation.ask(prompts.STRATEGY_PROMPT)
        if settings.check_strategy:
            result.strategy_checks = check_strategy(
                conversation.ask, examples or training[:1], settings.strategy_rounds
            )
        answer = conversation.ask(prompts.implementation_prompt(typed))
    else:
        answer = conversation.ask(prompts.no_cot_prompt(domain_pddl, examples, typed))

    rounds_allowed = settings.feedback_rounds if variant.debugging else 0
    before_quality: tuple[str, float] | None = (
        None  # the program and its total cost before plan-quality feedback
    )
    for round_index in range(rounds_allowed + 1):
        reflection = reflection_of(answer) if settings.reflect and round_index > 0 else None
        code = extract_code(answer)
        if code is None:
            training_round = TrainingRound(
                round_index, 0, None, FailureKind.NO_CODE, prompts.no_code_feedback(), reflection=reflection
            )
        else:
            header = f"# ---- answer {round_index + 1} ----\n"
            result.program += ("\n\n" if result.program else "") + header + code
            if on_program is not None:
                on_program(result.program)
            training_round = _check_round(
                result, round_index, training, settings, limits, scaling_target, observations, named, note
            )
            training_round = dataclasses.replace(training_round, reflection=reflection)
        if before_quality is not None:
            projection = _revision_scaling(
                result.program, training_round, training, settings, limits, scaling_target, observations
            )
            training_round, kept = _keep_the_better(training_round, before_quality, len(training), projection)
            if not kept:
                result.program = before_quality[0]
                result.rounds.append(training_round)
                if on_round is not None:
                    on_round(training_round)
                break
            before_quality = None
        if training_round.failure is FailureKind.PLAN_QUALITY and training_round.quality is not None:
            before_quality = (result.program, float(training_round.quality["total_cost"]))
        result.rounds.append(training_round)
        if on_round is not None:
            on_round(training_round)
        if training_round.failure is None or round_index == rounds_allowed:
            break
        assert training_round.feedback is not None
        answer = conversation.ask(training_round.feedback)
    result.usage = Usage(conversation.prompt_tokens, conversation.completion_tokens)
    result.exchanges = conversation.calls
    return result


def _check_round(
    result: SynthesisResult,
    round_index: int,
    training: Sequence[Problem],
    settings: SynthesisSettings,
    limits: Limits,
    scaling_target: ScalingTarget | None,
    observations: Observations | None,
    names: ProblemNames,
    note: Callable[[str], None] | None = None,
) -> TrainingRound:
    """The training check of the program so far, then (all solved) its scaling check; the
    round with the feedback to send (reflective with ``reflect``)."""
    passed, check, problem = check_training(result.program, training, settings.timeout, limits)
    if check is not None and problem is not None:
        name = names(problem)
        if name not in result.training_problems_used:
            result.training_problems_used.append(name)
        feedback = feedback_for(check, problem)
        if settings.reflect:
            feedback = refinement_prompts.reflective(feedback)
        return TrainingRound(round_index, passed, name, check.failure, feedback)
    if not settings.scaling_feedback or scaling_target is None:
        return _check_quality(
            result, round_index, passed, training, settings, limits, observations, names, note
        )
    verdict = check_scaling(
        result.program,
        training,
        scaling_target,
        timeout=settings.timeout,
        limits=limits,
        observations=observations,
    )
    if not verdict.too_slow:
        checked = _check_quality(
            result, round_index, passed, training, settings, limits, observations, names, note
        )
        return dataclasses.replace(checked, scaling=verdict.to_json())
    feedback = verdict.feedback(result.program)
    if settings.reflect:
        feedback = refinement_prompts.reflective(feedback)
    return TrainingRound(round_index, passed, None, FailureKind.SCALING, feedback, scaling=verdict.to_json())


def _check_quality(
    result: SynthesisResult,
    round_index: int,
    passed: int,
    training: Sequence[Problem],
    settings: SynthesisSettings,
    limits: Limits,
    observations: Observations | None,
    names: ProblemNames,
    note: Callable[[str], None] | None = None,
) -> TrainingRound:
    """With ``quality_feedback``, the plan-cost check of a program that solved every training
    problem: plan-quality feedback when its plans cost too much (:mod:`.plan_quality`); problems
    named by ``names`` (see :func:`synthesize`)."""
    solved = TrainingRound(round_index, passed, None, None, None)
    if not settings.quality_feedback:
        return solved
    verdict = check_quality(
        result.program,
        training,
        settings.quality_threshold,
        timeout=settings.timeout,
        limits=limits,
        observations=observations or Observations(),
        names=names,
        budget=settings.quality_budget,
        note=note,
    )
    if verdict is None:
        return solved
    quality = verdict.to_json()
    index = verdict.worst_index
    if not verdict.too_costly or index is None:
        return dataclasses.replace(solved, quality=quality)
    worst, problem = verdict.comparisons[index], training[index]  # by position: names may repeat
    if worst.problem not in result.training_problems_used:
        result.training_problems_used.append(worst.problem)
    feedback = verdict.feedback(problem)
    if settings.reflect:
        feedback = refinement_prompts.reflective(feedback)
    return TrainingRound(
        round_index, passed, worst.problem, FailureKind.PLAN_QUALITY, feedback, quality=quality
    )


def _revision_scaling(
    program: str,
    training_round: TrainingRound,
    training: Sequence[Problem],
    settings: SynthesisSettings,
    limits: Limits,
    scaling_target: ScalingTarget | None,
    observations: Observations | None,
) -> ScalingVerdict | None:
    """The scaling check of a revision answering plan-quality feedback that solved every
    training problem, made whether or not ``scaling_feedback`` is on (with it, the round has
    already made it: ``None`` then), or ``None`` without a target. Cheaper plans can cost
    time: the training problems are too small to show it (issue 36)."""
    if scaling_target is None or settings.scaling_feedback:
        return None
    if training_round.failure not in (None, FailureKind.PLAN_QUALITY):
        return None
    return check_scaling(
        program, training, scaling_target, timeout=settings.timeout, limits=limits, observations=observations
    )


def _projection_reason(scaling: dict[str, Any]) -> str | None:
    """Why a revision is too slow, from its scaling check's record (its verdict,
    :attr:`~.scaling.ScalingVerdict.too_slow`, recorded as ``too_slow``); ``None`` when it is not."""
    if not scaling.get("too_slow"):
        return None
    projected, target = scaling["projected_seconds"], scaling["target"]
    budget = target["budget_seconds"]
    return (
        f"too slow: projected {projected:.3g} s at the largest evaluation size ({target.get('objects')} "
        f"objects, {target.get('init_atoms')} initial atoms), over the time limit of {budget:g} s"
    )


def _keep_the_better(
    training_round: TrainingRound,
    before: tuple[str, float],
    total: int,
    scaling: ScalingVerdict | None = None,
) -> tuple[TrainingRound, bool]:
    """Whether a revision answering plan-quality feedback is kept: it must solve every training
    problem, cost less in total than the program before (whose total cost ``before`` holds),
    and its time projected to the largest evaluation size (``scaling``, or the round's own
    scaling check) must stay within the time limit. A revision not kept is recorded with
    ``quality.kept`` false and why (a projection past the limit also with ``quality.scaling``);
    its round then has no failure and no feedback (the program before, which solves every
    training problem, stays)."""
    quality = dict(training_round.quality or {})
    reason = None
    projection = scaling.to_json() if scaling is not None else training_round.scaling
    too_slow = _projection_reason(projection) if projection is not None else None
    if training_round.failure not in (None, FailureKind.PLAN_QUALITY):
        failure = training_round.failure.value if training_round.failure else None
        reason = too_slow or f"solves {training_round.passed} of {total} training problems ({failure})"
        quality["failure"] = failure
    elif too_slow is not None:
        reason = too_slow
        quality["scaling"] = projection
    elif "total_cost" in quality and quality["total_cost"] >= before[1]:
        reason = f"not cheaper: total cost {quality['total_cost']:g}, before {before[1]:g}"
    if reason is None:
        quality["kept"] = True
        return dataclasses.replace(training_round, quality=quality), True
    quality.update(kept=False, reason=reason)
    return dataclasses.replace(training_round, failure=None, feedback=None, quality=quality), False
