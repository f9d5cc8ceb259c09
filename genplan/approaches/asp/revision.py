"""LLM+AL's pipeline on clingo: the stages, then self-revision (Ishay and Lee, AAAI 2025, Sec. 3).

1. Signature generation (3.2): the actions and fluents with their readings.
2. Knowledge generation (3.3): statements in English.
3. Rule and query generation (3.4): the encoding (and a task's main query).
4. Self-revision (3.5), with LLM+AL's budget of revisions (its code's ``max_updates``):

   * the **satisfiability check** without a query; while it fails, the model revises;
   * **sample query generation**: a few queries, each marked ``(satisfiable)`` or
     ``(unsatisfiable)`` (not a revision);
   * **sample and main query feedback**: every check's output goes to the model (for PDDL
     domains with genplan's two extra checks, VAL on the training plans and the successor
     check), which marks each segment ``[CHANGED]`` or ``[UNCHANGED]``; all unchanged ends the
     revision, as does the budget.

Every stage is one self-contained prompt (:mod:`.prompts`). After the last answer the final
program is checked once more (no model call), so the record can say how the first and the final
programs fared (LLM+AL's Table 3, before and after self-revision).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from genplan.approaches.asp import prompts
from genplan.approaches.asp.checks import Checks, Report, run_checks
from genplan.approaches.asp.feedback import FeedbackKind
from genplan.approaches.asp.program import (
    Program,
    answer_text,
    parse_revision,
    parse_rules,
    parse_sample_queries,
)
from genplan.approaches.asp.settings import AspSettings
from genplan.approaches.asp.task import AspTask
from genplan.llm import LanguageModel, Message

STOP_UNCHANGED = "the model marked every segment [UNCHANGED]"
STOP_LIMIT = "revision limit"
STOP_LIMIT_SATISFIABILITY = "revision limit during the satisfiability check"
STOP_NO_REVISIONS = "no revisions allowed"


@dataclass(frozen=True)
class Round:
    """One program version and what its checks found.

    Attributes:
        index: 0 for the first program, ``k`` after ``k`` revisions.
        stage: ``initial``, ``satisfiability`` (a satisfiability-check revision) or ``feedback``.
        kinds: the feedback kinds of the request sent about this program (empty when none was sent).
        changed: the segments the answer that made this program changed.
        problems: what could not be read in that answer.
        passed: whether every check run on this program passed.
        program: the program.
    """

    index: int
    stage: str
    kinds: tuple[str, ...]
    changed: tuple[str, ...]
    problems: tuple[str, ...]
    passed: bool
    program: Program

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form, texts included."""
        return {
            "round": self.index,
            "stage": self.stage,
            "feedback": list(self.kinds),
            "changed": list(self.changed),
            "answer_problems": list(self.problems),
            "checks_passed": self.passed,
            "encoding": self.program.encoding,
            "main_query": self.program.main_query,
            "sample_queries": self.program.render_queries(),
        }


@dataclass
class RevisionResult:
    """What the pipeline produced.

    Attributes:
        program: the final program.
        rounds: every program version, in order.
        feedback: revision requests by feedback kind (one count per kind present in a request).
        revisions: revisions used (model answers after the rules; sample query generation excluded).
        stopped: why the revision ended.
        before: the checks of the first program; after: of the final one.
        signature / knowledge: the first two stages' answers.
    """

    program: Program
    rounds: list[Round] = field(default_factory=list)
    feedback: Counter[str] = field(default_factory=Counter)
    revisions: int = 0
    stopped: str = ""
    before: Report | None = None
    after: Report | None = None
    signature: str = ""
    knowledge: str = ""


def _ask(model: LanguageModel, prompt: str) -> str:
    return model.complete([Message("user", prompt)]).text


def _sat_failing(report: Report) -> bool:
    return bool(report.sections and report.sections[0].findings)


