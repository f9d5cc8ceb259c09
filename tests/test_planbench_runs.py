"""What the PlanBench runs need, offline: each problem set and selection through ``genplan run``
with the scripted fake model, and the message a newcomer without a model gets."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from autotos_programs import GOAL, fenced
from oracles.components import SUCCESSORS

from genplan.approaches import get_approach
from genplan.cli import build_parser, main
from genplan.cli.settings_options import settings_from_arguments
from genplan.llm import FakeLanguageModel
from genplan.plans.optimal import optimal_planner_available
from genplan.requests import compose as composer
from genplan.requests.models import ChosenModel, problem_flags, settings_flags
from genplan.runs.saved import saved_runs

BLOCKS_PROGRAM = """
def get_plan(objects, init, goal):
    below = {atom[1]: atom[2] for atom in init if atom[0] == "on"}
    above = {lower: upper for upper, lower in below.items()}
    plan = []
    for block in sorted(objects):
        if block in below:
            continue
        top = block
        while top in above:
            top = above[top]
        while top != block:
            plan += ["(unstack %s %s)" % (top, below[top]), "(put-down %s)" % top]
            top = below[top]
    targets = {atom[1]: atom[2] for atom in goal if atom[0] == "on"}
    placed = set()

    def place(block):
        if block in placed:
            return
        if block in targets:
            place(targets[block])
            plan.extend(["(pick-up %s)" % block, "(stack %s %s)" % (block, targets[block])])
        placed.add(block)

    for block in sorted(objects):
        place(block)
    return plan
