"""PG3, PE and PC: lifted decision lists, policy-guided planning, the three scores, the search."""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path

import pytest

from genplan.approaches import get_approach
from genplan.approaches.base import RunContext
from genplan.approaches.pg3.budget import Budget
from genplan.approaches.pg3.execution import Stop, execute_policy
from genplan.approaches.pg3.heuristic import AdditiveHeuristic
from genplan.approaches.pg3.learning import learn_policy
from genplan.approaches.pg3.matching import PolicyMatcher, policy_change, same_action
from genplan.approaches.pg3.planning import ProblemSearch, policy_guided_plan
from genplan.approaches.pg3.policy import DecisionList, parse_policy, policy_to_text
from genplan.approaches.pg3.scores import PCScore, PEScore, PG3Score
from genplan.approaches.pg3.search import PolicySuccessors, search_policy
from genplan.approaches.pg3.settings import PolicySearchSettings
from genplan.errors import ConfigurationError
from genplan.llm import FakeLanguageModel
from genplan.pddl.domain import Domain
from genplan.pddl.problem import Problem, parse_problem_text
from genplan.pddl.problem_sets import DomainProblems, load_domain_problems
from genplan.plans.joins import JoinTimeout
from genplan.plans.validate import check_plan

GRIPPER_POLICY = """
(:rule drop
  :parameters (?obj ?room ?gripper)
  :conditions (and (ball ?obj) (room ?room) (gripper ?gripper) (carry ?obj ?gripper) (at-robby ?room)
                   (goal (at ?obj ?room)))
  :action (drop ?obj ?room ?gripper))
(:rule pick
  :parameters (?obj ?room ?gripper ?to)
  :conditions (and (ball ?obj) (room ?room) (gripper ?gripper) (at ?obj ?room) (at-robby ?room) (free ?gripper)
                   (goal (at ?obj ?to)) (not (goal (at ?obj ?room))))
  :action (pick ?obj ?room ?gripper))
(:rule move-to-goal
  :parameters (?from ?to ?obj ?gripper)
  :conditions (and (room ?from) (room ?to) (at-robby ?from) (carry ?obj ?gripper) (goal (at ?obj ?to)))
  :action (move ?from ?to))
(:rule move-to-ball
  :parameters (?from ?to ?obj ?goal)
  :conditions (and (room ?from) (room ?to) (at-robby ?from) (at ?obj ?to) (goal (at ?obj ?goal))
                   (not (goal (at ?obj ?to))))
  :action (move ?from ?to))
"""


@pytest.fixture(scope="module")
def gripper(tmp_path_factory: pytest.TempPathFactory) -> DomainProblems:
    return load_domain_problems("gripper", 0, 3, tmp_path_factory.mktemp("problems"))


@pytest.fixture(scope="module")
def policy(gripper: DomainProblems) -> DecisionList:
    return parse_policy(GRIPPER_POLICY, gripper.domain, "test")


def training(problems: DomainProblems) -> list:
    return list(problems.training[:-1] if problems.size_check else problems.training)


def test_hand_written_decision_list_executes_to_a_valid_plan(
    gripper: DomainProblems, policy: DecisionList
) -> None:
    for problem in [*training(gripper)[:3], *gripper.evaluation]:
        execution = execute_policy(policy, problem, 10_000)
        assert execution.stop is Stop.GOAL
        assert check_plan(problem, execution.plan).valid


def test_a_broken_decision_list_stops_and_its_plan_is_not_valid(
    gripper: DomainProblems, policy: DecisionList
) -> None:
    broken = DecisionList(policy.rules[:2])  # never moves
    problem = training(gripper)[0]
    execution = execute_policy(broken, problem, 10_000)
    assert execution.stop is Stop.NO_ACTION
    assert not check_plan(problem, execution.plan).valid


class SlowMatcher(PolicyMatcher):
    """A matcher whose every match outlasts the deadline, as one rule over a huge problem does."""

    def action(self, policy: DecisionList, state: frozenset) -> None:
        assert self.deadline is not None  # execution hands its deadline to the match
        raise JoinTimeout("the join outlasted its deadline")


def test_execution_stops_at_its_deadline_inside_a_long_match(
    gripper: DomainProblems, policy: DecisionList
) -> None:
    problem = training(gripper)[0]
    matcher = SlowMatcher(problem)
    execution = execute_policy(policy, problem, 1000, matcher=matcher, deadline=time.perf_counter() + 3600)
    assert execution.stop is Stop.TIMEOUT and matcher.deadline is None


def test_matching_past_its_deadline_raises(gripper: DomainProblems, policy: DecisionList) -> None:
    problem = training(gripper)[0]
    matcher = PolicyMatcher(problem)
    matcher.deadline = time.perf_counter() - 1.0
    with pytest.raises(JoinTimeout):
        matcher.action(policy, problem.init)
    matcher.deadline = None
    assert matcher.action(policy, problem.init) is not None  # nothing half-done was remembered


