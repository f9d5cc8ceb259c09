"""Tree of Interaction and SymPlanner with the scripted fake model: proposals, ratings, pruning,
Iterative Correction, Contrastive Ranking."""

from __future__ import annotations

from pathlib import Path

from blocks import OPTIMAL, problem_set
from planner_helpers import last_user, option_holding, run

from genplan.llm import FakeLanguageModel, Message


def _actions(*actions: str) -> str:
    return "Think: -\nActions: " + ", ".join(actions)


def _rating(value: str) -> str:
    return f"Think: -\nRating: {value}"


def test_toi_bfs_keeps_the_best_rated_states_and_asks_again_after_a_bad_proposal(tmp_path: Path) -> None:
    model = FakeLanguageModel(
        [
            # iteration 1: S0 (a on b, c alone); the first proposal names an invalid action
            _actions("(pick-up b)", "(pick-up c)"),
            _actions("(unstack a b)", "(pick-up c)"),
            _rating("sure"),  # holding a
            _rating("impossible"),  # holding c
            _rating("maybe"),  # S0
            # iteration 2: beam = [holding a, S0]
            _actions("(put-down a)", "(stack a c)"),
            _actions("(unstack a b)", "(pick-up c)"),  # S0 again: nothing new
            _rating("sure"),  # a on the table
            _rating("maybe"),  # a on c
            # iteration 3: beam = [a on the table, holding a]
            _actions("(pick-up b)", "(pick-up c)"),
            _actions("(put-down a)", "(stack a c)"),
            _rating("sure"),  # holding b
            _rating("impossible"),  # holding c
            # iteration 4: beam = [holding b, a on the table]
            _actions("(stack b c)", "(put-down b)"),
        ]
    )
    record = run("toi-bfs", model, tmp_path, problem_set())
    result = record.problems[0]
    assert result.status == "solved" and result.details["plan"] == OPTIMAL
    assert (
        "Error Feedback: the actions you proposed included ones that are not valid actions: (pick-up b)"
        in (last_user(model, 1))
    )
    assert "Valid Actions: (pick-up c), (unstack a b)" in last_user(model, 0)
    assert "Number of Actions: 2" in last_user(model, 0)
    # a state expanded again gets an independent sample of its proposal prompt
    assert model.samples[6] == 1 and model.history[6] == model.history[0]
    assert result.llm_calls == 14 and record.feedback == {"answer-format": 1}
    assert result.world_model_queries == 7 and result.details["queries_reused"] == 4


def test_toi_dfs_never_expands_a_state_rated_impossible(tmp_path: Path) -> None:
    model = FakeLanguageModel(
        [
            _actions("(unstack a b)", "(pick-up c)"),
            _rating("impossible"),  # holding a: pruned
            _rating("maybe"),  # holding c
            _actions("(put-down c)", "(stack c a)"),  # (put-down c) leads back to S0: not added
            _rating("impossible"),  # c on a: pruned
        ]
    )
    record = run("toi-dfs", model, tmp_path, problem_set())
    result = record.problems[0]
    assert result.status == "no-plan" and result.llm_calls == 5
    proposal_states = [last_user(model, i).split("Current State: ")[1].splitlines()[0] for i in (0, 3)]
    assert proposal_states == [
        "(clear a) (clear c) (handempty) (on a b) (ontable b) (ontable c)",
        "(clear a) (holding c) (on a b) (ontable b)",
    ]
    assert "Rating: <sure/maybe/impossible>" in last_user(model, 1)


def test_toi_dfs_keeps_going_down_the_best_branch(tmp_path: Path) -> None:
    model = FakeLanguageModel(
        [
            _actions("(unstack a b)", "(pick-up c)"),
            _rating("sure"),
            _rating("maybe"),
            _actions("(put-down a)", "(stack a c)"),
            _rating("sure"),
            "no rating here",  # asked again with Error Feedback
            _rating("maybe"),
            _actions("(pick-up b)", "(pick-up c)"),
            _rating("sure"),
            _rating("maybe"),
            _actions("(stack b c)", "(put-down b)"),
        ]
    )
    record = run("toi-dfs", model, tmp_path, problem_set())
    assert record.problems[0].status == "solved" and record.problems[0].details["plan"] == OPTIMAL
    assert "Error Feedback: your answer has no 'Rating:' line" in last_user(model, 6)


def _next(number: int, action: str) -> str:
    return f'"Action {number}": "{action}"'


def test_symplanner_repairs_an_invalid_action_with_iterative_correction(tmp_path: Path) -> None:
    model = FakeLanguageModel(
        [_next(1, "(pick-up b)"), _next(1, "(unstack a b)")]
        + [_next(i, a) for i, a in enumerate(OPTIMAL[1:], 2)]
    )
    record = run("symplanner", model, tmp_path, problem_set(), rollouts=1, beam_width=1)
    result = record.problems[0]
    assert result.status == "solved" and result.details["plan"] == OPTIMAL
    correction = last_user(model, 1)
    assert "Now I need to correct previous invalid actions." in correction
    assert (
        '"Action 1": "(pick-up b)" (error: (pick-up b) is not applicable: (clear b) is false)' in correction
    )
    assert '"Action 2": "(put-down a)"' not in correction
    assert (
        '"Action 1": "(unstack a b)"\n"State 1": "(clear b) (clear c) (holding a) (ontable b) (ontable c)"'
        in (last_user(model, 2))
    )
    assert result.llm_calls == 5 and record.feedback == {"precondition": 1}


