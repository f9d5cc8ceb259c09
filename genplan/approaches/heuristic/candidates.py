"""Candidate heuristics: asked of the model one sample each, checked, and (with repair) revised.

Each candidate is one independent request (``sample=i``) with the same prompt, as Corrêa,
Pereira and Seipp sample n heuristics per domain. A candidate is then checked in the sandbox on
the probe states (:mod:`genplan.approaches.heuristic.probes`): its program compiles under the
sandbox policy, ``make_heuristic`` runs, and ``h`` gives a number >= 0 on every probe state,
finite on the smallest training problem's initial state. A candidate that fails is recorded
with its reason and not used further. A candidate that passes may still contradict properties
of the probe states (:func:`~genplan.approaches.heuristic.probes.counterexamples`); with
``repair`` it gets one revision request showing them, in the same conversation, and the revision
replaces it when the revision passes the check.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from genplan.approaches.heuristic import prompts
from genplan.approaches.heuristic.probes import Counterexample, Probe, counterexamples
from genplan.approaches.heuristic.searching import HARNESS, SLACK_SECONDS, Runner, capped, outcome_failure
from genplan.llm import LanguageModel, Message
from genplan.llm.extract import extract_code
from genplan.plans.untrusted_text import shown_text
from genplan.sandbox import RunStatus

USABLE = "usable"
NO_CODE = "no-code"
CHECK_FAILED = "check-failed"


@dataclass(frozen=True)
class Check:
    """A program's check on the probe states.

    Attributes:
        status: :data:`USABLE`, :data:`NO_CODE` (the answer holds no Python code) or
            :data:`CHECK_FAILED`.
        reason: why it failed, capped (a traceback is in the program's own line numbers).
        values: ``h`` on each probe's states (floats, ``"inf"``), for a usable program.
        found: the values that contradict a property of their state.
    """

    status: str
    reason: str | None = None
    values: list[list[Any]] = field(default_factory=list)
    found: list[Counterexample] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        """Whether the program passed the check."""
        return self.status == USABLE

    def to_json(self) -> dict[str, Any]:
        """What the record keeps: status, reason, counterexamples by kind."""
        return {
            "status": self.status,
            "reason": self.reason,
            "counterexamples": dict(sorted(Counter(c.kind for c in self.found).items())),
        }


@dataclass
class Candidate:
    """One candidate heuristic.

    Attributes:
        index: 1, 2, ... (its request's ``sample`` is ``index - 1``).
        answer: the model's first answer.
        first_source: the first answer's code (``None`` when it held none).
        first: the first program's check.
        revision_source: the revision's code, if repair asked for one.
        revision: the revision's check, if repair asked for one.
    """

    index: int
    answer: str
    first_source: str | None
    first: Check
    revision_source: str | None = None
    revision: Check | None = None

    @property
    def source(self) -> str | None:
        """The program used from here on: the revision when it replaced the first, else the first."""
        return self.revision_source if self.revised else self.first_source

    @property
    def check(self) -> Check:
        """The check of the program in use."""
        return self.revision if self.revised and self.revision is not None else self.first

    @property
    def revised(self) -> bool:
        """Whether the revision replaced the first program."""
        return self.revision is not None and self.revision.usable

    @property
    def usable(self) -> bool:
        """Whether the candidate goes on to selection."""
        return self.source is not None and self.check.usable

    def to_json(self) -> dict[str, Any]:
        """What the record keeps of the candidate (its sources are artifacts of their own)."""
        return {
            "candidate": self.index,
            **self.first.to_json(),
            "repair": None
            if self.revision is None
            else {**self.revision.to_json(), "replaced": self.revised},
        }


def check_program(runner: Runner, source: str, probes: Sequence[Probe], seconds: float) -> Check:
    """Check ``source`` on the probe states in one sandboxed call of
    :func:`genplan.approaches.heuristic.harness.values`."""
    args = [source, [probe.harness_json() for probe in probes], seconds]
    outcome = runner(source, f"{HARNESS}:values", args, seconds + SLACK_SECONDS)
    if outcome.status is not RunStatus.SUCCESS:
        status, message = outcome_failure(outcome)
        what = "the program does not compile or its top level raised" if status == "program-error" else status
        return Check(CHECK_FAILED, capped(f"{what}: {message}" if message else what))
    value = outcome.value
    sizes = [len(probe.states) for probe in probes]
    malformed = Check(CHECK_FAILED, "the check sent a malformed answer")
    if type(value) is not dict or type(value.get("values")) is not list:
        return malformed
    failure = value.get("failure")
    if failure is not None:
        if type(failure) is not dict or type(failure.get("message")) is not str:
            return malformed
        probe = failure.get("probe")
        where = (
            f" (on {probes[probe].problem.name})" if type(probe) is int and 0 <= probe < len(probes) else ""
        )
        return Check(CHECK_FAILED, capped(f"{failure.get('kind')}{where}: {failure['message']}"))
    found = value["values"]
    if [len(v) if type(v) is list else -1 for v in found] != sizes or not all(
        _is_value(x) for probe_values in found for x in probe_values
    ):
        return malformed
    if found[0][0] == "inf":
        return Check(CHECK_FAILED, f"h is infinite on the initial state of {probes[0].problem.name}")
    return Check(USABLE, values=found, found=counterexamples(probes, found))


def _is_value(value: Any) -> bool:
    return value == "inf" or (type(value) is float and math.isfinite(value) and value >= 0)


class Asker:
    """Asks for, checks and repairs candidates (one run's worth).

    Args:
        model: the run's (recording) model.
        prompt: the heuristic prompt (:func:`~genplan.approaches.heuristic.prompts.heuristic_prompt`).
        probes: the probe states' problems.
        runner: how checks reach the sandbox.
        check_seconds: the time limit of one check.
        repair: whether a candidate with counterexamples gets one revision request.
        note: called with a line for a person after each candidate.
    """

    def __init__(
        self,
        model: LanguageModel,
        prompt: str,
        probes: Sequence[Probe],
        runner: Runner,
        check_seconds: float,
        repair: bool,
        note: Callable[[str], None] = lambda text: None,
    ):
        self.model, self.prompt, self.probes, self.runner = model, prompt, list(probes), runner
        self.check_seconds, self.repair, self.note = check_seconds, repair, note

    def _check(self, answer: str) -> tuple[str | None, Check]:
        source = extract_code(answer)
        if source is None:
            return None, Check(NO_CODE, "the answer holds no Python code")
        return source, check_program(self.runner, source, self.probes, self.check_seconds)

    def candidate(self, index: int) -> Candidate:
        """Ask for candidate ``index`` (1-based), check it and, with repair, revise it once."""
        messages = [Message("user", self.prompt)]
        answer = self.model.complete(messages, sample=index - 1).text
        source, first = self._check(answer)
        candidate = Candidate(index, answer, source, first)
        if self.repair and first.usable and first.found:
            request = prompts.repair_prompt(first.found, self.probes)
            conversation = [*messages, Message("assistant", answer), Message("user", request)]
            revised_answer = self.model.complete(conversation, sample=index - 1).text
            candidate.revision_source, candidate.revision = self._check(revised_answer)
        self.note(describe_candidate(candidate))
        return candidate


def reason_line(reason: str, limit: int = 200) -> str:
    """A failure's reason on one line: its first line and, for a traceback, its last (the error),
    control characters escaped and at most ``limit`` characters of it shown."""
    lines = [line.strip() for line in reason.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    text = lines[0] if len(lines) == 1 else f"{lines[0]} {lines[-1]}"
    return shown_text(text, limit)  # the program's text: escaped for the terminal


def describe_candidate(candidate: Candidate) -> str:
    """One line for a person on how candidate's check (and repair) went."""
    check = candidate.first
    text = f"candidate {candidate.index}: {check.status}"
    if check.reason:
        text += f" ({reason_line(check.reason)})"
    if check.found:
        text += f", {len(check.found)} counterexample{'s' * (len(check.found) != 1)}"
    if candidate.revision is not None:
        after = candidate.revision
        verdict = "replaced it" if candidate.revised else f"not used ({after.status})"
        text += f"; revision {verdict}, {len(after.found)} counterexamples after"
    return text
