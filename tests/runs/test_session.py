"""The run session keeps every approach's books once: folder, recording, keys, loop, record."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import pytest
from blocks import OPTIMAL, TOWER, TWO_MOVES, problem_set

from genplan.approaches import approach_names, get_approach
from genplan.approaches.base import Approach, ProblemResult, RunRecord
from genplan.llm import FakeLanguageModel, Message
from genplan.pddl.problem import Problem
from genplan.pddl.problem_sets import DomainProblems
from genplan.plans.validate import check_plan
from genplan.runs.record import read_record
from genplan.runs.session import RunContext, RunSession
from genplan.runs.status import plan_status
from genplan.sandbox import Isolation, Limits


@dataclass(frozen=True)
class EchoSettings:
    words: str = field(default="Plan for", metadata={"help": "words before the problem's name"})


class Echo(Approach[DomainProblems, EchoSettings]):
    """Asks for a plan per problem; its own logic only."""

    name: ClassVar[str] = "echo"
    summary: ClassVar[str] = "a plan per problem"
    settings_type: ClassVar[type] = EchoSettings

    def solve(self, session: RunSession, problems: DomainProblems, settings: EchoSettings) -> RunRecord:
        def one(problem: Problem, key: str) -> ProblemResult:
            answer = session.model.complete([Message("user", f"{settings.words} {problem.name}")])
            status, message = plan_status(check_plan(problem, answer.text.split("\n")))
            return ProblemResult(key, status, len(answer.text.split("\n")), 0.0, message, llm_calls=1)

        return session.close(session.solve_each(problems.evaluation, one), feedback={"none": 0})


class Recorder:
    def __init__(self) -> None:
        self.events: list[str] = []

    def note(self, text: str) -> None:
        self.events.append(f"note {text}")

    def start_problems(self, total: int) -> None:
        self.events.append(f"start {total}")

    def problem_done(self, result: ProblemResult) -> None:
        self.events.append(f"done {result.problem}")


def test_the_session_fills_the_record_s_shared_fields_and_writes_the_folder(tmp_path: Path) -> None:
    progress = Recorder()
    context = RunContext(tmp_path / "run", 3, "m", "fake", workers=1, progress=progress, eval_timeout=30.0)
    model = FakeLanguageModel(["\n".join(OPTIMAL), "(pick-up a)"])
    record = Echo().run(problem_set(TOWER, TWO_MOVES), model, EchoSettings(words="Solve"), context)
    assert (record.approach, record.label, record.seed, record.model, record.backend) == (
        "echo",
        "echo+words-Solve",
        3,
        "m",
        "fake",
    )
    assert record.settings == {"words": "Solve"} and record.llm_calls == 2
    assert [r.status for r in record.problems] == ["solved", "plan-semantics"]
    assert record.problem_set == "folder" and record.isolation is None
    assert record.artifacts == ["conversation.jsonl", "identity.json", "metadata.json", "results.json"]
    assert read_record(tmp_path / "run").to_json() == record.to_json()
    assert len((tmp_path / "run" / "conversation.jsonl").read_text().splitlines()) == 2
    assert progress.events == ["start 2", "done tower", "done two"]


def test_solve_each_runs_problems_at_once_and_keeps_their_order(tmp_path: Path) -> None:
    session = RunSession(
        "echo", "echo", EchoSettings(), problem_set(TOWER, TWO_MOVES), FakeLanguageModel([]),
        RunContext(tmp_path, workers=2, eval_timeout=30.0), isolation=None,
    )  # fmt: skip
    both = threading.Barrier(2, timeout=10)  # each waits for the other: only two workers get past

    def solve(problem: Problem, key: str) -> ProblemResult:
        both.wait()
        return ProblemResult(key, "solved", 0, 0.0)

    assert [r.problem for r in session.solve_each(problem_set(TOWER, TWO_MOVES).evaluation, solve)] == [
        "tower",
        "two",
    ]


@pytest.mark.parametrize("name", approach_names())
def test_every_approach_that_runs_model_code_records_its_isolation(name: str) -> None:
    expected = {"generalized-plan": "none", "autotos": "none", "asp": "clingo-child"}
    context = RunContext(Path("unused"), limits=Limits(isolation=Isolation.NONE), eval_timeout=30.0)
    assert get_approach(name).isolation(context) == expected.get(name)


def test_the_observations_of_a_replayed_run_are_reused(tmp_path: Path) -> None:
    recorded = tmp_path / "recorded"
    recorded.mkdir()
    (recorded / "observations.json").write_text(json.dumps({"time/x": 1.5}))
    session = RunSession(
        "echo", "echo", EchoSettings(), problem_set(), FakeLanguageModel([]),
        RunContext(tmp_path / "run", recorded=recorded, eval_timeout=30.0), isolation=None,
    )  # fmt: skip
    assert session.observations.get("time/x", lambda: 9.0) == 1.5
    assert json.loads((tmp_path / "run" / "observations.json").read_text()) == {"time/x": 1.5}
