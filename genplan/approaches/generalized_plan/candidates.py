"""Several candidates (``--candidates N``): independent conversations, the best on held-out problems kept.

Beyond the paper, after Stein et al. 2025 (several initial programs, selection on held-out
problems). Candidate ``k`` is a whole conversation of its own whose every request asks for
sample ``k`` (:class:`~genplan.llm.base.LanguageModel`: the backend sends seed ``seed + k``,
the cache and the recording key the answer by it), with its own debugging budget; candidate 0
is exactly the conversation of a single-candidate run. Each final program is then run on the
*validation problems*, which no prompt shows and no debugging uses:

* a ``validation/`` folder of the user's problem set when there is one
  (:mod:`genplan.pddl.problem_sets`), else
* every third training problem beyond those shown in the first prompt (the built-in size
  check problem stays with training), held out from debugging.

The candidate that solves the most validation problems is kept; ties go to the smaller total
runtime over the validation problems, then to the lower index. Validation times are
observations (:mod:`genplan.runs.observations`), so a rerun or replay keeps the same choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from genplan.approaches.generalized_plan.checking import check_program
from genplan.approaches.generalized_plan.synthesize import SynthesisResult
from genplan.pddl.problem import Problem
from genplan.runs.observations import Observations, observation_key
from genplan.sandbox import Limits

HOLD_OUT_EVERY = 3
"""Every third training problem past the prompt problems is held out for validation."""


def split_validation(
    training: Sequence[Problem],
    validation: Sequence[Problem],
    prompt_problems: int,
    size_check: bool,
) -> tuple[list[Problem], list[Problem]]:
    """The problems debugging uses and the validation problems.

    Args:
        training: the training problems, prompt problems first (and the size check problem
            last when ``size_check``).
        validation: the problem set's own validation problems (may be empty).
        prompt_problems: training problems shown in the first prompt (never held out).
        size_check: whether ``training`` ends with the built-in size check problem (kept for
            debugging).

    Returns:
        ``(debugging problems, validation problems)``: the training problems and the given
        validation problems when there are any, else the training problems without every
        :data:`HOLD_OUT_EVERY`-th one past the prompt problems, and those held out.
    """
    if validation:
        return list(training), list(validation)
    body = list(training[:-1]) if size_check and training else list(training)
    check = list(training[-1:]) if size_check and training else []
    shown, rest = body[:prompt_problems], body[prompt_problems:]
    held = rest[HOLD_OUT_EVERY - 1 :: HOLD_OUT_EVERY]
    kept = [problem for index, problem in enumerate(rest) if index % HOLD_OUT_EVERY != HOLD_OUT_EVERY - 1]
    return [*shown, *kept, *check], held


@dataclass
class Candidate:
    """One candidate: its conversation's outcome and its validation results.

    Attributes:
        index: ``k``, the sample every request of its conversation asked for.
        synthesis: its synthesis result (program, training rounds, strategy checks).
        validation: per validation problem ``{"problem", "status", "seconds"}``, in order.
    """

    index: int
    synthesis: SynthesisResult
    validation: list[dict[str, Any]] = field(default_factory=list)

    @property
    def validation_solved(self) -> int:
        """Validation problems solved."""
        return sum(entry["status"] == "solved" for entry in self.validation)

    @property
    def validation_seconds(self) -> float:
        """Seconds over every validation problem (a time-out counts as its budget)."""
        return sum(float(entry["seconds"]) for entry in self.validation)

    def to_json(self, selected: bool) -> dict[str, Any]:
        """The candidate's summary for the run record."""
        synthesis = self.synthesis
        last = synthesis.rounds[-1].failure if synthesis.rounds else None
        return {
            "candidate": self.index,
            "selected": selected,
            "llm_calls": synthesis.exchanges,
            "feedback_rounds_used": synthesis.feedback_rounds_used,
            "feedback_kinds": synthesis.feedback_kinds,
            "training_outcome": "solved all training problems"
            if synthesis.solved_training
            else f"failed ({last.value if last else 'unknown'})",
            "strategy_checks": [check.to_json() for check in synthesis.strategy_checks],
            "validation_solved": self.validation_solved,
            "validation_problems": len(self.validation),
            "validation_seconds": round(self.validation_seconds, 6),
            "validation": self.validation,
        }


def validate(
    program: str,
    problems: Sequence[Problem],
    *,
    timeout: float,
    limits: Limits,
    observations: Observations | None = None,
) -> list[dict[str, Any]]:
    """Run ``program`` on each validation problem (sandboxed, checked like a training run).

    Returns:
        Per problem ``{"problem", "status", "seconds"}`` (status ``solved`` or the failure).
    """
    observations = observations or Observations()
    results = []
    for problem in problems:

        def measure(problem: Problem = problem) -> dict[str, Any]:
            check = check_program(program, problem, timeout=timeout, limits=limits)
            status = "solved" if check.failure is None else check.failure.value
            return {"status": status, "seconds": round(check.seconds, 6)}

        measured = observations.get(observation_key("validation", program, problem), measure)
        results.append({"problem": problem.name, **measured})
    return results


def select(candidates: Sequence[Candidate]) -> Candidate:
    """The candidate that solved the most validation problems; ties: less total runtime, then
    the lower index.

    Raises:
        ValueError: no candidates.
    """
    if not candidates:
        raise ValueError("no candidates to select from")
    return min(candidates, key=lambda c: (-c.validation_solved, c.validation_seconds, c.index))