"""
"""Every block to the table, then the goal towers bottom up (the test oracle's strategy)."""


def _run(
    arguments: list[str], answers: list[str], runs: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[FakeLanguageModel, str]:
    model = FakeLanguageModel(answers)
    monkeypatch.setattr(composer, "build_model", lambda *_: ChosenModel(model, "fake", "fake"))
    code = main(["run", *arguments, "--runs-dir", str(runs), "--llm", "manual"])
    assert code == 0
    return model, str(runs)


def _results(folder: Path) -> tuple[dict[str, object], list[dict[str, object]]]:
    return json.loads((folder / "metadata.json").read_text()), json.loads(
        (folder / "results.json").read_text()
    )


def test_autotos_on_planbench_blocksworld(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = [fenced(SUCCESSORS["blocksworld"]), fenced(GOAL)]
    arguments = ["--approach", "autotos", "--domain", "blocksworld", "--problems", "planbench", "--n", "3"]
    _run(arguments, answers, tmp_path, monkeypatch)
    metadata, results = _results(tmp_path / "blocksworld-planbench-x3" / "autotos-seed0")
    assert (metadata["problem_set"], metadata["solved"], metadata["llm_calls"]) == ("planbench x3", 3, 2)
    assert [r["problem"] for r in results] == [f"planbench/instance-{i}.pddl" for i in (1, 2, 3)]


def test_the_generalized_plan_on_planbench_blocksworld_hard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = [
        "Blocks in towers.",
        "Everything to the table, then build each tower from the bottom.",
        fenced(BLOCKS_PROGRAM),
    ]
    arguments = [
        "--approach",
        "generalized-plan",
        "--domain",
        "blocksworld",
        "--problems",
        "planbench-hard",
        "--n",
        "2",
    ]
    _run(arguments, answers, tmp_path, monkeypatch)
    metadata, results = _results(tmp_path / "blocksworld-planbench-hard-x2" / "main-seed0")
    assert (metadata["problem_set"], metadata["solved"]) == ("planbench-hard x2", 2)
    assert [r["problem"] for r in results] == [
        "planbench-hard/instance-1.pddl",
        "planbench-hard/instance-2.pddl",
    ]


def test_the_generalized_plan_on_planbench_logistics_sees_planbenchs_own_domain(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = fenced("def get_plan(objects, init, goal):\n    return []\n")
    answers = ["Packages.", "Trucks, then planes.", *[empty] * 12]
    arguments = [
        "--approach",
        "generalized-plan",
        "--domain",
        "logistics",
        "--problems",
        "planbench",
        "--n",
        "2",
    ]
    model, _ = _run(arguments, answers, tmp_path, monkeypatch)
    first = "\n".join(message.content for message in model.history[0])
    assert "logistics-strips" in first and "(airplane ?airplane)" in first.lower()  # PlanBench's own domain
    metadata, results = _results(tmp_path / "logistics-planbench-x2" / "main-seed0")
    assert metadata["problem_set"] == "planbench x2" and metadata["generators"] is None
    assert [(r["problem"], r["status"]) for r in results] == [
        ("planbench/instance-1.pddl", "plan-semantics"),  # read against PlanBench's domain: checked by it
        ("planbench/instance-2.pddl", "plan-semantics"),
    ]


needs_planner = pytest.mark.skipif(
    not optimal_planner_available(), reason="the planner extra is not installed"
)
SELECTION = ["--problems", "planbench:by-length:2,4", "--per-length", "1"]


@needs_planner
@pytest.mark.parametrize(
    ("approach", "flags"),
    [
        ("io", []),
        ("boomerang", []),
        ("react", []),
        ("symplanner", ["--rollouts", "2", "--beam-width", "1", "--generations", "1", "--group-size", "2"]),
    ],
)
def test_the_planners_on_symplanners_selection(
    approach: str, flags: list[str], tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = tmp_path_factory.getbasetemp() / "symplanner-selection"  # one label cache for the four
    arguments = ["--approach", approach, "--domain", "blocksworld", *SELECTION, *flags]
    _run(arguments, ["Action Sequence: (pick-up a)"] * 400, runs, monkeypatch)
    (folder,) = (runs / "blocksworld-planbench-by-length-2-4-x1").glob(f"{approach}*-seed0")
    metadata, results = _results(folder)
    assert metadata["problem_set"] == "planbench:by-length:2,4 x1"
    assert [r["details"]["optimal_length"] for r in results] == [2, 4]  # type: ignore[index]
    assert all(str(r["problem"]).startswith("planbench/instance-") for r in results)


def test_a_newcomer_without_a_model_is_told_which_saved_runs_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    arguments = [
        "run",
        "--approach",
        "boomerang",
        "--domain",
        "blocksworld",
        "--problems",
        "planbench-hard:by-length:2,4",
        "--per-length",
        "1",
        "--runs-dir",
        str(tmp_path),
    ]
    assert main(arguments) == 2
    error = capsys.readouterr().err
    assert "no saved run of boomerang covers blocksworld-planbench-hard-by-length-2-4-x1 (seed 0)" in error
    assert (
        "genplan run --approach boomerang --domain blocksworld --problems by-length:4,8,12 --per-length 2   "
        "# blocksworld-by-length-4-8-12-x2/boomerang-seed0, 6 problems"
    ) in error
    assert "no language model is set up" in error  # and how to set one up


@pytest.mark.parametrize(
    "approach", ["io", "boomerang", "react", "symplanner", "autotos", "asp", "generalized-plan"]
)
def test_every_command_the_note_prints_reaches_its_saved_run(approach: str) -> None:
    """Each printed command parses to the saved run's label and folder, so it replays that run
    (issue 33 item 7: gripper's no-cot, no-names and quality runs all printed ``--domain gripper``)."""
    from genplan.cli.request_options import request_from_arguments

    checked = 0
    for saved in saved_runs(approach):
        command = f"run --approach {approach} --domain {saved.domain}{problem_flags(saved.problem_set)}"
        argv = shlex.split(command + settings_flags(approach, saved.settings))
        args = build_parser(argv).parse_args(argv)
        settings = settings_from_arguments(args, get_approach(approach).settings_type)
        assert get_approach(approach).label(settings) == saved.label
        request = request_from_arguments(args, approach, get_approach(approach).settings_type)
        assert request.domain_name == saved.folder.parent.name
        checked += 1
    assert checked >= 1


@needs_planner
def test_a_smaller_selection_replays_the_saved_run_that_includes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no model set up, a selection inside a saved run's (the first problem of lengths 4 and
    12 of ``by-length:4,8,12 x2``; PlanBench's lengths 2 and 4 of its saved ``x10`` selection)
    replays that run's recording offline, and says so."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    arguments = ["run", "--approach", "boomerang", "--domain", "blocksworld", "--problems", "by-length:4,12"]
    assert main([*arguments, "--per-length", "1", "--runs-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert (
        "replaying the recorded conversation of the saved run blocksworld-by-length-4-8-12-x2/boomerang-seed0"
        in out + err
    )
    assert "Evaluation: 2/2 solved" in out
    metadata = json.loads(
        (tmp_path / "blocksworld-by-length-4-12-x1" / "boomerang-seed0" / "metadata.json").read_text()
    )
    assert (metadata["backend"], metadata["model"], metadata["llm_calls"]) == ("replay", "claude", 2)
    assert main([*arguments, "--per-length", "3", "--runs-dir", str(tmp_path)]) == 2  # more than was saved
    assert "no saved run of boomerang covers blocksworld-by-length-4-12-x3" in capsys.readouterr().err
    planbench = ["--problems", "planbench:by-length:2,4", "--per-length", "1", "--runs-dir", str(tmp_path)]
    assert main([*arguments[:5], *planbench]) == 0
    out, err = capsys.readouterr()
    assert "saved run blocksworld-planbench-by-length-2-4-6-8-10-12-x10/boomerang-seed0" in out + err
    assert "Evaluation: 2/2 solved" in out


@needs_planner
def test_a_grid_on_a_smaller_selection_replays_the_saved_run_that_includes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``genplan experiments`` with no model uses the same lookup as ``genplan run``: a cell whose
    selection lies inside a saved run's replays that run (it was skipped: no saved run of its
    own folder), records the recording's model, and solves as the run does."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"):
        monkeypatch.delenv(name, raising=False)

    def grid(per_length: int) -> list[str]:
        return [
            "experiments", "--domains", "blocksworld", "--approach", "boomerang",
            "--problems", "planbench:by-length:2,4", "--per-length", str(per_length), "--engine", "sequential",
            "--runs-dir", str(tmp_path / "runs"), "--results", str(tmp_path / f"results-{per_length}"),
        ]  # fmt: skip

    assert main(grid(1)) == 0
    assert "1 cells: 0 recorded before, 1 finished now, 0 failed" in capsys.readouterr().out
    (run,) = [json.loads(line) for line in (tmp_path / "results-1" / "runs.jsonl").read_text().splitlines()]
    assert run["cell"] == "blocksworld-planbench-by-length-2-4-x1/boomerang/boomerang-seed0"
    assert (run["backend"], run["model"], run["fraction_solved"]) == ("replay", "claude", 1.0)
    assert main(grid(30)) == 2  # more than was saved
    assert "no saved run to replay" in capsys.readouterr().err
