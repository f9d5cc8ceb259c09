"""LLM-written heuristics for greedy best-first search behind the
:class:`~genplan.approaches.base.Approach` seam.

A run lives in ``RUNS/<domain>/<label>-seed<S>/`` (label ``heuristic``, ``heuristic+repair``,
``heuristic+candidates-25``, ...):

* ``conversation.jsonl`` — every exchange with the model (one request per candidate, and with
  repair one revision request per candidate with counterexamples);
* ``candidates/candidate-<i>.py`` — each candidate's program (``candidate-<i>-revised.py``: its
  revision);
* ``heuristic.py`` — the selected heuristic (empty when no candidate was usable);
* ``candidates.json`` — each candidate's check, counterexamples, repair and training searches;
* ``observations.json`` — the outcome of every training search, reused by a rerun or a replay;
* ``results.json`` and ``metadata.json`` — the run record: per evaluation problem the status,
  plan length and cost, seconds and ``details`` (``expanded``, ``evaluated``, ``generated``);
  per run the ``details`` below (:func:`run_details`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from genplan.approaches.base import Approach, ModelCode, ProblemResult, RunContext, RunRecord, RunSession
from genplan.approaches.heuristic.candidates import Asker, Candidate, reason_line
from genplan.approaches.heuristic.probes import Probe, make_probes
from genplan.approaches.heuristic.prompts import heuristic_prompt
from genplan.approaches.heuristic.searching import Runner, problem_result, run_search, sandbox_runner
from genplan.approaches.heuristic.selection import Training, select, train, training_problems
from genplan.approaches.heuristic.settings import HeuristicSettings
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems
from genplan.sandbox.limits import GIB

HEURISTIC_FILE = "heuristic.py"
CANDIDATES_FILE = "candidates.json"
CANDIDATES_FOLDER = "candidates"
NO_HEURISTIC = "no-heuristic"
"""The status of every evaluation problem when no candidate was usable."""


def run_details(
    settings: HeuristicSettings,
    probes: list[Probe],
    candidates: list[Candidate],
    trainings: list[Training],
    selected: Training | None,
    problems: list[Problem],
    eval_seconds: float,
) -> dict[str, Any]:
    """The ``details`` of a heuristic run's record (JSON-ready): the candidates (asked, usable,
    each one's check and training totals), the selected candidate and its training figures, the
    repair requests, the probe problems, the selection's training problems and the time limits."""
    by_candidate = {t.candidate: t for t in trainings}
    return {
        "candidates_asked": len(candidates),
        "candidates_usable": sum(c.usable for c in candidates),
        "repairs_asked": sum(c.revision is not None for c in candidates),
        "repairs_used": sum(c.revised for c in candidates),
        "selected": None if selected is None else selected.candidate,
        "selected_training": None
        if selected is None
        else {"solved": selected.solved, "problems": len(selected.searches), "expanded": selected.expanded},
        "candidates": [
            {
                **candidate.to_json(),
                "training": None
                if candidate.index not in by_candidate
                else {
                    key: value
                    for key, value in by_candidate[candidate.index].to_json().items()
                    if key in ("solved", "problems", "expanded", "seconds")
                },
            }
            for candidate in candidates
        ],
        "probes": [probe.to_json() for probe in probes],
        "training_problems": [problem.name for problem in problems],
        "training_seconds": settings.training_seconds,
        "eval_seconds": eval_seconds,
        "max_states": settings.max_states,
        "memory_gib": settings.memory_gib,
        "search": "gbfs",
    }


