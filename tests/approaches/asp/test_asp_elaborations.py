"""LLM+AL's seventeen tasks (Ishay and Lee, AAAI 2025, Table 1): each loads in ``genplan run
--approach asp`` and its prompt shows its description; answers are counted in steps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from asp_fixtures import KNOWLEDGE, MCP_ENCODING, MCP_QUERY, NO_QUERIES, SIGNATURE, UNCHANGED_TEXT, rules
from oracles.missionaries import ANSWERS

from genplan.approaches.asp.evaluation import evaluate_described
from genplan.approaches.asp.settings import AspSettings
from genplan.approaches.asp.solver import ClingoResult, ClingoStatus, PlannedAction
from genplan.cli import main
from genplan.llm import FakeLanguageModel
from genplan.paths import data_folder
from genplan.pddl.described import load_described_task
from genplan.requests import compose as composer
from genplan.requests.models import ChosenModel

ADDED = sorted(set(ANSWERS) - {"mcp", "mcp-four-each", "mcp-two-rowers", "mcp-big-cannibal"})


def test_the_papers_table_has_seventeen_tasks() -> None:
    assert len(ANSWERS) == 17 and len(ADDED) == 13


@pytest.mark.parametrize("name", ADDED)
def test_each_added_task_runs_in_genplan_run_with_its_description_in_the_prompt(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = [
        SIGNATURE,
        KNOWLEDGE,
        rules(MCP_ENCODING, MCP_QUERY),  # the basic puzzle's program: right only where the answer is 11
        NO_QUERIES.replace("off(l1)", "at(boat,bank1)"),
        UNCHANGED_TEXT,
    ]
    model = FakeLanguageModel(answers)
    monkeypatch.setattr(composer, "build_model", lambda *_: ChosenModel(model, "fake", "fake"))
    arguments = ["run", "--approach", "asp", "--domain", name, "--runs-dir", str(tmp_path), "--llm", "manual"]
    assert main([*arguments, "--max-horizon", "12"]) == 0
    description = (data_folder("domains") / name / "description.md").read_text()
    assert f"[TASK]\n{description.strip()}" in model.history[0][-1].content
    metadata = json.loads((tmp_path / name / "asp+max-horizon-12-seed0" / "metadata.json").read_text())
    (result,) = json.loads((tmp_path / name / "asp+max-horizon-12-seed0" / "results.json").read_text())
    known = load_described_task(data_folder("domains") / name).answer
    assert known is not None and result["details"]["known_answer"] == known.describe()
    assert metadata["domain"] == name
    assert result["status"] == ("solved" if known.steps == 11 else "wrong-answer")


def test_actions_sharing_a_step_count_as_one_step() -> None:
    """A missionary walking on water while the boat crosses: the paper's 7 counts steps."""

    class Planned:
        def plan(self, *_: object, **__: object) -> ClingoResult:
            actions = [PlannedAction(step, f"cross({step})", None) for step in range(7)]
            actions += [PlannedAction(0, "walk(m1)", None), PlannedAction(3, "walk(m1)", None)]
            return ClingoResult(ClingoStatus.SAT, horizon=7, actions=tuple(actions))

    task = load_described_task(data_folder("domains") / "mcp-walks-on-water")
    result = evaluate_described("", "", task, AspSettings(), Planned(), time_limit=5.0)  # type: ignore[arg-type]
    assert (result.status, result.plan_length) == ("solved", 7)
