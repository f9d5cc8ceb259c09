"""The heuristic approach end to end: candidates, repair, selection, the record, the command line,
and replaying a run from its recording and from a saved run with no model at all."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from heuristic_programs import (
    BLIND,
    GOAL_COUNT,
    GOAL_COUNT_PLUS_ONE,
    LOOPS,
    RAISES,
    RETURNS_STRING,
    fenced,
    run_in_process,
)

from genplan.approaches import get_approach
from genplan.approaches.base import RunContext, read_record
from genplan.approaches.heuristic.approach import HeuristicApproach
from genplan.approaches.heuristic.searching import SearchRecord
from genplan.approaches.heuristic.selection import Training, select, training_problems
from genplan.approaches.heuristic.settings import HeuristicSettings
from genplan.cli import main
from genplan.llm import FakeLanguageModel
from genplan.pddl.problem_sets import load_domain_problems

SETTINGS = HeuristicSettings(candidates=5, repair=True, training_seconds=5.0, check_seconds=2.0)
LABEL = "heuristic+candidates-5+repair+training-seconds-5+check-seconds-2"
ANSWERS = [
    fenced(GOAL_COUNT_PLUS_ONE),  # candidate 1: never 0, so repair asks once ...
    fenced(GOAL_COUNT),  # ... and the revision replaces it
    fenced(RETURNS_STRING),  # candidate 2: fails its check
    fenced(RAISES),  # candidate 3: fails its check
    "I would rather describe the heuristic in words.",  # candidate 4: no code
    fenced(BLIND),  # candidate 5: 0 everywhere, so repair asks once ...
    fenced(LOOPS),  # ... and the revision loops: it fails its check, the first program stays
]


@pytest.fixture(scope="module")
def delivery_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, FakeLanguageModel]:
    work = tmp_path_factory.mktemp("delivery")
    problems = load_domain_problems("delivery", 0, 2, work)
    model = FakeLanguageModel(ANSWERS)
    folder = work / "runs" / "delivery" / f"{LABEL}-seed0"
    context = RunContext(folder=folder, model_name="fake", backend_name="fake", workers=1, eval_timeout=30.0)
    HeuristicApproach(runner=run_in_process).run(problems, model, SETTINGS, context)
    return folder, model


def test_each_candidate_is_one_sample_and_repair_continues_its_conversation(
    delivery_run: tuple[Path, FakeLanguageModel],
) -> None:
    _, model = delivery_run
    assert model.samples == [0, 0, 1, 2, 3, 4, 4]
    assert [len(messages) for messages in model.history] == [1, 3, 1, 1, 1, 1, 3]
    prompt = model.history[0][0].content
    assert all(messages[0].content == prompt for messages in model.history)
    assert "make_heuristic(objects, init, goal)" in prompt and "(define (domain delivery)" in prompt
    assert "the static predicates are: ishomebase, safe." in prompt
    repair = model.history[1][2].content
    assert "h returned 1. This is a goal state" in repair and "so h must be 0" in repair
    assert model.history[1][1].content == ANSWERS[0]
    blind = model.history[6][2].content
    assert "h returned 0. This is not a goal state" in blind and "must be greater than 0" in blind


def test_the_record_holds_each_candidates_fate_the_selection_and_the_search_figures(
    delivery_run: tuple[Path, FakeLanguageModel],
) -> None:
    folder, _ = delivery_run
    record = read_record(folder)
    assert (record.approach, record.label, record.llm_calls) == ("heuristic", LABEL, 7)
    assert record.feedback == {"counterexamples": 2}
    details = record.details
    assert (details["candidates_asked"], details["candidates_usable"]) == (5, 2)
    assert (details["repairs_asked"], details["repairs_used"]) == (2, 1)
    statuses = [
        (c["candidate"], c["status"], c["repair"] and c["repair"]["replaced"]) for c in details["candidates"]
    ]
    assert statuses == [
        (1, "usable", True),
        (2, "check-failed", None),
        (3, "check-failed", None),
        (4, "no-code", None),
        (5, "usable", False),
    ]
    assert "ZeroDivisionError" in details["candidates"][2]["reason"]
    assert "returned a str ('far')" in details["candidates"][1]["reason"]
    assert details["candidates"][0]["counterexamples"] == {"goal-not-zero": 3}
    assert details["candidates"][4]["repair"]["status"] == "check-failed"
    assert "did not answer within 2 s" in details["candidates"][4]["repair"]["reason"]
    first, blind = details["candidates"][0]["training"], details["candidates"][4]["training"]
    assert first["solved"] == blind["solved"] == 5 and first["expanded"] < blind["expanded"]
    assert details["selected"] == 1 and details["selected_training"]["expanded"] == first["expanded"]
    assert [p["problem"] for p in details["probes"]] == [
        "delivery-train-00",
        "delivery-train-01",
        "delivery-train-02",
    ]
    assert all(p.solved and p.checked_by and p.plan_cost == p.plan_length for p in record.problems)
    assert all(
        p.details["expanded"] >= 1 and p.details["evaluated"] >= p.details["expanded"]
        for p in record.problems
    )


def test_the_run_folder_holds_every_candidate_the_selected_heuristic_and_the_training_searches(
    delivery_run: tuple[Path, FakeLanguageModel],
) -> None:
    folder, _ = delivery_run
    record = read_record(folder)
    for name in record.artifacts:
        assert (folder / name).is_file(), name
    assert (folder / "heuristic.py").read_text().strip() == GOAL_COUNT.strip()
    assert (folder / "candidates" / "candidate-1.py").read_text().strip() == GOAL_COUNT_PLUS_ONE.strip()
    assert (folder / "candidates" / "candidate-1-revised.py").read_text().strip() == GOAL_COUNT.strip()
    assert not (folder / "candidates" / "candidate-4.py").exists()
    candidates = json.loads((folder / "candidates.json").read_text())
    searches = candidates[0]["training"]["searches"]
    assert [s["problem"] for s in searches] == [f"delivery-train-0{i}" for i in range(5)]
    assert all(s["status"] == "plan-found" and s["plan_length"] for s in searches)
    observations = json.loads((folder / "observations.json").read_text())
    assert len(observations) == 10  # two usable candidates x five training problems


def test_selection_prefers_more_solved_then_fewer_expansions_then_less_time() -> None:
    def training(candidate: int, *searches: tuple[str, int, float]) -> Training:
        records = tuple(
            SearchRecord(status, None, expanded, expanded, expanded, seconds)
            for status, expanded, seconds in searches
        )
        return Training(candidate, records, tuple(f"p{i}" for i in range(len(records))))

    more_solved = training(3, ("plan-found", 900, 9.0), ("plan-found", 900, 9.0))
    fewer = training(1, ("plan-found", 10, 1.0), ("search-timeout", 5, 5.0))
    assert select([fewer, more_solved]) is more_solved
    cheap = training(2, ("plan-found", 100, 9.0), ("search-timeout", 99999, 5.0))
    dear = training(1, ("plan-found", 200, 1.0), ("search-timeout", 0, 5.0))
    assert select([dear, cheap]) is cheap  # expansions count over the problems solved only
    fast = training(4, ("plan-found", 100, 1.0))
    slow = training(2, ("plan-found", 100, 2.0))
    assert select([slow, fast]) is fast
    twin = training(1, ("plan-found", 100, 1.0))
    assert select([fast, twin]) is twin  # then the earlier candidate
    assert select([]) is None


def test_the_selection_problems_spread_over_the_training_sizes(tmp_path: Path) -> None:
    training = load_domain_problems("gripper", 0, 1, tmp_path).training
    assert training_problems(training, 3) == [training[0], training[4], training[9]]
    assert training_problems(training, 20) == list(training)
    assert training_problems(training, 1) == [training[-1]]


def test_heuristic_is_registered_with_its_settings_as_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert isinstance(get_approach("heuristic"), HeuristicApproach)
    with pytest.raises(SystemExit):
        main(["run", "--approach", "heuristic", "--help"])
    shown = capsys.readouterr().out
    for flag in (
        "--candidates",
        "--repair",
        "--no-repair",
        "--training-problems",
        "--training-seconds",
        "--max-states",
    ):
        assert flag in shown


@pytest.mark.parametrize(
    ("settings", "label"),
    [
        (HeuristicSettings(), "heuristic"),
        (HeuristicSettings(repair=True), "heuristic+repair"),
        (HeuristicSettings(candidates=25), "heuristic+candidates-25"),
    ],
)
def test_the_label_names_what_differs_from_the_defaults(settings: HeuristicSettings, label: str) -> None:
    assert HeuristicApproach().label(settings) == label


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"candidates": 0}, "candidates"),
        ({"training_seconds": 0}, "training_seconds"),
        ({"prompt_examples": -1}, "prompt_examples"),
    ],
)
def test_settings_reject_values_no_run_could_use(changes: dict[str, float], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        HeuristicSettings(**changes)  # type: ignore[arg-type]


def _run_command(*extra: str) -> list[str]:
    return [
        "run",
        "--approach",
        "heuristic",
        "--domain",
        "delivery",
        "--n",
        "2",
        "--candidates",
        "5",
        "--repair",
        "--training-seconds",
        "5",
        "--check-seconds",
        "2",
        *extra,
    ]


@pytest.mark.slow
def test_the_command_line_replays_a_recording_to_the_same_selection_and_results(
    delivery_run: tuple[Path, FakeLanguageModel], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _ = delivery_run
    code = main(_run_command("--llm", f"replay:{folder / 'conversation.jsonl'}", "--runs-dir", str(tmp_path)))
    assert code == 0
    shown = capsys.readouterr().out
    assert f"approach heuristic ({LABEL})" in shown and "LLM calls: 7" in shown
    assert "Selected: candidate 1" in shown and "Evaluation: 2/2 solved" in shown
    replayed = tmp_path / "delivery" / f"{LABEL}-seed0"
    for name in ("heuristic.py", "candidates.json", "candidates/candidate-5-revised.py"):
        assert (replayed / name).read_text() == (folder / name).read_text(), name
    original, again = read_record(folder), read_record(replayed)
    assert again.isolation == "bwrap"  # the replay ran every program in the sandbox
    assert [(p.problem, p.status, p.plan_length, p.details) for p in again.problems] == [
        (p.problem, p.status, p.plan_length, p.details) for p in original.problems
    ]


@pytest.mark.slow
def test_with_no_model_a_saved_run_replays_offline(
    delivery_run: tuple[Path, FakeLanguageModel], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _ = delivery_run
    saved = tmp_path / "synthesized" / "delivery" / folder.name  # the user's saved runs (./synthesized)
    shutil.copytree(folder, saved)
    assert main(_run_command("--runs-dir", str(tmp_path / "runs"))) == 0
    shown = capsys.readouterr().out
    assert f"No model set up: replaying the recorded conversation {saved / 'conversation.jsonl'}" in shown
    replayed = read_record(tmp_path / "runs" / "delivery" / folder.name)
    assert replayed.backend == "replay" and replayed.llm_calls == 7
    assert replayed.solved == 2 and replayed.details["selected"] == 1
