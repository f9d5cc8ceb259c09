"""Quality feedback for the generalized plan: the plan-quality prompt and the keep-the-better rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_programs import fenced

import genplan.approaches.generalized_plan.plan_quality as plan_quality
from genplan.approaches.generalized_plan.scaling import ProblemSize, ScalingTarget
from genplan.approaches.generalized_plan.settings import SynthesisSettings
from genplan.approaches.generalized_plan.synthesize import synthesize
from genplan.llm import FakeLanguageModel
from genplan.pddl.problem import load_problem
from genplan.plans.failures import FailureKind
from genplan.plans.fast_downward import find_driver
from genplan.runs.keys import names_by_key
from genplan.runs.observations import Observations
from genplan.sandbox import Limits

pytestmark = pytest.mark.skipif(find_driver() is None, reason="optimal costs need Fast Downward")

COSTS = Path(__file__).resolve().parents[1] / "data" / "costs"
DIRECT = ["(load t1 a c1 s0 s1)", "(drive t1 a c)", "(unload t1 c c1 s0 s1)"]
THROUGH_B = [
    "(load t1 a c1 s0 s1)",
    "(drive t1 a b)",
    "(drive t1 b c)",
    "(unload t1 c c1 s0 s1)",
]


def _program(plan: list[str]) -> str:
    return f"def get_plan(objects, init, goal):\n    return {plan!r}\n"


COSTLY = _program(DIRECT)  # cost 12: the direct road
CHEAP = _program(THROUGH_B)  # cost 7: optimal
INVALID = _program(DIRECT[1:])  # never loads the crate
DETOUR = _program([DIRECT[0], "(drive t1 a b)", "(drive t1 b a)", *DIRECT[1:]])  # cost 16
SETTINGS = SynthesisSettings(quality_feedback=True, feedback_rounds=3)


def _synthesize(*programs: str, observations: Observations | None = None):
    problem = load_problem(COSTS / "p01.pddl", COSTS / "domain.pddl")
    model = FakeLanguageModel(
        ["A haulage domain.", "Load, drive, then unload.", *(fenced(p) for p in programs)]
    )
    result = synthesize(
        model,
        problem.domain.to_pddl(),
        [problem],
        SETTINGS,
        limits=Limits(),
        observations=observations or Observations(),
    )
    return model, result


def test_the_plan_quality_prompt_shows_costs_beside_optimal_and_both_plans() -> None:
    model, result = _synthesize(COSTLY, CHEAP)
    prompt = model.history[3][-1].content
    assert "on average 1.71 times the optimal cost" in prompt
    assert "haulage-costs-01 | 12 | 7" in prompt
    assert repr(DIRECT) in prompt and repr(THROUGH_B) in prompt
    assert "shorter (cheaper) plans that stay valid" in prompt
    first, second = result.rounds
    assert first.failure is FailureKind.PLAN_QUALITY and first.quality["mean_ratio"] == pytest.approx(12 / 7)
    assert second.failure is None and second.quality["kept"] is True and second.quality["total_cost"] == 7
    assert result.feedback_kinds == ["plan-quality"] and result.solved_training
    assert result.program.rstrip().endswith(repr(THROUGH_B))


@pytest.mark.parametrize(
    ("revision", "reason"),
    [
        (INVALID, "solves 0 of 1 training problems (plan-semantics)"),
        (COSTLY, "not cheaper: total cost 12, before 12"),
    ],
)
def test_a_revision_that_fails_or_is_not_cheaper_is_not_kept(revision: str, reason: str) -> None:
    model, result = _synthesize(COSTLY, revision, CHEAP)
    assert len(model.history) == 4  # no further request once the revision is refused
    assert result.program.rstrip().endswith(repr(DIRECT)) and "answer 2" not in result.program
    last = result.rounds[-1]
    assert last.quality["kept"] is False and last.quality["reason"] == reason
    assert last.failure is None and last.feedback is None and result.solved_training
    assert result.feedback_kinds == ["plan-quality"]


def test_optimal_costs_are_observations_a_replay_reuses(tmp_path: Path) -> None:
    observations = Observations(tmp_path / "observations.json")
    _synthesize(COSTLY, CHEAP, observations=observations)
    assert observations.measured == 1
    again = Observations(tmp_path / "again.json", earlier=[tmp_path / "observations.json"])
    model, _ = _synthesize(COSTLY, CHEAP, observations=again)
    assert again.reused >= 1 and again.measured == 0
    assert "haulage-costs-01 | 12 | 7" in model.history[3][-1].content


def _no_planner(*args: object, **kw: object) -> None:
    raise AssertionError("a replay runs no planner")


def test_where_astar_does_not_finish_a_lama_first_plan_is_the_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """LAMA-first finds the direct road (cost 12), not the optimal plan (7): a program whose
    plans cost 16 is told a planner found a plan of cost 12, never that it is optimal."""
    monkeypatch.setattr(plan_quality, "OPTIMAL_SECONDS", 0.01)  # A* cannot finish
    observations = Observations(tmp_path / "observations.json")
    model, result = _synthesize(DETOUR, COSTLY, observations=observations)
    prompt = model.history[3][-1].content
    assert "plans cost more than plans a planner found: on average 1.33 times the best known cost" in prompt
    assert "haulage-costs-01 | 16 | 12 (found by a planner)" in prompt
    worst = prompt[prompt.index("The worst is") :]
    assert worst.startswith("The worst is haulage-costs-01 (cost 16; a planner found a plan of cost 12).")
    assert f"A plan of cost 12 exists (found by a planner):\n{DIRECT!r}" in worst and "optimal" not in worst
    first, second = result.rounds
    assert first.failure is FailureKind.PLAN_QUALITY
    assert first.quality["costs"] == [
        {
            "problem": "haulage-costs-01",
            "cost": 16.0,
            "optimal": None,
            "reference": 12.0,
            "kind": "lama-first",
        }
    ]
    assert second.failure is None and second.quality["kept"] is True and second.quality["total_cost"] == 12
    monkeypatch.setattr(plan_quality, "optimal_plan", _no_planner)
    monkeypatch.setattr(plan_quality, "planner_run", _no_planner)
    replay = Observations(tmp_path / "again.json", earlier=[tmp_path / "observations.json"])
    again, _ = _synthesize(DETOUR, COSTLY, observations=replay)
    assert again.history[3][-1].content == prompt and replay.measured == 0


def test_problems_of_one_pddl_name_are_told_apart_by_their_file(tmp_path: Path) -> None:
    """An IPC learning-track folder repeats PDDL names across levels: the table names each
    problem by its key (as the run names it), and the worst one's task is that file's."""
    text = (COSTS / "p01.pddl").read_text()
    # easy: the direct road is the cheapest (the program's plan is optimal), and a road to d
    short = text.replace("(= (road-length a c) 10) (= (road-length c a) 10)", "(= (road-length a c) 3)")
    short = short.replace("(:objects a b c", "(:objects a b c d").replace(
        "(road a b)", "(road c d) (road a b)"
    )
    assert short.count("(road c d)") == 1 and "(road-length a c) 3" in short
    for level, content in (("easy", short), ("hard", text)):
        (tmp_path / level).mkdir()
        (tmp_path / level / "p01.pddl").write_text(content)
    training = [
        load_problem(tmp_path / level / "p01.pddl", COSTS / "domain.pddl") for level in ("easy", "hard")
    ]
    assert training[0].name == training[1].name == "haulage-costs-01"
    names = names_by_key(training, training, tmp_path)
    model = FakeLanguageModel(
        ["A haulage domain.", "Load, drive, then unload.", fenced(COSTLY), fenced(CHEAP)]
    )
    result = synthesize(
        model,
        training[0].domain.to_pddl(),
        training,
        SynthesisSettings(quality_feedback=True, feedback_rounds=1),
        limits=Limits(),
        observations=Observations(),
        names=names,
    )
    prompt = model.history[3][-1].content
    assert "easy/p01.pddl | 5 | 5\nhard/p01.pddl | 12 | 7\n" in prompt
    assert "haulage-costs-01 |" not in prompt
    assert "The worst is hard/p01.pddl (cost 12, optimal 7)" in prompt
    assert "(road c d)" not in prompt  # the task shown is hard/p01.pddl's, not easy's
    first = result.rounds[0]
    assert first.failed_problem == "hard/p01.pddl"
    assert [row["problem"] for row in first.quality["costs"]] == ["easy/p01.pddl", "hard/p01.pddl"]


def test_below_the_threshold_no_feedback_is_sent() -> None:
    model, result = _synthesize(CHEAP)
    assert len(model.history) == 3 and result.rounds[0].quality["mean_ratio"] == 1.0
    assert SynthesisSettings(quality_feedback=True).label == "quality"
    assert (
        SynthesisSettings(quality_feedback=True, quality_threshold=1.2).label
        == "quality+quality-threshold-1.2"
    )


def _slow_cheap_program() -> str:
    """The optimal plan, after work that grows as the fourth power of the number of objects."""
    return (
        "def get_plan(objects, init, goal):\n"
        "    total = 0\n"
        "    for _ in range(len(objects) ** 4):\n"
        "        total += 1\n"
        f"    return {THROUGH_B!r}\n"
    )


def test_a_cheaper_revision_projected_past_the_time_limit_is_not_kept(tmp_path: Path) -> None:
    """Issue 36: a revision whose plans are cheaper but whose time at the largest evaluation
    size would pass the time limit is not kept, with or without --scaling-feedback."""
    text = (COSTS / "p01.pddl").read_text()
    training = []
    for extra in (4, 9):  # the same task with unused locations: 10 and 15 objects
        names = " ".join(f"x{i}" for i in range(extra))
        path = tmp_path / f"p{extra}.pddl"
        path.write_text(text.replace("(:objects a b c", f"(:objects a b c {names}"))
        training.append(load_problem(path, COSTS / "domain.pddl"))
    target = ScalingTarget(ProblemSize(objects=2000, init_atoms=4000), budget_seconds=30.0)
    model = FakeLanguageModel(
        ["A transport domain.", "Drive, then drop.", fenced(COSTLY), fenced(_slow_cheap_program())]
    )
    result = synthesize(
        model,
        training[0].domain.to_pddl(),
        training,
        SETTINGS,
        limits=Limits(),
        observations=Observations(),
        scaling_target=target,
    )
    first, second = result.rounds
    assert first.failure is FailureKind.PLAN_QUALITY
    assert second.quality["total_cost"] < first.quality["total_cost"]  # cheaper ...
    assert second.quality["kept"] is False  # ... but not kept
    assert second.quality["reason"].startswith("too slow: projected ")
    assert (
        "at the largest evaluation size (2000 objects, 4000 initial atoms), over the time limit of 30 s"
        in (second.quality["reason"])
    )
    assert second.quality["scaling"]["projected_seconds"] > 30
    assert result.program.rstrip().endswith(repr(DIRECT)) and "answer 2" not in result.program
    assert len(model.history) == 4 and result.solved_training