def revise(
    task: AspTask,
    model: LanguageModel,
    settings: AspSettings,
    checks: Checks,
    *,
    on_round: Callable[[Round], None] | None = None,
) -> RevisionResult:
    """Run LLM+AL's stages and self-revision for ``task``.

    Args:
        task: the PDDL domain or task in English.
        model: the model (record it: every stage is one request).
        settings: budgets and checks.
        checks: the checks, bound to the task, clingo and the seed.
        on_round: called with each program version once its checks ran.

    Raises:
        genplan.llm.LLMError: the backend failed (the recording keeps what was answered).
    """
    with_main_query = not task.is_pddl
    result = RevisionResult(program=Program(""))

    def record(
        stage: str,
        program: Program,
        report: Report,
        kinds: list[str],
        changed: Sequence[str] = (),
        problems: Sequence[str] = (),
    ) -> None:
        entry = Round(
            len(result.rounds), stage, tuple(kinds), tuple(changed), tuple(problems), report.passed, program
        )
        result.rounds.append(entry)
        if on_round is not None:
            on_round(entry)

    def request(kinds: list[str], prompt: str) -> str:
        result.feedback.update(dict.fromkeys(kinds, 1))
        result.revisions += 1
        return _ask(model, prompt)

    result.signature = answer_text(_ask(model, prompts.signature_prompt(task))).strip()
    result.knowledge = answer_text(_ask(model, prompts.knowledge_prompt(task, result.signature))).strip()
    encoding, main_query, problem = parse_rules(
        _ask(model, prompts.rules_prompt(task, result.signature, result.knowledge)),
        with_main_query=with_main_query,
    )
    program = Program(encoding, main_query)
    result.before = run_checks(checks, program)
    report = Report(result.before.sections[:1], result.before.satisfiable)
    changed: tuple[str, ...] = ()
    problems: tuple[str, ...] = (problem,) if problem else ()
    stage = "initial"

    # The satisfiability check, revised until it passes or the budget runs out (B.4).
    while _sat_failing(report) or problems:
        kinds = [f.kind.value for f in report.sections[0].findings]
        if problems:
            kinds.append(FeedbackKind.MALFORMED_ANSWER.value)
        if result.revisions >= settings.revisions:
            record(stage, program, report, [], changed, problems)
            result.program, result.after = program, run_checks(checks, program)
            result.stopped = STOP_LIMIT_SATISFIABILITY if settings.revisions else STOP_NO_REVISIONS
            return result
        record(stage, program, report, kinds, changed, problems)
        feedback = ""
        if _sat_failing(report):
            feedback = (
                "Run with a basic query to check satisfiability (independent of the main query), the program "
                f"fails:\n{report.sections[0].render()}\n"
            )
        feedback += "".join(f"Your last answer could not be read fully: {p}.\n" for p in problems)
        answer = request(kinds, prompts.satisfiability_prompt(task, program, feedback))
        encoding, main_query, problem = parse_rules(answer, with_main_query=with_main_query)
        problems = (problem,) if problem else ()
        new = replace(
            program, encoding=encoding or program.encoding, main_query=main_query or program.main_query
        )
        changed = tuple(
            name
            for name, old, now in (
                ("program", program.encoding, new.encoding),
                ("main query", program.main_query, new.main_query),
            )
            if old != now
        )
        program, stage = new, "satisfiability"
        report = Report([checks.satisfiability(program)])

    # Sample queries (B.5), then feedback rounds (B.6).
    queries, problems_read = parse_sample_queries(
        _ask(model, prompts.sample_queries_prompt(task, program, settings.sample_queries)),
        limit=settings.sample_queries,
    )
    program = replace(program, sample_queries=tuple(queries))
    stage, changed, problems = "sample queries", ("sample queries",), tuple(problems_read)
    report = run_checks(checks, program)
    while True:
        kinds = [kind.value for kind in report.kinds] or [FeedbackKind.REVIEW.value]
        if problems:
            kinds.append(FeedbackKind.MALFORMED_ANSWER.value)
        if result.revisions >= settings.revisions:
            record(stage, program, report, [], changed, problems)
            result.stopped = STOP_LIMIT if settings.revisions else STOP_NO_REVISIONS
            break
        record(stage, program, report, kinds, changed, problems)
        note = "".join(f"Your last answer could not be read fully: {problem}.\n" for problem in problems)
        answer = request(kinds, prompts.feedback_prompt(task, program, report.render(), note))
        revision = parse_revision(
            answer, program, with_main_query=with_main_query, query_limit=settings.sample_queries
        )
        if not revision.changed and not revision.problems:
            result.stopped = STOP_UNCHANGED
            break
        program, stage, changed, problems = revision.program, "feedback", revision.changed, revision.problems
        report = run_checks(checks, program)
    result.program = program
    result.after = report
    return result
