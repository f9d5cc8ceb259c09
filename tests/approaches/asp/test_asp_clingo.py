"""clingo behind genplan's policy and isolation: plans read back in PDDL, messages located in
the encoding, limits that hold. clingo runs for real."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracles.asp_encodings import DOMAINS, oracle_encoding

from genplan.approaches.asp.interface import AspNames, action_text, problem_facts
from genplan.approaches.asp.solver import Clingo, ClingoStatus
from genplan.pddl.problem_sets import load_domain_problems
from genplan.plans.validate import check_plan

CLINGO = Clingo()
TOGGLE = "#program step(t).\n{ occurs(flip,t) }.\nholds(on,t) :- occurs(flip,t).\n"


@pytest.mark.parametrize("domain", DOMAINS)
def test_oracle_encoding_plans_a_training_problem_that_val_accepts(domain: str, tmp_path: Path) -> None:
    problems = load_domain_problems(domain, 0, 1, tmp_path)
    problem = problems.training[0]
    names = AspNames.for_problems(problems.domain, [problem])
    result = CLINGO.plan(
        oracle_encoding(domain), problem_facts(problem, names), max_horizon=60, time_limit=60
    )
    assert result.status is ClingoStatus.SAT, result.messages
    plan = [action_text(names.pddl_atom(a.flat)) for a in result.actions if a.flat is not None]
    assert len(plan) == len(result.actions) > 0
    assert check_plan(problem, plan).valid


def test_the_first_plan_has_the_fewest_steps() -> None:
    encoding = TOGGLE + "holds(F,t) :- occurs(step(F),t), holds(ready(F),t-1).\n{ occurs(step(on2),t) }.\n"
    result = CLINGO.plan(encoding, "init(ready(on2)).\ngoal(on).\ngoal(on2).\n", max_horizon=5, time_limit=10)
    assert result.status is ClingoStatus.SAT
    assert result.horizon == 2 and len(result.actions) == 2


def test_no_plan_up_to_the_horizon_is_unsat() -> None:
    result = CLINGO.plan(TOGGLE, "goal(off).\n", max_horizon=4, time_limit=10)
    assert result.status is ClingoStatus.UNSAT
    assert result.horizon == 4


def test_a_parallel_encoding_may_take_several_actions_in_one_step() -> None:
    encoding = (
        "parallel.\n#program step(t).\n{ occurs(set(X),t) : X=1..3 }.\nholds(X,t) :- occurs(set(X),t).\n"
    )
    facts = "goal(1). goal(2). goal(3).\n"
    assert CLINGO.plan(encoding, facts, max_horizon=5, time_limit=10).horizon == 1
    assert CLINGO.plan(encoding.replace("parallel.\n", ""), facts, max_horizon=5, time_limit=10).horizon == 3


def test_inertia_keeps_what_is_not_deleted_and_an_added_atom_wins_over_its_deletion() -> None:
    encoding = (
        "#program step(t).\n{ occurs(touch,t) }.\n"
        "deleted(a,t) :- occurs(touch,t).\nholds(a,t) :- occurs(touch,t).\ndeleted(b,t) :- occurs(touch,t).\n"
    )
    result = CLINGO.query(
        encoding, "init(a). init(b). init(c).\n", ":- not occurs(touch,1).\n", horizon=1, time_limit=10
    )
    assert result.status is ClingoStatus.SAT
    assert result.trace[1].holds == ("a", "c")


def test_a_syntax_error_is_located_in_the_encoding() -> None:
    result = CLINGO.plan("a.\nb :- c(.\n", "", max_horizon=1, time_limit=10)
    assert result.status is ClingoStatus.ERROR
    assert result.messages and result.messages[0].startswith("encoding:2:")


def test_unsafe_variables_are_reported_with_the_rule() -> None:
    result = CLINGO.plan("#program step(t).\nholds(X,t) :- not init(X).\n", "", max_horizon=1, time_limit=10)
    assert result.status is ClingoStatus.ERROR
    assert "unsafe" in result.messages[0] and result.messages[0].startswith("encoding:2:")
    assert "#inc" not in result.messages[0]


def test_a_query_error_is_located_in_the_query() -> None:
    result = CLINGO.query(TOGGLE, "", ":- occurs(flip,1)\n", horizon=1, time_limit=10)
    assert result.status is ClingoStatus.ERROR
    assert result.messages[0].startswith("query:")


def test_the_time_limit_holds_while_grounding() -> None:
    bomb = "p(X,Y,Z) :- X=1..2000, Y=1..2000, Z=1..2000.\n"
    result = CLINGO.plan(bomb, "", max_horizon=1, time_limit=1.0)
    assert result.status is ClingoStatus.TIMEOUT
    assert result.wall_seconds < 10


@pytest.mark.slow
def test_the_memory_limit_holds_while_grounding() -> None:
    bomb = "p(X,Y,Z) :- X=1..2000, Y=1..2000, Z=1..2000.\n"
    result = Clingo(memory_bytes=300 * 1024**2).plan(bomb, "", max_horizon=1, time_limit=60)
    assert result.status is ClingoStatus.CRASHED
    assert "memory" in result.messages[0]


@pytest.mark.parametrize("character", ["\u0131", "\u017f", "\u00e9"], ids=["dotless i", "long s", "e acute"])
def test_a_non_ascii_character_is_a_syntax_error_the_model_is_told(character: str) -> None:
    encoding = f"% a comment with {character} in it\n" + TOGGLE
    result = CLINGO.plan(encoding, "goal(on).\n", max_horizon=2, time_limit=10)
    assert result.status is ClingoStatus.ERROR, result
    assert result.messages[0].startswith("encoding:1:") and "not ASCII" in result.messages[0]
