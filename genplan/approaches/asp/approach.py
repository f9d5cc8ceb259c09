"""LLM+ASP behind the :class:`~genplan.approaches.base.Approach` seam.

A run lives in ``RUNS/<domain>/<label>-seed<S>/`` (label ``asp`` for the default settings):

* ``conversation.jsonl`` — every exchange with the model, appended as it happens;
* ``revisions.json`` — every program version with its stage, the feedback kinds sent about it,
  the segments changed and whether its checks passed (updated after each version);
* ``encoding.lp`` — the final encoding; ``sample_queries.lp`` — the final sample queries;
  ``main_query.lp`` — for a task in English, the final main query;
* ``observations.json`` — the outcome of every clingo run of self-revision's checks, recorded
  as it is made (:mod:`genplan.runs.observations`; see :class:`~.solver.Clingo`);
* ``results.json`` and ``metadata.json`` — the run record (see
  :class:`~genplan.approaches.base.RunRecord`): ``feedback`` counts revision requests by kind,
  ``details`` holds the revisions, why they stopped, LLM+AL's Table 3 categories found in
  the first and the final program (``issues_before``, ``issues_after``) and the checks' clingo
  runs made and reused (``check_clingo_runs``).

Rerunning the same command reuses the model cache and the recorded check outcomes, so it is free
up to the evaluation and asks exactly the prompts it asked before (a check that timed out stays
timed out on a faster machine); a replay (``RunContext.recorded``, through the run session) reuses the outcomes recorded
in the replayed run's folder. A run killed midway keeps its conversation and observations. The
evaluation always runs clingo.
"""

from __future__ import annotations

from typing import Any, ClassVar

from genplan.approaches.asp.checks import Checks
from genplan.approaches.asp.evaluation import evaluate_described, solve_problem
from genplan.approaches.asp.revision import Round, revise
from genplan.approaches.asp.settings import AspSettings
from genplan.approaches.asp.solver import Clingo
from genplan.approaches.asp.task import AspTask
from genplan.approaches.base import Approach, InputKind, ModelCode, RunRecord, RunSession
from genplan.pddl.described import DESCRIPTION_FILE, DescribedTask
from genplan.pddl.problem_sets import DomainProblems

REVISIONS_FILE = "revisions.json"
ENCODING_FILE = "encoding.lp"
SAMPLE_QUERIES_FILE = "sample_queries.lp"
MAIN_QUERY_FILE = "main_query.lp"


def _round_line(entry: Round) -> str:
    outcome = ", ".join(entry.kinds) if entry.kinds else ("checks passed" if entry.passed else "no request")
    changed = f"; changed {', '.join(entry.changed)}" if entry.changed else ""
    return f"program {entry.index} ({entry.stage}{changed}): {outcome}"