class HeuristicApproach(Approach[DomainProblems, HeuristicSettings]):
    """LLM-written heuristics (Corrêa, Pereira, Seipp, *Classical Planning with LLM-Generated
    Heuristics*, NeurIPS 2025): the model writes ``candidates`` domain-dependent heuristics in
    Python, one sample each; each is checked in the sandbox, (with ``repair``) revised once from
    counterexamples, and searched with on the training problems by greedy best-first search
    inside the sandbox child; the one that solves the most (then fewest expansions, then least
    time) solves the evaluation problems, every plan checked.

    Args:
        runner: how harness calls reach the sandbox; by default the sandbox with the run
            context's limits (tests pass an in-process runner).
    """

    name: ClassVar[str] = "heuristic"
    summary: ClassVar[str] = (
        "heuristics for greedy best-first search per domain (Corrêa, Pereira, Seipp, NeurIPS 2025)"
    )
    settings_type: ClassVar[type] = HeuristicSettings
    model_code: ClassVar[ModelCode] = ModelCode.SANDBOX

    def __init__(self, runner: Runner | None = None):
        self.runner = runner

    def isolation(self, context: RunContext) -> str | None:
        """The sandbox's isolation, or ``None`` with an in-process runner (tests)."""
        return None if self.runner is not None else super().isolation(context)

    def describe(self, record: RunRecord) -> list[str]:
        """The candidates' checks, repair, the selection and the search's limits."""
        details = record.details
        lines = [
            f"Candidates: {details.get('candidates_asked')} asked, {details.get('candidates_usable')} usable"
            + (
                f"; repair asked {details.get('repairs_asked')}, used {details.get('repairs_used')}"
                if record.settings.get("repair")
                else ""
            )
        ]
        for candidate in details.get("candidates", []):
            training = candidate.get("training")
            repair = candidate.get("repair")
            revised = " (revised)" if repair and repair.get("replaced") else ""
            figures = (
                f"training {training['solved']}/{training['problems']} solved, {training['expanded']:,} expansions"
                if training
                else reason_line(str(candidate.get("reason") or ""))
            )
            lines.append(
                f"  candidate {candidate.get('candidate')}: {candidate.get('status')}{revised}; {figures}"
            )
        selected = details.get("selected")
        lines.append(
            f"Selected: candidate {selected}"
            if selected is not None
            else "Selected: none (no usable candidate)"
        )
        lines.append(
            f"Search: GBFS, {details.get('training_seconds', 0):g} s per training search on "
            f"{len(details.get('training_problems', []))} training problems, {details.get('eval_seconds', 0):g} s "
            f"per evaluation problem, at most {details.get('max_states', 0):,} states and "
            f"{details.get('memory_gib', 2):g} GiB"
        )
        return lines

    def solve(self, session: RunSession, problems: DomainProblems, settings: HeuristicSettings) -> RunRecord:
        """Ask for the candidates, check and repair them, select one on the training problems,
        solve the evaluation problems with it, write the run folder.

        Raises:
            ValueError: the domain has no training problems.
            genplan.llm.LLMError: the backend failed; the folder keeps the recorded conversation.
        """
        if not problems.training:
            raise ValueError("the heuristic approach needs training problems to select a heuristic on")
        memory = int(settings.memory_gib * GIB)
        runner = self.runner or sandbox_runner(replace(session.limits, address_space_bytes=memory))
        probes = make_probes(problems.training, settings.probe_problems)
        session.note(
            "probes: "
            + ", ".join(
                f"{p.problem.name} (plan of {p.plan_length})" for p in probes if p.plan_length is not None
            )
        )
        prompt = heuristic_prompt(
            problems.domain.to_pddl(), problems.domain, problems.training[: settings.prompt_examples]
        )
        asker = Asker(
            session.model, prompt, probes, runner, settings.check_seconds, settings.repair, note=session.note
        )
        candidates = [asker.candidate(index) for index in range(1, settings.candidates + 1)]
        for candidate in candidates:
            stem = f"{CANDIDATES_FOLDER}/candidate-{candidate.index}"
            if candidate.first_source is not None:
                session.write_text(f"{stem}.py", candidate.first_source)
            if candidate.revision_source is not None:
                session.write_text(f"{stem}-revised.py", candidate.revision_source)
        usable = [(c.index, c.source) for c in candidates if c.usable and c.source is not None]
        selection = training_problems(problems.training, settings.training_problems)
        session.note(
            f"training: {len(usable)} candidates x {len(selection)} problems, up to "
            f"{settings.training_seconds:g} s each, {session.workers(len(usable) * len(selection))} at a time"
        )
        trainings = train(
            usable,
            selection,
            runner,
            seconds=settings.training_seconds,
            max_states=settings.max_states,
            observations=session.observations,
            workers=session.workers(len(usable) * len(selection)) if self.runner is None else 1,
            note=session.note,
        )
        selected = select(trainings)
        source = None if selected is None else dict(usable)[selected.candidate]
        session.write_text(HEURISTIC_FILE, source or "")
        by_candidate = {t.candidate: t.to_json() for t in trainings}
        session.write_json(
            CANDIDATES_FILE,
            [{**c.to_json(), "training": by_candidate.get(c.index)} for c in candidates],
        )
        eval_seconds = session.context.eval_timeout
        session.note(
            f"evaluation: candidate {selected.candidate}'s heuristic on {len(problems.evaluation)} problems, "
            f"{eval_seconds:g} s each"
            if selected is not None
            else f"evaluation: no usable candidate, {len(problems.evaluation)} problems not searched"
        )

        def solve_one(problem: Problem, key: str) -> ProblemResult:
            if source is None:
                return ProblemResult(key, NO_HEURISTIC, None, 0.0, "no candidate heuristic was usable")
            return problem_result(
                key, problem, run_search(runner, source, problem, eval_seconds, settings.max_states)
            )

        results = session.solve_each(problems.evaluation, solve_one)
        repairs = sum(c.revision is not None for c in candidates)
        return session.close(
            results,
            feedback={"counterexamples": repairs} if settings.repair else {},
            details=run_details(settings, probes, candidates, trainings, selected, selection, eval_seconds),
        )