def test_text_form_round_trips(gripper: DomainProblems, policy: DecisionList) -> None:
    assert parse_policy(policy_to_text(policy, "gripper"), gripper.domain) == policy
    assert len(policy.rules) == 4


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "(:rule r :parameters (?x) :conditions (and (flying ?x)) :action (move ?x ?x))",
            "unknown predicate",
        ),
        ("(:rule r :parameters (?x) :conditions (and (room ?y)) :action (move ?x ?x))", "not a parameter"),
        ("(:rule r :parameters (?x) :conditions (and (room ?x)) :action (fly ?x))", "unknown operator"),
        ("(:rule r :parameters (?x) :conditions (and (room ?x)) :action (move ?x))", "wrong number"),
        ("(:rule r :parameters (?x) :conditions (and (room ?x))", "never closed"),
    ],
)
def test_bad_policy_text_is_refused_with_the_reason(gripper: DomainProblems, text: str, words: str) -> None:
    with pytest.raises(ConfigurationError, match=words):
        parse_policy(text, gripper.domain, "p.txt")


def test_policy_guided_planning_follows_a_known_policy(gripper: DomainProblems, policy: DecisionList) -> None:
    problem = training(gripper)[2]
    search = ProblemSearch(problem, AdditiveHeuristic(problem))
    plan = policy_guided_plan(policy, search)
    assert plan is not None and all(plan.from_policy)
    assert plan.actions == execute_policy(policy, problem, 1000).actions
    unguided = policy_guided_plan(DecisionList(), search)
    assert unguided is not None and not any(unguided.from_policy)
    assert check_plan(problem, ["(" + " ".join(a) + ")" for a in unguided.actions]).valid


def test_each_score_ranks_the_correct_policy_above_a_broken_one(
    gripper: DomainProblems, policy: DecisionList
) -> None:
    problems = training(gripper)[:4]
    searches = [ProblemSearch(p, AdditiveHeuristic(p)) for p in problems]
    broken = DecisionList(policy.rules[:3])  # never walks to a ball
    pg3 = PG3Score(searches, rollout_steps=50, max_expansions=2000, unsolved_cost=1000.0)
    pe = PEScore(problems, max_steps=1000)
    plans = [policy_guided_plan(DecisionList(), s) for s in searches]
    pc = PCScore(problems, [p.actions if p else None for p in plans])
    for score in (pg3, pe, pc):
        assert score(policy) < score(broken), type(score).__name__
    assert pg3(policy) == 0 and pe(policy) == 0
    assert pg3(broken) < pg3(DecisionList())  # the dense score sees the partial policy's progress


def two_room_gripper(domain: Domain, balls: int) -> Problem:
    """The classic gripper problem: every ball from rooma to roomb."""
    names = " ".join(f"ball{i}" for i in range(balls))
    init = " ".join(f"(ball ball{i}) (at ball{i} rooma)" for i in range(balls))
    goal = " ".join(f"(at ball{i} roomb)" for i in range(balls))
    text = f"""(define (problem g{balls}) (:domain gripper-strips)
      (:objects rooma roomb left right {names})
      (:init (room rooma) (room roomb) (gripper left) (gripper right) (free left) (free right)
             (at-robby rooma) {init})
      (:goal (and {goal})))"""
    return parse_problem_text(text, domain)


def test_the_top_down_search_finds_a_correct_policy_for_two_room_gripper(gripper: DomainProblems) -> None:
    training = [two_room_gripper(gripper.domain, n) for n in (2, 3, 4)]
    settings = PolicySearchSettings(max_policies=1000, max_seconds=300.0, bottom_up=False)
    learned = learn_policy("pg3", training, settings)
    assert learned.result.stop == "solved", policy_to_text(learned.result.policy)
    for balls in (7, 12):
        problem = two_room_gripper(gripper.domain, balls)
        execution = execute_policy(learned.result.policy, problem, 10_000)
        assert execution.reached_goal and check_plan(problem, execution.plan).valid


class RecordingScore:
    """A score that remembers every candidate it scored and the value, in order."""

    def __init__(self, score: PG3Score):
        self.score = score
        self.seen: list[tuple[object, float]] = []

    def __call__(self, policy: DecisionList, parent: DecisionList | None = None) -> float:
        value = self.score(policy, parent)
        self.seen.append((policy.identity, value))
        return value


