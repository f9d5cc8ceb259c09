"""LAMA-first as an approach: no model, each plan checked, time-outs and a missing planner named."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.approaches import get_approach
from genplan.approaches.base import RunContext, asks_model, uses_sandbox
from genplan.approaches.lama_first import approach as lama_first
from genplan.approaches.lama_first.approach import LamaFirst, LamaFirstSettings
from genplan.errors import ConfigurationError
from genplan.llm import NoModel
from genplan.pddl.problem_sets import load_domain_problems

pytestmark = pytest.mark.skipif(lama_first.find_driver() is None, reason="needs the planner extra")


def test_lama_first_asks_no_model_and_its_plans_are_checked(tmp_path: Path) -> None:
    approach = get_approach("lama-first")
    assert isinstance(approach, LamaFirst) and not asks_model(approach) and not uses_sandbox(approach)
    problems = load_domain_problems("delivery", 0, 2, tmp_path)
    context = RunContext(
        folder=tmp_path / "run", model_name="none", backend_name="none", workers=1, eval_timeout=30.0
    )
    record = approach.run(problems, NoModel(), LamaFirstSettings(), context)
    assert (record.label, record.llm_calls, record.solved) == ("lama-first", 0, 2)
    assert all(p.checked_by in ("val", "simulator") and p.plan_cost for p in record.problems)
    assert record.details == {"planner": "lama-first", "seconds_per_problem": 30.0}


def test_a_problem_past_its_budget_is_a_timeout(tmp_path: Path) -> None:
    problems = load_domain_problems("delivery", 0, 1, tmp_path)
    context = RunContext(folder=tmp_path / "run", eval_timeout=0.01, workers=1)
    record = LamaFirst().run(problems, NoModel(), LamaFirstSettings(), context)
    assert [(p.status, p.seconds) for p in record.problems] == [("timeout", 0.01)]


def test_without_the_planner_the_run_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lama_first, "find_driver", lambda: None)
    problems = load_domain_problems("delivery", 0, 1, tmp_path)
    with pytest.raises(ConfigurationError, match=r"genplan\[planner\]"):
        LamaFirst().run(
            problems, NoModel(), LamaFirstSettings(), RunContext(folder=tmp_path / "run", eval_timeout=30.0)
        )
