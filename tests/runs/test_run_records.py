"""A whole run with the fake model: run folder, metadata, No Names, saving, evaluation."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from fake_programs import CORRECT, RAISES, fenced, heavy_problem, training_problems
from synthesis_runs import run_synthesis

from genplan.approaches.base import RunContext, save_run
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings
from genplan.approaches.generalized_plan.variants import Variant
from genplan.llm import FakeLanguageModel, read_recording
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem_sets import DomainProblems

OPENING = ["A packing domain.", "Pack the heaviest first."]


def _problems() -> DomainProblems:
    evaluation = (heavy_problem("eval-0", 8), heavy_problem("eval-1", 12))
    return DomainProblems(
        "heavy", load_domain(builtin_domain_file("heavy")), tuple(training_problems()), evaluation
    )


def _run(tmp_path: Path, answers: list[str], variant: Variant | None = None):
    model = FakeLanguageModel(answers)
    report = run_synthesis(
        _problems(),
        model,
        SynthesisSettings(**dataclasses.asdict(variant or Variant()), timeout=2.0),
        RunContext(
            folder=tmp_path / "run", model_name="fake", backend_name="fake", eval_timeout=5.0, workers=2
        ),
    )
    return model, report


def test_run_folder_holds_conversation_programs_results_and_metadata(tmp_path: Path) -> None:
    _, report = _run(tmp_path, [*OPENING, fenced(RAISES), fenced(CORRECT)])
    folder = report.folder
    recording = read_recording(folder / "conversation.jsonl")
    assert len(recording) == 4
    assert [m.role for m in recording[-1].messages] == ["user", "assistant"] * 3 + ["user"]
    assert (folder / "program.py").read_text() == report.synthesis.program
    assert (folder / "growing_program.py").read_text() == report.synthesis.program
    assert "answer 1" in report.synthesis.program and "answer 2" in report.synthesis.program
    rounds = json.loads((folder / "training.json").read_text())
    assert [r["failure"] for r in rounds] == ["python-exception", None]
    results = json.loads((folder / "results.json").read_text())
    assert [r["status"] for r in results] == ["solved", "solved"]
    metadata = json.loads((folder / "metadata.json").read_text())
    assert metadata["fraction_solved"] == 1.0
    assert metadata["approach"] == "generalized-plan" and metadata["label"] == "timeout-2"
    assert metadata["llm_calls"] == 4 and metadata["feedback"] == {"python-exception": 1}
    details = metadata["details"]
    assert details["feedback_rounds_used"] == 1 and details["feedback_kinds"] == ["python-exception"]
    assert details["training_outcome"] == "solved all training problems"
    assert metadata["model"] == "fake" and details["variant"] == "main"
    assert set(metadata["artifacts"]) == {
        "conversation.jsonl",
        "identity.json",
        "growing_program.py",
        "program.py",
        "training.json",
        "metadata.json",
        "results.json",
        "plans/eval-0.plan",
        "plans/eval-1.plan",
    }
    assert all(r["plan_cost"] == r["plan_length"] for r in results)
    plan = (folder / "plans" / "eval-0.plan").read_text().splitlines()
    assert len(plan) == results[0]["plan_length"] + 1 and plan[-1].endswith("(unit cost)")


def test_a_failing_program_is_still_evaluated(tmp_path: Path) -> None:
    _, report = _run(tmp_path, [*OPENING, fenced(RAISES)], Variant(debugging=False))
    assert report.summary.fraction_solved == 0.0
    assert report.summary.statuses == {"python-exception": 2}
    assert report.record.details["training_outcome"].startswith("failed")


def test_no_names_hides_every_name_from_the_model(tmp_path: Path) -> None:
    obfuscated_program = (
        "def get_plan(objects, init, goal):\n"
        "    count = {o: 0 for o in objects}\n"
        "    for atom in init:\n"
        "        if len(atom) == 3:\n"
        "            count[atom[1]] += 1\n"
        "    ops = sorted({a[0] for a in init})\n"
        "    return []\n"
    )
    model, report = _run(
        tmp_path, [*OPENING, fenced(obfuscated_program)], Variant(names=False, debugging=False)
    )
    everything_sent = "\n".join(m.content for exchange in model.history for m in exchange)
    for name in ("heavier", "pack-first", "stack", "unpacked", "box-empty", "heavy-pack", "train-0"):
        assert name not in everything_sent, name
    assert (report.folder / "name_mapping.json").is_file()


SAVED_NAMES = ("conversation.jsonl", "program.py", "growing_program.py", "results.json", "metadata.json")


def test_save_copies_the_run(tmp_path: Path) -> None:
    _, report = _run(tmp_path, [*OPENING, fenced(CORRECT)])
    saved = save_run(report.folder, "heavy", "main", 0, root=tmp_path / "synthesized")
    assert saved.destination == tmp_path / "synthesized" / "heavy" / "main-seed0"
    for name in SAVED_NAMES:
        assert (saved.destination / name).read_bytes() == (report.folder / name).read_bytes()
    assert saved.note == f"Saved to {saved.destination.resolve()}"


def test_a_saved_run_is_never_replaced_by_another_run_or_a_replay_of_itself(tmp_path: Path) -> None:
    root = tmp_path / "synthesized"
    _, first = _run(tmp_path / "first", [*OPENING, fenced(CORRECT)])
    original = save_run(first.folder, "heavy", "main", 0, root=root).destination
    assert original is not None
    before = {name: (original / name).read_bytes() for name in SAVED_NAMES}

    again = save_run(first.folder, "heavy", "main", 0, root=root)  # the same conversation (a replay)
    assert again.destination is None and "already holds this conversation" in again.note

    _, second = _run(tmp_path / "second", [*OPENING, fenced(RAISES), fenced(CORRECT)])  # a new run
    beside = save_run(second.folder, "heavy", "main", 0, root=root)
    assert beside.destination == root / "heavy" / "main-seed0-2"
    assert save_run(second.folder, "heavy", "main", 0, root=root).destination is None  # saved once
    assert {name: (original / name).read_bytes() for name in SAVED_NAMES} == before

    _, third = _run(tmp_path / "third", [*OPENING, fenced(RAISES), fenced(RAISES), fenced(CORRECT)])
    replaced = save_run(third.folder, "heavy", "main", 0, root=root, overwrite=True)  # explicitly
    assert replaced.destination == original
    assert (original / "conversation.jsonl").read_bytes() == (
        third.folder / "conversation.jsonl"
    ).read_bytes()


def test_a_user_folder_in_the_ipc_layout_loads(tmp_path: Path) -> None:
    import shutil

    from genplan.pddl.generate import write_problems
    from genplan.pddl.problem_sets import load_domain_problems

    folder = tmp_path / "my-heavy"
    (folder / "training").mkdir(parents=True)
    shutil.copy(builtin_domain_file("heavy"), folder / "domain.pddl")
    write_problems("heavy", "train", 0, folder / "training" / "easy", n=4)
    for level in ("easy", "hard"):
        write_problems("heavy", "train", 1, folder / "testing" / level, n=2)
    problems = load_domain_problems(str(folder), 0, None, tmp_path / "work")
    assert problems.name == "my-heavy" and len(problems.training) == 4 and len(problems.evaluation) == 4
    sizes = [len(p.init) for p in problems.training]
    assert sizes == sorted(sizes)


def test_the_size_check_is_a_split_of_its_own(tmp_path: Path) -> None:
    from genplan.pddl.problem_sets import load_domain_problems

    plain = load_domain_problems("heavy", 0, 1, tmp_path)
    checked = load_domain_problems("heavy", 0, 1, tmp_path, size_check=True)
    assert checked.training == plain.training and checked.size_check and not plain.size_check
    (check,) = checked.size_check_problems
    assert checked.training_with_size_check == (*plain.training, check)
    assert check.name == "heavy-check-00" and len(check.object_types) >= 100
    assert check.init != checked.evaluation[0].init


def test_a_slow_program_is_caught_by_the_size_check(tmp_path: Path) -> None:
    from genplan.approaches.generalized_plan.synthesize import check_training
    from genplan.pddl.problem_sets import load_domain_problems
    from genplan.sandbox import Limits

    slow = (
        "def get_plan(objects, init, goal):\n"
        "    items = sorted(objects)\n"
        "    heavier = [a[1:] for a in init if a[0] == 'heavier']\n"
        "    for _ in range(len(items)):\n"
        "        for i in range(len(items) - 1):\n"
        "            if (items[i + 1], items[i]) in heavier:\n"  # list membership: O(n^4) overall
        "                items[i], items[i + 1] = items[i + 1], items[i]\n"
        "    return ['(pack-first %s)' % items[0]] + ['(stack %s %s)' % p for p in zip(items, items[1:])]\n"
    )
    problems = load_domain_problems("heavy", 0, 1, tmp_path, size_check=True)
    passed, check, problem = check_training(slow, problems.training_with_size_check, 3.0, Limits())
    assert passed == len(problems.training)
    assert problem is not None and problem.name == "heavy-check-00"
    assert check is not None and check.failure is not None and check.failure.value == "timeout"