def test_pg3_score_reusing_a_parents_trace_gives_the_plain_scores(gripper: DomainProblems) -> None:
    problems = [two_room_gripper(gripper.domain, n) for n in (2, 3)] + training(gripper)[:2]
    goals = {a[0] for p in problems for a in p.goal}
    runs = []
    for reuse in (True, False):
        searches = [ProblemSearch(p, AdditiveHeuristic(p)) for p in problems]
        score = PG3Score(searches, rollout_steps=50, max_expansions=2000, unsolved_cost=1000.0, reuse=reuse)
        recording = RecordingScore(score)
        result = search_policy(
            recording, PolicySuccessors(gripper.domain, goals), [], max_policies=150, budget=Budget(600.0)
        )
        runs.append((recording.seen, result.policy.identity, result.score, score.reused))
    (fast, fast_policy, fast_score, reused), (plain, plain_policy, plain_score, _) = runs
    assert fast == plain and fast_policy == plain_policy and fast_score == plain_score
    assert reused > 0  # the fast path ran


def test_a_child_said_to_score_as_its_parent_does(gripper: DomainProblems, policy: DecisionList) -> None:
    problems = training(gripper)[:3]
    parent = DecisionList(policy.rules[:3])  # never walks to a ball
    fast = PG3Score(
        [ProblemSearch(p, AdditiveHeuristic(p)) for p in problems],
        rollout_steps=50,
        max_expansions=2000,
        unsolved_cost=1000.0,
    )
    plain = PG3Score(
        [ProblemSearch(p, AdditiveHeuristic(p)) for p in problems],
        rollout_steps=50,
        max_expansions=2000,
        unsolved_cost=1000.0,
        reuse=False,
    )
    fast(parent)
    goals = {a[0] for p in problems for a in p.goal}
    verdicts = []
    for child in itertools.islice(PolicySuccessors(gripper.domain, goals)(parent), 60):
        same = fast.same_as_parent(child, parent)
        verdicts.append(same)
        if same:
            assert plain(child) == plain(parent), policy_to_text(child)
    assert any(verdicts) and not all(verdicts)


def test_same_action_through_the_change_agrees_with_matching_in_full(
    gripper: DomainProblems, policy: DecisionList
) -> None:
    problem = training(gripper)[0]
    plan = policy_guided_plan(DecisionList(), ProblemSearch(problem, AdditiveHeuristic(problem)))
    assert plan is not None
    goals = {a[0] for a in problem.goal}
    kinds = set()
    for parent in (DecisionList(policy.rules[:2]), DecisionList(policy.rules[1:])):
        for child in itertools.islice(PolicySuccessors(gripper.domain, goals)(parent), 0, None, 7):
            change = policy_change(child, parent)
            kinds.add(change[0] if change else None)
            for state in plan.states:
                full = PolicyMatcher(problem)  # nothing remembered: matched in full
                expected = full.action(child, state) == full.action(parent, state)
                matcher = PolicyMatcher(problem)
                parent_action = matcher.action(parent, state)
                assert same_action(matcher, child, parent, change, state, parent_action) == expected
    assert kinds == {"refine", "insert"}


def test_holding_back_children_that_score_as_their_parent_spends_fewer_candidates(
    gripper: DomainProblems,
) -> None:
    problems = [two_room_gripper(gripper.domain, n) for n in (2, 3, 4)]
    goals = {a[0] for p in problems for a in p.goal}
    results = []
    for hold_back in (True, False):
        searches = [ProblemSearch(p, AdditiveHeuristic(p)) for p in problems]
        semantic = []  # as learn_policy: the states of the empty policy's plans
        for search in searches:
            plan = policy_guided_plan(DecisionList(), search)
            assert plan is not None
            semantic.extend((search.matcher, state) for state in plan.states)
        score = PG3Score(searches, rollout_steps=50, max_expansions=2000, unsolved_cost=1000.0)
        results.append(
            search_policy(
                score,
                PolicySuccessors(gripper.domain, goals),
                semantic,
                max_policies=1000,
                budget=Budget(600.0),
                same_as_parent=score.same_as_parent if hold_back else None,
            )
        )
    held, plain = results
    assert held.stop == plain.stop == "solved"
    assert held.scored < plain.scored, (held.scored, plain.scored)


def test_pe_approach_records_no_model_use_and_saves_a_replayable_policy(
    gripper: DomainProblems, tmp_path: Path
) -> None:
    approach = get_approach("pe")
    settings = PolicySearchSettings(max_policies=20)
    record = approach.run(
        gripper, FakeLanguageModel(), settings, RunContext(folder=tmp_path / "run", eval_timeout=30.0)
    )
    assert record.llm_calls == 0 and record.prompt_tokens == 0 and record.completion_tokens == 0
    assert record.details["policies_scored"] <= 20
    assert len(record.problems) == len(gripper.evaluation)
    saved = (tmp_path / "run" / "policy.txt").read_text()
    assert len(parse_policy(saved, gripper.domain).rules) == record.details["rules"]
    metadata = json.loads((tmp_path / "run" / "metadata.json").read_text())
    assert metadata["approach"] == "pe" and "policy.txt" in metadata["artifacts"]
    # the shared books (issue 33 item 7): no conversation listed where none was recorded, every
    # valid plan saved with its cost, every plan's checker named
    assert "conversation.jsonl" not in metadata["artifacts"]
    assert all((tmp_path / "run" / name).is_file() for name in metadata["artifacts"])
    for result in record.problems:
        if result.solved:
            assert result.plan_cost == result.plan_length and result.checked_by == "val"
            saved = tmp_path / "run" / "plans" / result.problem.replace(".pddl", ".plan")
            assert len(saved.read_text().splitlines()) == result.plan_length + 1