class AspApproach(Approach[DomainProblems | DescribedTask, AspSettings]):
    """LLM+AL (Ishay and Lee, AAAI 2025) on clingo: the model writes an action model as an
    answer-set program once per domain, following LLM+AL's stages and self-revision, and clingo
    plans every problem with it (genplan's interface: :mod:`.interface`)."""

    name: ClassVar[str] = "asp"
    summary: ClassVar[str] = (
        "a declarative action model in ASP per domain, planned by clingo (LLM+AL, AAAI 2025)"
    )
    settings_type: ClassVar[type] = AspSettings
    inputs: ClassVar[frozenset[InputKind]] = frozenset({InputKind.PDDL, InputKind.ENGLISH})
    model_code: ClassVar[ModelCode] = ModelCode.OWN
    own_isolation: ClassVar[str | None] = "clingo-child"

    def describe(self, record: RunRecord) -> list[str]:
        """The program versions, the revisions used and why they stopped, and Table 3's issues."""
        details = record.details
        lines = [f"  {line}" for line in details.get("round_lines", [])]
        lines.append(
            f"Revisions used: {details.get('revisions_used', 0)} of {details.get('revision_limit', 0)} "
            f"(stopped: {details.get('stopped', 'unknown')})"
        )
        before = ", ".join(f"{k} {v}" for k, v in details.get("issues_before", {}).items()) or "none"
        after = ", ".join(f"{k} {v}" for k, v in details.get("issues_after", {}).items()) or "none"
        lines.append(
            f"Issues found (LLM+AL Table 3 categories): first program {before}; final program {after}"
        )
        final = details.get("final_checks", {})
        failing = ", ".join(final.get("failing", [])) or "none"
        lines.append(
            f"Final program: {'all checks passed' if final.get('passed') else 'failing: ' + failing}"
        )
        if "known_answer" in details:
            lines.append(f"Answer: {details.get('answer', 'none')} (known: {details['known_answer']})")
        return lines

    def solve(
        self, session: RunSession, problems: DomainProblems | DescribedTask, settings: AspSettings
    ) -> RunRecord:
        """Write and revise the encoding, then plan every evaluation problem with it.

        Raises:
            genplan.llm.LLMError: the backend failed; the folder keeps what was recorded.
        """
        described = isinstance(problems, DescribedTask)
        if isinstance(problems, DescribedTask):
            task = AspTask.from_description(problems)
        else:
            task = AspTask.from_problems(problems)
        clingo = Clingo(memory_bytes=settings.memory_mb * 1024**2)
        observations = session.observations
        checked = Clingo(memory_bytes=clingo.memory_bytes, observations=observations)
        checks = Checks(task, settings, checked, seed=session.context.seed)
        rounds: list[dict[str, Any]] = []

        def on_round(entry: Round) -> None:
            rounds.append(entry.to_json())
            session.write_json(REVISIONS_FILE, rounds)
            session.note(_round_line(entry))

        result = revise(task, session.model, settings, checks, on_round=on_round)
        program = result.program
        session.add_artifact(REVISIONS_FILE)
        session.write_text(ENCODING_FILE, program.encoding)
        session.write_text(SAMPLE_QUERIES_FILE, program.render_queries())
        time_limit = session.context.eval_timeout
        details: dict[str, Any] = {}
        if isinstance(problems, DescribedTask):
            session.write_text(MAIN_QUERY_FILE, program.main_query)
            evaluated = session.solve_each(
                [problems],
                lambda task, key: evaluate_described(
                    program.encoding, program.main_query, task, settings, clingo, time_limit=time_limit
                ),
                keys=[DESCRIPTION_FILE],
            )
            details.update(
                {k: evaluated[0].details[k] for k in ("known_answer", "answer") if k in evaluated[0].details}
            )
        else:
            names = task.names
            assert names is not None
            evaluated = session.solve_each(
                problems.evaluation,
                lambda problem, key: solve_problem(
                    program.encoding, problem, key, names, settings, clingo, time_limit
                ),
            )
        after, before = result.after, result.before
        details.update(
            {
                "round_lines": [_round_line(entry) for entry in result.rounds],
                "rounds": [
                    {k: r[k] for k in ("round", "stage", "feedback", "changed", "checks_passed")}
                    for r in rounds
                ],
                "revisions_used": result.revisions,
                "revision_limit": settings.revisions,
                "stopped": result.stopped,
                "feedback_kinds": [kind for r in rounds for kind in r["feedback"]],
                "issues_before": before.issues() if before else {},
                "issues_after": after.issues() if after else {},
                "first_checks": {
                    "passed": bool(before and before.passed),
                    "failing": [k.value for k in before.kinds] if before else [],
                },
                "final_checks": {
                    "passed": bool(after and after.passed),
                    "failing": [k.value for k in after.kinds] if after else [],
                },
                "task": "english" if described else "pddl",
                "training_problems": len(task.training),
                "size_check": bool(task.problems is not None and task.problems.size_check),
                "check_timeout_seconds": settings.check_timeout,
                "check_clingo_runs": {"made": observations.measured, "reused": observations.reused},
                "evaluation_timeout_seconds": time_limit,
            }
        )
        return session.close(evaluated, feedback=dict(sorted(result.feedback.items())), details=details)
