"""The checks of self-revision: what clingo, VAL and the simulator say about a program.

LLM+AL's checks (Ishay and Lee, AAAI 2025, Sec. 3.5): the **satisfiability check** (the
encoding without a query), the model's **sample queries** (each marked satisfiable or not) and
the **main query**. For PDDL domains genplan adds two it can make because it has a formal model
(:mod:`.successors` holds the second): the plans of the **training problems** checked by VAL
(:func:`genplan.plans.validate.check_plan`), and the encoding's **successor relation**
compared with the PDDL simulator's on random states.

Each check returns a :class:`Section`: the text shown to the model (clingo's output in the
style of LLM+AL's feedback, Appendix A.6) and the :class:`~.feedback.Finding` s it made.
With observations (a run's ``observations.json``), each clingo run's response, and the successor
check's verdict, is recorded when made and reused when the same check meets the same encoding
again (:class:`~.solver.Clingo`), so the sections repeat whatever the machine.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from genplan.approaches.asp.feedback import FeedbackKind, Finding, Issue
from genplan.approaches.asp.interface import action_text, problem_facts
from genplan.approaches.asp.program import Program, SampleQuery
from genplan.approaches.asp.settings import AspSettings
from genplan.approaches.asp.solver import Clingo, ClingoResult, ClingoStatus, TraceStep
from genplan.approaches.asp.successors import successor_check
from genplan.approaches.asp.task import AspTask
from genplan.pddl.problem import Problem
from genplan.plans.validate import check_plan
from genplan.runs.observations import digest

MAX_TRACE_STEPS = 60
UNDEFINED = "does not occur in any rule head"


@dataclass(frozen=True)
class Section:
    """One check's output for the model, what it found wrong, and issues it noted without
    asking for a revision (an undefined atom in a program that is otherwise fine)."""

    title: str
    text: str
    findings: tuple[Finding, ...] = ()
    notes: tuple[Issue, ...] = ()

    def render(self) -> str:
        """Title and text."""
        return f"{self.title}\n{self.text.rstrip()}\n"


@dataclass
class Report:
    """Every check run on one program.

    Attributes:
        sections: the checks' outputs, in order.
        satisfiable: whether the satisfiability check passed (the other checks run only then).
    """

    sections: list[Section] = field(default_factory=list)
    satisfiable: bool = False

    @property
    def findings(self) -> list[Finding]:
        """Every finding, in order."""
        return [finding for section in self.sections for finding in section.findings]

    @property
    def kinds(self) -> list[FeedbackKind]:
        """The feedback kinds present, each once, in order of first appearance."""
        return list(dict.fromkeys(finding.kind for finding in self.findings))

    @property
    def passed(self) -> bool:
        """Whether no check found anything wrong."""
        return not self.findings

    def issues(self) -> dict[str, int]:
        """Table 3 categories found (see :class:`~.feedback.Issue`), counted."""
        counts: dict[str, int] = {}
        found = [issue for finding in self.findings for issue in finding.issues]
        found += [issue for section in self.sections for issue in section.notes]
        for issue in found:
            counts[issue.value] = counts.get(issue.value, 0) + 1
        return dict(sorted(counts.items()))

    def render(self) -> str:
        """All sections, for a prompt."""
        return "\n".join(section.render() for section in self.sections)


def _error_finding(result: ClingoResult, *, in_query: bool) -> Finding:
    """The finding for a clingo run that did not get to solving."""
    if result.status is ClingoStatus.REJECTED:
        return Finding(FeedbackKind.FORBIDDEN, (Issue.QUERY_SYN if in_query else Issue.SIGNATURE_SYN,))
    if result.status in (ClingoStatus.TIMEOUT, ClingoStatus.CRASHED):
        return Finding(FeedbackKind.CLINGO_LIMIT)
    text = " ".join(result.messages)
    query_side = in_query or any(m.startswith(("query:", "candidates:")) for m in result.messages)
    if "syntax error" in text or "lexer error" in text:
        return Finding(FeedbackKind.SYNTAX, (Issue.QUERY_SYN if query_side else Issue.SIGNATURE_SYN,))
    return Finding(FeedbackKind.GROUNDING)


def _messages(result: ClingoResult) -> str:
    return "\n".join(result.messages)


def render_trace(trace: Sequence[TraceStep], keep: Callable[[str], bool] = lambda term: True) -> str:
    """An answer set's states and actions in LLM+AL's feedback style::

    0: at(boat,bank1) num(bank1,cannibals,3) ...
    ACTIONS: cross(boat,0,2)
    1: ...
    """
    lines = []
    steps = list(trace)
    if len(steps) > MAX_TRACE_STEPS:
        steps = steps[: MAX_TRACE_STEPS // 2] + steps[-5:]
    previous = None
    for entry in steps:
        if previous is not None and entry.step != previous + 1:
            lines.append("...")
        lines.append(f"{entry.step}: " + " ".join(term for term in entry.holds if keep(term)))
        if entry.actions:
            lines.append("ACTIONS: " + " ".join(entry.actions))
        previous = entry.step
    return "\n".join(lines)


def describe_search(result: ClingoResult, settings: AspSettings, time_limit: float) -> str:
    """One line on how a plan search ended."""
    if result.status is ClingoStatus.SAT:
        return f"SATISFIABLE: a plan of {len(result.actions)} actions (horizon {result.horizon})"
    if result.status is ClingoStatus.UNSAT:
        return f"UNSATISFIABLE: no plan up to horizon {result.horizon}"
    if result.status is ClingoStatus.TIMEOUT:
        # The horizon reached depends on the machine; a prompt must not (recordings replay).
        return f"TIMEOUT: no plan within {time_limit:g} s"
    return f"{result.status.value.upper()}:\n{_messages(result)}"


class Checks:
    """The checks of one task with the run's settings (clingo, limits, random states)."""

    def __init__(self, task: AspTask, settings: AspSettings, clingo: Clingo, seed: int = 0):
        self.task = task
        self.settings = settings
        self.clingo = clingo
        self.seed = seed
        static = task.static_constants()
        self.keep: Callable[[str], bool] = lambda term: term.split("(")[0] not in static

    def satisfiability(self, program: Program) -> Section:
        """LLM+AL's satisfiability check: the encoding without a query."""
        task = self.task
        where = (
            f"the initial state and goal atoms of problem {task.example.name}"
            if task.is_pddl
            else "the init and goal atoms of your main query"
        )
        title = (
            "Satisfiability check (the encoding without a query: no goal, horizon 1, zero or one action; "
            f"clingo may choose the initial state among {where}):"
        )
        candidates = task.example_facts() if task.is_pddl else program.main_query
        result = self.clingo.satisfiability(
            program.encoding,
            task.object_facts(),
            candidates=candidates,
            time_limit=self.settings.check_timeout,
        )
        undefined = [m for m in result.messages if UNDEFINED in m and m.startswith("encoding:")]
        issues = (Issue.SIGNATURE_MD,) * len(undefined)
        if result.status is ClingoStatus.SAT:
            warnings = f"\n{_messages(result)}" if result.messages else ""
            return Section(title, f"SATISFIABLE{warnings}", notes=issues)
        if result.status is ClingoStatus.UNSAT:
            text = "UNSATISFIABLE: no initial state and step satisfy the encoding's rules."
            if result.messages:
                text += "\n" + _messages(result)
            return Section(
                title, text, (Finding(FeedbackKind.UNSAT_WITHOUT_QUERY, (Issue.RULES_H,)),), issues
            )
        finding = _error_finding(result, in_query=False)
        return Section(title, f"{result.status.value.upper()}:\n{_messages(result)}", (finding,), issues)

    def sample_query(self, program: Program, query: SampleQuery) -> Section:
        """Run one sample query and compare its satisfiability with the model's mark."""
        result = self.clingo.query(
            program.encoding,
            self.task.object_facts(),
            query.text,
            horizon=query.horizon,
            time_limit=self.settings.check_timeout,
        )
        title = query.header() + ("\n% genplan: " + query.note if query.note else "")
        if result.status is ClingoStatus.SAT:
            output = render_trace(result.trace, self.keep) + "\nSATISFIABLE"
        elif result.status is ClingoStatus.UNSAT:
            output = "UNSATISFIABLE"
        else:
            return Section(
                title,
                f"clingo output:\n{result.status.value.upper()}:\n{_messages(result)}",
                (_error_finding(result, in_query=False),),
            )
        expected = query.expected_satisfiable
        if (result.status is ClingoStatus.SAT) == expected:
            return Section(title, f"clingo output:\n{output}\n(as marked)")
        mark = "satisfiable" if expected else "unsatisfiable"
        verdict = f"(NOT as marked: the query is marked ({mark}))"
        return Section(title, f"clingo output:\n{output}\n{verdict}", (Finding(FeedbackKind.SAMPLE_QUERY),))

    def main_query(self, program: Program) -> list[Section]:
        """The main query: a task's own (in English), or the training problems (PDDL)."""
        if self.task.is_pddl:
            return [self.training_problems(program)]
        settings = self.settings
        result = self.clingo.plan(
            program.encoding,
            "",
            query=program.main_query,
            max_horizon=settings.max_horizon,
            time_limit=settings.check_timeout,
            growth=settings.horizon_growth,
            distinct=settings.distinct_states,
            trace=True,
        )
        title = "Main query (as above), clingo output:"
        if result.status is ClingoStatus.SAT:
            text = (
                render_trace(result.trace) + "\n" + describe_search(result, settings, settings.check_timeout)
            )
            return [Section(title, text)]
        if result.status in (ClingoStatus.UNSAT, ClingoStatus.TIMEOUT):
            text = describe_search(result, settings, settings.check_timeout)
            return [Section(title, text, (Finding(FeedbackKind.MAIN_QUERY),))]
        return [
            Section(
                title,
                describe_search(result, settings, settings.check_timeout),
                (_error_finding(result, in_query=False),),
            )
        ]

    def training_problems(self, program: Program) -> Section:
        """Plan each training problem with the encoding and check the plan with VAL, smallest
        first, until the first failure or time-out (PDDL). A time-out is reported but is no
        failure: clingo's search for a fewest-steps plan grows fast with the problem, and a
        correct encoding is not to be revised for it."""
        task, settings = self.task, self.settings
        assert task.names is not None
        title = (
            "Training problems (genplan gives each problem's facts to your encoding, searches for a plan "
            f"with horizons 0..{settings.max_horizon}, {settings.check_timeout:g} s each"
            + (", and checks the plan with VAL" if settings.val_check else "")
            + "):"
        )
        lines: list[str] = []
        for problem in task.training:
            result = self.clingo.plan(
                program.encoding,
                problem_facts(problem, task.names),
                max_horizon=settings.max_horizon,
                time_limit=settings.check_timeout,
                growth=settings.horizon_growth,
                distinct=settings.distinct_states,
            )
            if result.status is ClingoStatus.TIMEOUT:
                # A correct encoding may be too slow for clingo on a larger problem: reported, not a
                # failure; the larger training problems after it are not tried.
                lines.append(
                    f"- {problem.name}: "
                    + describe_search(result, settings, settings.check_timeout)
                    + " (not counted as a failure: clingo may need longer; larger training problems skipped)"
                )
                return Section(title, "\n".join(lines))
            if result.status is not ClingoStatus.SAT:
                lines.append(
                    f"- {problem.name}: " + describe_search(result, settings, settings.check_timeout)
                )
                finding = (
                    Finding(FeedbackKind.MAIN_QUERY)
                    if result.status is ClingoStatus.UNSAT
                    else _error_finding(result, in_query=False)
                )
                lines.append(_problem_block(problem))
                return Section(title, "\n".join(lines), (finding,))
            plan = self.plan_of(result)
            if not settings.val_check:
                lines.append(f"- {problem.name}: a plan of {len(plan)} actions")
                continue
            verdict = check_plan(problem, plan)
            if verdict.valid:
                lines.append(f"- {problem.name}: a plan of {len(plan)} actions, valid")
                continue
            issues = (Issue.RULES_MN,) if "unsatisfied precondition" in verdict.message else ()
            lines.append(
                f"- {problem.name}: a plan of {len(plan)} actions, INVALID. VAL says:\n{verdict.message}"
            )
            lines.append("  The plan:\n" + "\n".join(f"  {i}: {a}" for i, a in enumerate(plan, start=1)))
            lines.append(_problem_block(problem))
            return Section(title, "\n".join(lines), (Finding(FeedbackKind.INVALID_PLAN, issues),))
        return Section(title, "\n".join(lines))

    def successors(self, program: Program) -> Section:
        """The successor check (PDDL; see :mod:`.successors`)."""
        task, settings = self.task, self.settings
        assert task.names is not None
        title = (
            "Successor check (genplan compares every one-action transition your encoding allows with the "
            f"PDDL domain's, on {settings.successor_states} states reached by random walks from the training "
            "problems' initial states):"
        )
        names = task.names

        def check() -> dict[str, Any]:
            text, findings = successor_check(
                program.encoding,
                task.training,
                names,
                self.clingo,
                count=settings.successor_states,
                walk_length=settings.walk_length,
                time_limit=settings.check_timeout,
                seed=self.seed,
            )
            return {"text": text, "findings": [finding.to_json() for finding in findings]}

        observations = self.clingo.observations
        if observations is None:
            outcome = check()
        else:
            # The verdict is the observation (clingo's response lists every transition).
            determined_by = {
                "domain": task.problems.domain.to_pddl() if task.problems else "",
                "training": [problem.to_pddl() for problem in task.training],
                "states": settings.successor_states,
                "walk_length": settings.walk_length,
                "time_limit": settings.check_timeout,
                "seed": self.seed,
                "memory_bytes": self.clingo.memory_bytes,
            }
            key = f"successors/{digest(program.encoding)}/{digest(json.dumps(determined_by, sort_keys=True))}"
            outcome = observations.get(key, check)
        findings = tuple(Finding.from_json(finding) for finding in outcome["findings"])
        return Section(title, outcome["text"], findings)

    def plan_of(self, result: ClingoResult) -> list[str]:
        """An answer set's actions as PDDL plan lines (a term genplan cannot read stays as clingo
        printed it, so the plan check reports it)."""
        names = self.task.names
        assert names is not None
        return [
            action_text(names.pddl_atom(a.flat)) if a.flat is not None else a.term for a in result.actions
        ]


def _problem_block(problem: Problem) -> str:
    """A failed training problem as PDDL."""
    return f"The problem {problem.name}:\n{problem.to_pddl()}"


def run_checks(checks: Checks, program: Program) -> Report:
    """Every check of one program, in LLM+AL's order: the satisfiability check, then (when clingo
    could ground the program) each sample query, the main query, and for PDDL domains the
    successor check."""
    report = Report()
    satisfiability = checks.satisfiability(program)
    report.sections.append(satisfiability)
    report.satisfiable = not satisfiability.findings
    grounded = all(finding.kind is FeedbackKind.UNSAT_WITHOUT_QUERY for finding in satisfiability.findings)
    if not grounded:
        return report
    report.sections.extend(checks.sample_query(program, query) for query in program.sample_queries)
    report.sections.extend(checks.main_query(program))
    if checks.task.is_pddl and checks.settings.successor_check:
        report.sections.append(checks.successors(program))
    return report