def test_table1_has_pg3_pe_and_pc_columns(tmp_path: Path) -> None:
    from genplan.experiments.reports import make_reports

    runs = [
        {
            "domain": "gripper",
            "approach": name,
            "label": name,
            "fraction_solved": value,
            "problem_set": "generated",
        }
        for name, value in (("pg3", 1.0), ("pe", 0.0), ("pc", 0.5))
    ]
    (tmp_path / "runs.jsonl").write_text("".join(json.dumps(run) + "\n" for run in runs))
    make_reports(tmp_path, tmp_path / "out")
    table = (tmp_path / "out" / "table1.md").read_text()
    assert "| domain | pg3 | pe | pc |" in table
    assert "| gripper | 1.00 | 0.00 | 0.50 |" in table
    assert not (tmp_path / "out" / "table2.md").exists()  # no generalized-plan runs, no feedback table


def test_evaluate_replays_a_saved_policy(tmp_path: Path) -> None:
    from genplan.cli import main

    policy_file = tmp_path / "policy.txt"
    policy_file.write_text(GRIPPER_POLICY)
    report = tmp_path / "report.json"
    code = main(
        [
            "evaluate",
            "--policy",
            str(policy_file),
            "--domain",
            "gripper",
            "--n",
            "3",
            "--work-dir",
            str(tmp_path / "w"),
            "--json",
            str(report),
        ]
    )
    assert code == 0
    data = json.loads(report.read_text())
    rows = data["problems"]
    assert len(rows) == 3 and all(row["status"] == "solved" for row in rows)
    assert data["summary"]["checked_by"] == {"val": 3} and data["summary"]["median_seconds"] > 0
    assert data["scores"]["agile"]["all"] == 3.0 and data["scores"]["quality"] is None


def test_evaluate_a_policy_reports_runtime_scores_and_saves_plans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 33 item 7: ``evaluate --policy`` printed no runtime and no scores, and ignored
    ``--plans``, ``--workers`` and ``--references``."""
    from genplan.cli import main

    policy_file = tmp_path / "policy.txt"
    policy_file.write_text(GRIPPER_POLICY)
    arguments = ["evaluate", "--policy", str(policy_file), "--domain", "gripper", "--n", "2"]
    arguments += ["--runs-dir", str(tmp_path / "w"), "--workers", "2", "--plans", str(tmp_path / "plans")]
    keys = ["eval/eval-00.pddl", "eval/eval-01.pddl"]
    references = tmp_path / "references.json"
    references.write_text(json.dumps({keys[0]: 1, keys[1]: None}))
    assert main([*arguments, "--references", str(references)]) == 0
    shown = capsys.readouterr().out
    assert "median runtime" in shown and "checked by VAL 2" in shown
    assert "references found 1/2 (1 without one not scored for quality)" in shown
    assert sorted(p.name for p in (tmp_path / "plans" / "eval").iterdir()) == ["eval-00.plan", "eval-01.plan"]


def test_genplan_run_pg3_needs_no_model_and_keeps_the_shared_books(tmp_path: Path) -> None:
    """``genplan run --approach pg3`` with no model set up: the run session writes the record
    (model and backend ``none``, the run's identity, the label from the settings), and a
    rerun with other settings gets a folder of its own."""
    from genplan.cli import main

    base = ["run", "--approach", "pg3", "--domain", "gripper", "--n", "2", "--runs-dir", str(tmp_path)]
    assert main([*base, "--max-policies", "3"]) == 0
    folder = tmp_path / "gripper" / "pg3+max-policies-3-seed0"
    metadata = json.loads((folder / "metadata.json").read_text())
    assert (metadata["model"], metadata["backend"], metadata["llm_calls"]) == ("none", "none", 0)
    assert metadata["label"] == "pg3+max-policies-3" and metadata["isolation"] is None
    assert {"policy.txt", "identity.json", "metadata.json"} <= set(metadata["artifacts"])
    assert len(json.loads((folder / "results.json").read_text())) == 2
    assert main([*base, "--max-policies", "3", "--max-seconds", "60"]) == 0
    assert (tmp_path / "gripper" / "pg3+max-policies-3+max-seconds-60-seed0" / "policy.txt").is_file()
