"""Several candidates: independent conversations, validation on held-out problems, the better kept."""

from __future__ import annotations

import json
from pathlib import Path

from fake_programs import CORRECT, ONLY_SMALL, fenced, heavy_problem
from synthesis_runs import run_synthesis

from genplan.approaches.base import RunContext
from genplan.approaches.generalized_plan.candidates import Candidate, select, split_validation
from genplan.approaches.generalized_plan.synthesize import SynthesisResult, SynthesisSettings
from genplan.llm import FakeLanguageModel, read_recording
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem_sets import DomainProblems

OPENING = ["A packing domain.", "Pack the heaviest item first, then the next heaviest."]
TRAINING = tuple(heavy_problem(f"train-{i}", n) for i, n in enumerate((3, 3, 4, 5, 6, 7, 8, 9)))


def _problems(validation: tuple = ()) -> DomainProblems:
    evaluation = (heavy_problem("eval-0", 20), heavy_problem("eval-1", 30))
    domain = load_domain(builtin_domain_file("heavy"))
    return DomainProblems("heavy", domain, TRAINING, evaluation, validation=validation)


def _run(tmp_path: Path, answers: list[str], problems: DomainProblems | None = None, **settings: object):
    model = FakeLanguageModel(answers)
    report = run_synthesis(
        problems or _problems(),
        model,
        SynthesisSettings(timeout=5.0, **settings),  # type: ignore[arg-type]
        RunContext(
            folder=tmp_path / "run", model_name="fake", backend_name="fake", eval_timeout=5.0, workers=2
        ),
    )
    return model, report


def test_every_third_training_problem_past_the_prompt_ones_is_held_out() -> None:
    debugging, validation = split_validation(TRAINING, (), 2, size_check=False)
    assert [p.name for p in validation] == ["train-4", "train-7"]
    assert [p.name for p in debugging] == ["train-0", "train-1", "train-2", "train-3", "train-5", "train-6"]
    with_check, held = split_validation(TRAINING, (), 2, size_check=True)
    assert with_check[-1].name == "train-7" and [p.name for p in held] == ["train-4"]
    given = (heavy_problem("valid-0", 5),)
    assert split_validation(TRAINING, given, 2, size_check=False) == (list(TRAINING), list(given))


def _candidate(index: int, solved: int, seconds: float) -> Candidate:
    statuses = ["solved"] * solved + ["timeout"] * (3 - solved)
    validation = [{"problem": f"v{i}", "status": s, "seconds": seconds / 3} for i, s in enumerate(statuses)]
    return Candidate(index, SynthesisResult(program=f"# {index}"), validation)


def test_the_most_validation_problems_win_then_the_least_runtime_then_the_first() -> None:
    assert select([_candidate(0, 2, 0.1), _candidate(1, 3, 9.0), _candidate(2, 1, 0.0)]).index == 1
    assert select([_candidate(0, 3, 0.9), _candidate(1, 3, 0.3), _candidate(2, 3, 0.6)]).index == 1
    assert select([_candidate(0, 3, 0.3), _candidate(1, 3, 0.3)]).index == 0


def test_the_better_of_two_candidates_is_kept_and_both_are_recorded(tmp_path: Path) -> None:
    answers = [*OPENING, fenced(ONLY_SMALL), *OPENING, fenced(CORRECT)]
    model, report = _run(tmp_path, answers, candidates=2, debugging=False)
    assert model.samples == [0, 0, 0, 1, 1, 1]
    record, folder = report.record, report.folder
    assert record.label == "no-debug+timeout-5+candidates2"
    assert report.selected == 1 and record.details["selected_candidate"] == 1
    assert record.solved == 2 and record.llm_calls == 6
    assert (folder / "program.py").read_text() == (folder / "candidates" / "1" / "program.py").read_text()
    assert "too many items" in (folder / "candidates" / "0" / "program.py").read_text()
    summary = json.loads((folder / "candidates.json").read_text())
    assert [(c["validation_solved"], c["validation_problems"], c["selected"]) for c in summary] == [
        (0, 2, False),
        (2, 2, True),
    ]
    assert [c["validation"][0]["problem"] for c in summary] == ["train-4", "train-4"]
    recording = read_recording(folder / "conversation.jsonl")
    assert [e.sample for e in recording] == [0, 0, 0, 1, 1, 1]
    shown = "\n".join(m.content for e in recording for m in e.messages)
    assert "train-4" not in shown and "train-7" not in shown  # held out: never in a prompt
    from genplan.approaches.generalized_plan.approach import GeneralizedPlan

    described = GeneralizedPlan().describe(record)
    assert described[0].startswith(
        "Candidate 0: failed (python-exception) after 0 feedback rounds; validation 0/2"
    )
    assert described[1].startswith("Candidate 1 (selected): solved all training problems")
    assert set(record.artifacts) >= {
        "candidates.json",
        "candidates/0/program.py",
        "candidates/1/training.json",
        "candidates/1/growing_program.py",
    }


def test_candidates_debug_on_their_own_budget(tmp_path: Path) -> None:
    answers = [
        *OPENING,
        fenced(ONLY_SMALL),
        fenced(CORRECT),
        *OPENING,
        fenced(ONLY_SMALL),
        fenced(ONLY_SMALL),
    ]
    model, report = _run(tmp_path, answers, candidates=2, feedback_rounds=1)
    assert model.samples == [0, 0, 0, 0, 1, 1, 1, 1]
    assert report.selected == 0
    kinds = [c["feedback_kinds"] for c in report.record.details["candidates"]]
    assert kinds == [["python-exception"], ["python-exception"]]
    assert report.record.feedback == {"python-exception": 2}
    assert report.record.details["feedback_rounds_used"] == 1


def test_a_validation_folder_is_used_as_given(tmp_path: Path) -> None:
    validation = (heavy_problem("valid-0", 6), heavy_problem("valid-1", 10), heavy_problem("valid-2", 11))
    answers = [*OPENING, fenced(CORRECT), *OPENING, fenced(ONLY_SMALL)]
    _, report = _run(tmp_path, answers, _problems(validation), candidates=2, debugging=False)
    assert report.record.details["validation_problems"] == ["valid-0", "valid-1", "valid-2"]
    assert report.selected == 0
    assert report.record.details["training_problems"] == len(TRAINING)


def test_one_candidate_is_the_papers_run(tmp_path: Path) -> None:
    model, report = _run(tmp_path, [*OPENING, fenced(CORRECT)])
    assert model.samples == [0, 0, 0] and report.record.label == "timeout-5"
    assert not (report.folder / "candidates").exists() and "candidates" not in report.record.details
