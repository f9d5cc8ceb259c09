"""Self-revision with the scripted fake model: every feedback path, and each can fail.

clingo runs for real. Each test scripts the model's answers, runs the approach, and checks what
the model was told (the prompt it saw) and what the record counts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from asp_fixtures import (
    ENCODING,
    FAST,
    KNOWLEDGE,
    MCP_ENCODING,
    MCP_QUERY,
    MCP_SAFETY,
    NO_QUERIES,
    SIGNATURE,
    TURN_OFF_NEEDS_ON,
    TURN_ON_NEEDS_PLUG,
    UNCHANGED_PDDL,
    UNCHANGED_TEXT,
    lamps_folder,
    revision,
    rules,
)

from genplan.approaches.asp.approach import AspApproach
from genplan.approaches.asp.settings import AspSettings
from genplan.approaches.base import RunContext, RunRecord
from genplan.llm import FakeLanguageModel
from genplan.pddl.problem_sets import load_problems

pytestmark = pytest.mark.slow  # each test runs the approach end to end: clingo, the sandbox, VAL


def run(
    domain: str, answers: list[str], tmp_path: Path, settings: AspSettings = FAST
) -> tuple[RunRecord, FakeLanguageModel]:
    model = FakeLanguageModel(answers)
    problems = load_problems(domain, 0, None, tmp_path)
    context = RunContext(folder=tmp_path / "run", eval_timeout=10.0, workers=1)
    return AspApproach().run(problems, model, settings, context), model


def prompt(model: FakeLanguageModel, index: int) -> str:
    (message,) = model.history[index]
    return message.content


def test_a_correct_program_marked_unchanged_ends_after_one_review(tmp_path: Path) -> None:
    domain = str(lamps_folder(tmp_path))
    record, model = run(domain, [SIGNATURE, KNOWLEDGE, rules(ENCODING), NO_QUERIES, UNCHANGED_PDDL], tmp_path)
    assert record.llm_calls == 5 == len(model.history)
    assert record.feedback == {"review": 1}
    assert record.details["stopped"] == "the model marked every segment [UNCHANGED]"
    assert record.details["final_checks"] == {"passed": True, "failing": []}
    assert record.details["issues_before"] == record.details["issues_after"] == {}
    assert record.statuses == {"solved": 3}
    assert (record.problem_set, record.generators) == ("folder", None)  # a user's PDDL folder
    review = prompt(model, 4)
    assert "- p1: a plan of 2 actions, valid" in review
    assert "passed: the transitions agree" in review
    assert (tmp_path / "run" / "encoding.lp").read_text() == ENCODING


def test_a_syntax_error_goes_back_with_clingo_s_message_and_its_line(tmp_path: Path) -> None:
    broken = ENCODING.replace(
        "holds(on(L),t) :- occurs(turn_on(L),t).", "holds(on(L),t) :- occurs(turn_on(L),t"
    )
    line = broken.splitlines().index("holds(on(L),t) :- occurs(turn_on(L),t") + 1
    domain = str(lamps_folder(tmp_path))
    answers = [SIGNATURE, KNOWLEDGE, rules(broken), rules(ENCODING), NO_QUERIES, UNCHANGED_PDDL]
    record, model = run(domain, answers, tmp_path)
    feedback = prompt(model, 3)
    assert "satisfiability" in feedback.lower() and "syntax error" in feedback
    assert f"encoding:{line + 1}:" in feedback or f"encoding:{line}:" in feedback
    assert record.feedback == {"syntax-error": 1, "review": 1}
    assert record.details["issues_before"] == {"signature-Syn": 1}
    assert record.details["issues_after"] == {}
    assert record.statuses == {"solved": 3}


def test_unsat_without_a_query_is_fed_back(tmp_path: Path) -> None:
    contradiction = (
        ENCODING
        + "#program check(t).\n:- holds(F,t), not holds(F,t+1).\nholds(x,t+1) :- holds(x,t).\n:- t >= 0.\n"
    )
    domain = str(lamps_folder(tmp_path))
    answers = [SIGNATURE, KNOWLEDGE, rules(contradiction), rules(ENCODING), NO_QUERIES, UNCHANGED_PDDL]
    record, model = run(domain, answers, tmp_path)
    assert "UNSATISFIABLE: no initial state and step satisfy the encoding's rules." in prompt(model, 3)
    assert record.feedback == {"unsat-without-query": 1, "review": 1}
    assert record.details["issues_before"].get("rules-H", 0) >= 1
    assert record.details["final_checks"]["passed"]


def test_a_state_constraint_that_only_the_empty_state_breaks_passes_the_satisfiability_check(
    tmp_path: Path,
) -> None:
    # Closed-world ASP would try only the empty state; LLM+AL leaves the initial state free.
    needs_a_lamp = ENCODING + "#program check(t).\nsome(t) :- holds(_,t).\n:- not some(t).\n"
    domain = str(lamps_folder(tmp_path))
    record, model = run(
        domain, [SIGNATURE, KNOWLEDGE, rules(needs_a_lamp), NO_QUERIES, UNCHANGED_PDDL], tmp_path
    )
    assert record.feedback == {"review": 1}
    assert "SATISFIABLE" in prompt(model, 4)


def test_a_sample_query_with_the_wrong_mark_is_fed_back(tmp_path: Path) -> None:
    wrong = (
        "```\n% Query 1: turning on an unplugged lamp (unsatisfiable)\n% horizon: 1\n"
        "init(off(l1)).\n:- not occurs(turn_on(l1),1).\n```\n"
    )
    no_precondition = ENCODING.replace(TURN_ON_NEEDS_PLUG, "")
    domain = str(lamps_folder(tmp_path))
    answers = [SIGNATURE, KNOWLEDGE, rules(no_precondition), wrong, revision(ENCODING), UNCHANGED_PDDL]
    record, model = run(domain, answers, tmp_path, AspSettings(check_timeout=20.0, successor_check=False))
    feedback = prompt(model, 4)
    assert "ACTIONS: turn_on(l1)" in feedback
    assert "(NOT as marked: the query is marked (unsatisfiable))" in feedback
    assert record.feedback["sample-query-mismatch"] == 1
    assert "(as marked)" in prompt(model, 5)
    assert record.details["final_checks"]["passed"]


def test_an_invalid_plan_goes_back_with_val_s_advice(tmp_path: Path) -> None:
    no_precondition = ENCODING.replace(TURN_ON_NEEDS_PLUG, "")
    domain = str(lamps_folder(tmp_path))
    answers = [SIGNATURE, KNOWLEDGE, rules(no_precondition), NO_QUERIES, revision(ENCODING), UNCHANGED_PDDL]
    record, model = run(domain, answers, tmp_path, AspSettings(check_timeout=20.0, successor_check=False))
    feedback = prompt(model, 4)
    assert "- p1: a plan of 1 actions, INVALID. VAL says:" in feedback
    assert "(turn-on l1) has an unsatisfied precondition at time 1" in feedback
    assert "(Set (plugged l1) to true)" in feedback
    assert record.feedback == {"plan-semantics": 1, "review": 1}
    assert record.details["issues_before"] == {"rules-MN": 1}
    assert record.statuses == {"solved": 3}


def test_a_successor_mismatch_goes_back_as_a_counterexample(tmp_path: Path) -> None:
    # Plans never turn a lamp off, so VAL passes them: only the successor check sees the bug.
    loose = ENCODING.replace(TURN_OFF_NEEDS_ON, "")
    domain = str(lamps_folder(tmp_path))
    answers = [SIGNATURE, KNOWLEDGE, rules(loose), NO_QUERIES, revision(ENCODING), UNCHANGED_PDDL]
    record, model = run(domain, answers, tmp_path)
    feedback = prompt(model, 4)
    assert "- p1: a plan of 2 actions, valid" in feedback
    assert "Counterexample: a state of p" in feedback
    assert "your encoding allows (turn-off l" in feedback and "(on l" in feedback and ") is false" in feedback
    assert record.feedback == {"successor-mismatch": 1, "review": 1}
    assert record.details["issues_before"]["rules-MN"] >= 1
    assert "passed: the transitions agree" in prompt(model, 5)


def test_the_successor_check_reports_a_missing_delete_effect(tmp_path: Path) -> None:
    sticky = ENCODING.replace("deleted(on(L),t) :- occurs(turn_off(L),t).\n", "")
    domain = str(lamps_folder(tmp_path))
    answers = [SIGNATURE, KNOWLEDGE, rules(sticky), NO_QUERIES, revision(ENCODING), UNCHANGED_PDDL]
    record, model = run(domain, answers, tmp_path)
    feedback = prompt(model, 4)
    assert re.search(
        r"after \(turn-off (l\d)\) your encoding's state differs: it has on\(\1\), which PDDL does not",
        feedback,
    )
    assert record.feedback["successor-mismatch"] == 1


def test_the_revision_limit_stops_a_program_that_never_parses(tmp_path: Path) -> None:
    broken = rules("#program step(t).\nholds(x,t :- occurs(a,t).\n")
    domain = str(lamps_folder(tmp_path))
    record, model = run(
        domain,
        [SIGNATURE, KNOWLEDGE, broken, broken, broken],
        tmp_path,
        AspSettings(revisions=2, check_timeout=20.0),
    )
    assert len(model.history) == 5  # three stages and two revisions; no sample queries
    assert record.details["revisions_used"] == 2
    assert record.details["stopped"] == "revision limit during the satisfiability check"
    assert record.feedback == {"syntax-error": 2}
    assert record.statuses == {"clingo-error": 3}


def test_the_revision_limit_stops_the_feedback_rounds(tmp_path: Path) -> None:
    loose = ENCODING.replace(TURN_OFF_NEEDS_ON, "")
    still_loose = loose + "% tried again\n"
    domain = str(lamps_folder(tmp_path))
    answers = [
        SIGNATURE,
        KNOWLEDGE,
        rules(loose),
        NO_QUERIES,
        revision(still_loose),
        revision(still_loose + "%\n"),
    ]
    record, model = run(
        domain, answers, tmp_path, AspSettings(revisions=2, check_timeout=20.0, successor_states=12)
    )
    assert len(model.history) == 6
    assert record.details["stopped"] == "revision limit"
    assert record.feedback == {"successor-mismatch": 2}
    assert record.details["final_checks"] == {"passed": False, "failing": ["successor-mismatch"]}


def test_no_revisions_at_all_still_evaluates_the_first_program(tmp_path: Path) -> None:
    domain = str(lamps_folder(tmp_path))
    record, model = run(
        domain,
        [SIGNATURE, KNOWLEDGE, rules(ENCODING), NO_QUERIES],
        tmp_path,
        AspSettings(revisions=0, check_timeout=20.0),
    )
    assert len(model.history) == 4 and record.feedback == {}
    assert record.details["stopped"] == "no revisions allowed"
    assert record.statuses == {"solved": 3}


def test_a_script_in_the_encoding_is_rejected_and_fed_back(tmp_path: Path) -> None:
    hostile = ENCODING + "#script (python)\nimport os\n#end.\n"
    domain = str(lamps_folder(tmp_path))
    answers = [SIGNATURE, KNOWLEDGE, rules(hostile), rules(ENCODING), NO_QUERIES, UNCHANGED_PDDL]
    record, model = run(domain, answers, tmp_path)
    assert "#script is not allowed (embedded scripts run code)" in prompt(model, 3)
    assert record.feedback == {"forbidden-construct": 1, "review": 1}


def test_an_answer_without_markers_is_malformed_and_said_so(tmp_path: Path) -> None:
    domain = str(lamps_folder(tmp_path))
    answers = [SIGNATURE, KNOWLEDGE, rules(ENCODING), NO_QUERIES, "Looks fine to me.", UNCHANGED_PDDL]
    record, model = run(domain, answers, tmp_path)
    assert "could not be read fully: no '% PROGRAM CHANGED? [CHANGED/UNCHANGED]' marker" in prompt(model, 5)
    assert record.feedback == {"review": 2, "malformed-answer": 1}


def test_a_task_in_english_is_answered_and_checked_against_its_known_answer(tmp_path: Path) -> None:
    answers = [
        SIGNATURE,
        KNOWLEDGE,
        rules(MCP_ENCODING, MCP_QUERY),
        NO_QUERIES.replace("off(l1)", "at(boat,bank1)"),
        UNCHANGED_TEXT,
    ]
    record, model = run("mcp", answers, tmp_path)
    assert record.statuses == {"solved": 1}
    assert record.problems[0].plan_length == 11
    assert record.details["answer"] == record.details["known_answer"] == "11 crossings"
    assert "Main query (as above), clingo output:" in prompt(model, 4)
    assert "SATISFIABLE: a plan of 11 actions (horizon 11)" in prompt(model, 4)
    assert "[TASK]\n# Missionaries and Cannibals" in prompt(model, 0)
    assert "11" not in prompt(model, 0).split("[TASK]")[1].split("[INSTRUCTIONS]")[0]


def test_a_wrong_model_of_a_task_in_english_gives_a_wrong_answer(tmp_path: Path) -> None:
    careless = MCP_ENCODING.replace(MCP_SAFETY, "")
    answers = [
        SIGNATURE,
        KNOWLEDGE,
        rules(careless, MCP_QUERY),
        NO_QUERIES.replace("off(l1)", "at(boat,bank1)"),
        UNCHANGED_TEXT,
    ]
    record, _ = run("mcp", answers, tmp_path)
    assert record.statuses == {"wrong-answer": 1}
    assert record.problems[0].plan_length is not None and record.problems[0].plan_length < 11


def test_no_plan_is_the_right_answer_when_the_task_has_none(tmp_path: Path) -> None:
    query = MCP_QUERY.replace(",3))", ",4))")
    answers = [
        SIGNATURE,
        KNOWLEDGE,
        rules(MCP_ENCODING, query),
        NO_QUERIES.replace("off(l1)", "at(boat,bank1)"),
        UNCHANGED_TEXT,
    ]
    record, model = run("mcp-four-each", answers, tmp_path)
    assert "UNSATISFIABLE: no plan up to horizon 130" in prompt(model, 4)
    assert record.feedback == {"main-query": 1}
    assert record.statuses == {"solved": 1}
    assert record.details["known_answer"] == "no solution"


def test_a_task_in_english_without_its_main_query_is_asked_again(tmp_path: Path) -> None:
    answers = [
        SIGNATURE,
        KNOWLEDGE,
        rules(MCP_ENCODING),
        rules(MCP_ENCODING, MCP_QUERY),
        NO_QUERIES.replace("off(l1)", "at(boat,bank1)"),
        UNCHANGED_TEXT,
    ]
    record, model = run("mcp", answers, tmp_path)
    feedback = prompt(model, 3).split("[FEEDBACK]")[1]
    assert "could not be read fully: the '% MAIN QUERY' section is missing or empty" in feedback
    assert "fails" not in feedback
    assert record.feedback == {"malformed-answer": 1, "review": 1}
    assert record.statuses == {"solved": 1}


def test_every_prompt_states_its_answer_format(tmp_path: Path) -> None:
    loose = ENCODING.replace(TURN_OFF_NEEDS_ON, "")
    domain = str(lamps_folder(tmp_path))
    answers = [
        SIGNATURE,
        KNOWLEDGE,
        rules("a :- b(.\n"),
        rules(loose),
        NO_QUERIES,
        revision(ENCODING),
        UNCHANGED_PDDL,
    ]
    _, model = run(domain, answers, tmp_path)
    assert len(model.history) == len(answers)
    for index in range(len(answers)):
        text = prompt(model, index)
        assert text.rstrip().endswith("```"), index
        assert "Answer with one fenced code block in exactly this format:" in text, index