def test_symplanner_prunes_a_branch_iterative_correction_cannot_repair(tmp_path: Path) -> None:
    model = FakeLanguageModel([_next(1, "(pick-up b)"), _next(1, "(pick-up a)"), _next(1, "(stack a c)")])
    record = run("symplanner", model, tmp_path, problem_set(), rollouts=1, beam_width=1, corrections=2)
    result = record.problems[0]
    assert result.status == "no-plan" and "pruned at step 1" in (result.message or "")
    assert result.llm_calls == 3 and record.feedback == {"precondition": 3}
    without = FakeLanguageModel([_next(1, "(pick-up b)")])
    record = run(
        "symplanner",
        without,
        tmp_path / "no-ic",
        problem_set(),
        rollouts=1,
        beam_width=1,
        iterative_correction=False,
    )
    assert record.problems[0].status == "no-plan" and record.problems[0].llm_calls == 1


def test_symplanner_ranks_candidates_by_contrastive_comparison(tmp_path: Path) -> None:
    model = FakeLanguageModel(
        [
            _next(1, "(pick-up c)"),
            _next(1, "(unstack a b)"),
            _next(1, "(pick-up c)"),  # the same as the first: one option
            option_holding("(unstack a b)"),
        ]
        + [_next(i, a) for i, a in enumerate(OPTIMAL[1:], 2)]
    )
    record = run("symplanner", model, tmp_path, problem_set(), rollouts=3, beam_width=1)
    result = record.problems[0]
    assert result.status == "solved" and result.details["plan"] == OPTIMAL
    assert model.samples[:3] == [0, 1, 2] and model.history[0] == model.history[1]
    comparison = last_user(model, 3)
    assert (
        '"Actions": "(pick-up c)", "Future state": "(clear a) (holding c) (on a b) (ontable b)"' in comparison
    )
    assert '"Conclusion": the one most effective option: "Option 1" or "Option 2"' in comparison
    assert result.llm_calls == 7


def test_symplanner_without_contrastive_ranking_rates_each_candidate(tmp_path: Path) -> None:
    def rate(messages: list[Message]) -> str:
        return '"Rating": 9' if '"Partial plan": "(unstack a b)"' in messages[-1].content else '"Rating": 2'

    model = FakeLanguageModel(
        [_next(1, "(pick-up c)"), _next(1, "(unstack a b)"), rate, rate]
        + [_next(i, a) for i, a in enumerate(OPTIMAL[1:], 2)]
    )
    record = run(
        "symplanner", model, tmp_path, problem_set(), rollouts=2, beam_width=1, contrastive_ranking=False
    )
    assert record.problems[0].details["plan"] == OPTIMAL
    assert "score from 1 to 10" in last_user(model, 2)


def test_symplanner_diverse_generation_lists_the_earlier_candidates(tmp_path: Path) -> None:
    model = FakeLanguageModel(
        [_next(1, "(pick-up c)"), _next(1, "(unstack a b)"), option_holding("(unstack a b)")]
        + [_next(i, a) for i, a in enumerate(OPTIMAL[1:], 2)]
    )
    record = run(
        "symplanner", model, tmp_path, problem_set(), rollouts=2, beam_width=1, diverse_generation=True
    )
    assert record.problems[0].status == "solved"
    assert '"Previous generations": {"Action 1": "(pick-up c)"}' in last_user(model, 1)
    assert "Previous generations" not in last_user(model, 0)


def test_symplanner_chooses_among_completed_plans_by_contrastive_ranking(tmp_path: Path) -> None:
    detour = ["(pick-up c)", "(put-down c)"]  # back to the start, then the optimal plan: a longer valid plan
    model = FakeLanguageModel(
        [_next(1, OPTIMAL[0]), _next(1, detour[0])]  # two branches (beam 2)
        + [_next(2, OPTIMAL[1]), _next(2, detour[1])]
        + [_next(3, OPTIMAL[2]), _next(3, OPTIMAL[0])]
        + [_next(4, OPTIMAL[3]), _next(4, OPTIMAL[1])]  # the optimal branch is done: beam 1
        + [_next(i, a) for i, a in enumerate(OPTIMAL[2:], 5)]
        + [option_holding(", ".join(OPTIMAL), exact=True)]
    )
    record = run("symplanner", model, tmp_path, problem_set(), rollouts=2, beam_width=2)
    result = record.problems[0]
    assert result.details["completed_plans"] == 2
    final = last_user(model, len(model.history) - 1)
    assert final.count('\n"Option ') == 2 and result.details["plan"] == OPTIMAL
