"""Self-revision's clingo outcomes are observations: recorded in the run folder as they are made,
and reused by a rerun there, so the rerun asks exactly the prompts the first run asked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from asp_fixtures import ENCODING, FAST, KNOWLEDGE, NO_QUERIES, SIGNATURE, UNCHANGED_PDDL, lamps_folder, rules

from genplan.approaches.asp import solver
from genplan.approaches.asp.approach import AspApproach
from genplan.approaches.base import RunContext, RunRecord
from genplan.llm import FakeLanguageModel, Message
from genplan.pddl.problem_sets import load_problems

ANSWERS = [SIGNATURE, KNOWLEDGE, rules(ENCODING), NO_QUERIES, UNCHANGED_PDDL]


def run(domain: str, folder: Path, work: Path) -> tuple[RunRecord, list[list[Message]]]:
    model = FakeLanguageModel(list(ANSWERS))
    context = RunContext(folder=folder, eval_timeout=10.0, workers=1)
    record = AspApproach().run(load_problems(domain, 0, None, work), model, FAST, context)
    return record, model.history


@pytest.mark.slow
def test_a_rerun_asks_the_same_prompts_though_clingo_would_now_answer_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    domain = str(lamps_folder(tmp_path))
    real = solver.run_isolated
    slowed: list[dict[str, Any]] = []

    def slow_machine(request: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """A slow machine: the checks' plan searches (20 s each) run out of time; the evaluation's
        (10 s each) do not."""
        if request["mode"] == "plan" and request["time_limit"] == FAST.check_timeout:
            slowed.append(request)
            return {"status": "timeout", "horizon": 1, "seconds": request["time_limit"], "messages": []}
        return real(request, **kwargs)

    monkeypatch.setattr(solver, "run_isolated", slow_machine)
    folder = tmp_path / "run"
    first, asked = run(domain, folder, tmp_path)
    monkeypatch.setattr(solver, "run_isolated", real)
    assert slowed and "- p1: TIMEOUT: no plan within 20 s" in asked[4][0].content

    # clingo now finds p1's plan in time (a fresh folder shows it) ...
    _, fresh = run(domain, tmp_path / "fresh", tmp_path)
    assert "- p1: a plan of 2 actions, valid" in fresh[4][0].content
    # ... but a rerun in the same folder takes the recorded time-outs and asks the same prompts.
    again, asked_again = run(domain, folder, tmp_path)
    assert asked_again == asked

    recorded = json.loads((folder / "observations.json").read_text())
    assert sum(v.get("response", {}).get("status") == "timeout" for v in recorded.values()) == 1
    made = first.details["check_clingo_runs"]
    assert made["made"] == len(recorded)  # an identical check later in the run is reused
    assert again.details["check_clingo_runs"] == {"made": 0, "reused": made["made"] + made["reused"]}
    assert "observations.json" in first.artifacts
    # The evaluation is no check: it runs clingo every time, and solves p1 on this machine.
    assert first.statuses == again.statuses == {"solved": 3}
