"""The planners' runs: I/O's checked plans, per-problem counts and their totals, parallel problems,
labels, and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from blocks import OPTIMAL, TWO_MOVES, problem_set
from oracles import ORACLES
from planner_helpers import last_user, run

from genplan.approaches import get_approach
from genplan.approaches.planners.approach import planner_label
from genplan.approaches.planners.settings import SymPlannerSettings, ToIDFSSettings
from genplan.cli import main
from genplan.experiments.grid import run_grid
from genplan.experiments.spec import ApproachSpec, GridSpec, ModelSpec
from genplan.llm import BackendKind, BackendSpec, FakeLanguageModel, Message
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import parse_problem_text
from genplan.pddl.selection import LengthSelection, load_selected_problems
from genplan.plans.optimal import OptimalLengths, optimal_plan, optimal_planner_available

needs_planner = pytest.mark.skipif(
    not optimal_planner_available(), reason="the planner extra is not installed"
)


def _fenced(*actions: str) -> str:
    return "Here is the plan.\n```plan\n" + "\n".join(actions) + "\n```"


def test_io_plans_are_checked_like_any_other(tmp_path: Path) -> None:
    model = FakeLanguageModel([_fenced(*OPTIMAL), _fenced(*OPTIMAL[1:])])
    record = run("io", model, tmp_path, problem_set(optimal={"tower": 4}), demonstration=False)
    assert record.problems[0].status == "solved" and record.problems[0].details["optimal"]
    assert record.world_model_queries is None and record.problems[0].world_model_queries is None
    record = run("io", model, tmp_path / "bad", problem_set(), demonstration=False)
    assert record.problems[0].status == "plan-semantics" and "(put-down a)" in (
        record.problems[0].message or ""
    )


def test_io_cot_needs_the_plan_in_a_fenced_block(tmp_path: Path) -> None:
    model = FakeLanguageModel(["1. (unstack a b) -> ... then (put-down a)"])
    record = run("io-cot", model, tmp_path, problem_set(), demonstration=False)
    assert record.problems[0].status == "no-plan" and record.problems[0].plan_length is None
    assert "write each action with the state it leads to" in last_user(model, 0)


@needs_planner
def test_io_shows_a_solved_training_problem_as_its_demonstration(tmp_path: Path) -> None:
    model = FakeLanguageModel([_fenced(*OPTIMAL), _fenced(*OPTIMAL)])
    run("io", model, tmp_path / "io", problem_set())
    run("io-cot", model, tmp_path / "cot", problem_set())
    plain, cot = last_user(model, 0), last_user(model, 1)
    assert "(define (problem two)" in plain and "```plan\n(pick-up a)\n(stack a b)\n```" in plain
    assert "1. (pick-up a) -> state: (clear b) (holding a) (ontable b)" in cot
    assert "-> state:" not in plain


def test_problems_run_in_parallel_and_the_totals_sum_the_per_problem_counts(tmp_path: Path) -> None:
    def solve(messages: list[Message]) -> str:
        text = messages[0].content
        plan = ["(pick-up a)", "(stack a b)"] if "(problem two)" in text else OPTIMAL
        return "Action Sequence: " + ", ".join(plan)

    model = FakeLanguageModel([solve, solve])
    problems = problem_set(
        TWO_MOVES.replace("(problem two)", "(problem two)"), optimal={"tower": 4, "two": 2}
    )
    problems = problem_set(
        "(define (problem tower) (:domain blocksworld-4ops) (:objects a b c) (:init (on a b) (ontable b) "
        "(ontable c) (clear a) (clear c) (handempty)) (:goal (and (on b c))))",
        TWO_MOVES,
        optimal={"tower": 4, "two": 3},
    )
    record = run("boomerang", model, tmp_path, problems, workers=2)
    assert [r.problem for r in record.problems] == ["tower", "two"]
    assert [r.world_model_queries for r in record.problems] == [4, 2]
    assert [r.details["optimal"] for r in record.problems] == [True, False]  # 2 actions, "optimal" said 3
    assert record.llm_calls == 2 == sum(r.llm_calls or 0 for r in record.problems)
    assert record.world_model_queries == 6
    assert record.prompt_tokens == sum(r.details["prompt_tokens"] for r in record.problems)
    metadata = json.loads((tmp_path / "metadata.json").read_text())
    assert metadata["details"]["workers"] == 2 and metadata["details"]["budget"] == 20
    assert len((tmp_path / "conversation.jsonl").read_text().splitlines()) == 2


def test_labels_name_the_settings_changed_from_the_papers() -> None:
    assert planner_label("symplanner", SymPlannerSettings()) == "symplanner"
    changed = SymPlannerSettings(rollouts=2, beam_width=2, diverse_generation=True, contrastive_ranking=False)
    assert planner_label("symplanner", changed) == (
        "symplanner+rollouts-2+beam-width-2+no-contrastive-ranking+diverse-generation"
    )
    assert get_approach("toi-dfs").label(ToIDFSSettings(min_rating="sure")) == "toi-dfs+min-rating-sure"


@pytest.mark.parametrize(
    ("name", "settings", "message"),
    [
        ("symplanner", {"group_size": 1}, "group-size must be at least 2"),
        ("toi-dfs", {"min_rating": "great"}, "min-rating must be one of"),
        ("boomerang", {"budget": 0}, "budget must be at least 1"),
    ],
)
def test_bad_settings_are_refused(name: str, settings: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_approach(name).settings_type(**settings)


@pytest.mark.parametrize(
    "name", ["io", "io-cot", "react", "react-select", "toi-bfs", "toi-dfs", "boomerang", "symplanner"]
)
def test_every_method_is_an_approach_with_flags(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--approach", name, "--help"])
    shown = capsys.readouterr().out
    assert "--problems" in shown and "--per-length" in shown
    approach = get_approach(name)
    for field in approach.settings_type.__dataclass_fields__:
        assert "--" + field.replace("_", "-") in shown


@needs_planner
@pytest.mark.slow
def test_the_command_line_runs_a_method_on_problems_chosen_by_length(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problems = load_selected_problems(
        "blocksworld",
        0,
        LengthSelection((4,), 1),
        tmp_path / "record",
        labeller=OptimalLengths(tmp_path / "cache"),
    )
    plan = optimal_plan(problems.evaluation[0]).plan
    assert plan is not None
    model = FakeLanguageModel(["Action Sequence: " + ", ".join(plan)])
    run("boomerang", model, tmp_path / "recorded", problems)
    arguments = ["run", "--approach", "boomerang", "--domain", "blocksworld", "--problems", "by-length:4"]
    arguments += ["--per-length", "1", "--runs-dir", str(tmp_path / "runs"), "--model", "fake"]
    arguments += ["--llm", f"replay:{tmp_path / 'recorded' / 'conversation.jsonl'}"]
    assert main(arguments) == 0
    shown = capsys.readouterr().out
    assert "Evaluation: 1/1 solved" in shown and "Problem set: by-length:4 x1" in shown
    assert "Optimal plans: 1 of 1 problems" in shown
    folder = tmp_path / "runs" / "blocksworld-by-length-4-x1" / "boomerang-seed0"
    results = json.loads((folder / "results.json").read_text())
    metadata = json.loads((folder / "metadata.json").read_text())
    assert (metadata["problem_set"], metadata["generators"]) == ("by-length:4 x1", "v2")
    assert (
        results[0]["problem"].startswith("by-length/len04-") and results[0]["details"]["optimal_length"] == 4
    )


def test_a_bad_problem_selection_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "run",
            "--approach",
            "io",
            "--domain",
            "blocksworld",
            "--problems",
            "by-size:4",
            "--llm",
            "files:" + str(tmp_path),
        ]
    )
    assert code == 2 and "by-length:L1,L2" in capsys.readouterr().err


@pytest.mark.skipif(not optimal_planner_available(), reason="needs the planner extra")
def test_the_experiment_grid_runs_planners_on_a_problem_selection(tmp_path: Path) -> None:
    domain = load_domain(builtin_domain_file("blocksworld"))

    def solve(messages: list[Message]) -> str:
        text = messages[0].content.split("Problem (PDDL):\n```pddl\n")[1].split("```")[0]
        plan = ORACLES["blocksworld"](parse_problem_text(text, domain))
        if "Action Sequence" in messages[0].content:
            return "Action Sequence: " + ", ".join(plan)
        return _fenced(*plan)

    spec = GridSpec(
        domains=("blocksworld",),
        seeds=(0,),
        approaches=(
            ApproachSpec("boomerang", (("budget", "200"),)),
            ApproachSpec("io", (("demonstration", "false"),)),
        ),
        model=ModelSpec(BackendSpec(BackendKind.FAKE, model="fake"), cache_dir=tmp_path / "runs" / "cache"),
        runs_dir=tmp_path / "runs",
        results_dir=tmp_path / "results",
        n_eval=2,
        problems=LengthSelection((2,), 2),
    )
    summary = run_grid(spec, model_factory=lambda cell: FakeLanguageModel([solve, solve]))
    assert (summary.total, summary.finished, summary.failed) == (2, 2, 0)
    rows = [json.loads(line) for line in (tmp_path / "results" / "runs.jsonl").read_text().splitlines()]
    assert sorted(row["cell"] for row in rows) == [
        "blocksworld-by-length-2-x2/boomerang/boomerang+budget-200-seed0",
        "blocksworld-by-length-2-x2/io/io+no-demonstration-seed0",
    ]
    assert all(row["fraction_solved"] == 1.0 for row in rows)
    again = run_grid(spec, model_factory=lambda cell: FakeLanguageModel())  # would fail if asked
    assert again.finished == 0 and again.recorded_before == 2
