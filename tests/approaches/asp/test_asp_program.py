"""Reading the model's answers, and genplan's names and facts for PDDL problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.approaches.asp.interface import AspNames, problem_facts, type_ancestry
from genplan.approaches.asp.program import (
    DEFAULT_QUERY_HORIZON,
    MAX_QUERY_HORIZON,
    Program,
    SampleQuery,
    parse_revision,
    parse_rules,
    parse_sample_queries,
)
from genplan.approaches.asp.settings import AspSettings
from genplan.pddl.problem_sets import load_domain_problems

QUERY = SampleQuery(1, "one crosses", True, 1, ":- not occurs(a,1).\n")
CURRENT = Program("a.\n", "init(x).\n", (QUERY,))


def test_rules_are_split_into_encoding_and_main_query() -> None:
    answer = "Sure.\n```asp\n% ENCODING\na :- b.\n% MAIN QUERY\ninit(x).\ngoal(y).\n```\nDone."
    assert parse_rules(answer, with_main_query=True) == ("a :- b.\n", "init(x).\ngoal(y).\n", None)


def test_rules_without_markers_are_the_encoding() -> None:
    assert parse_rules("```\na.\n```", with_main_query=False) == ("a.\n", "", None)
    encoding, query, problem = parse_rules("```\na.\n```", with_main_query=True)
    assert encoding == "a.\n" and query == "" and problem and "MAIN QUERY" in problem


@pytest.mark.parametrize("answer", ["", "```\n\n```", "```\n% ENCODING\n% MAIN QUERY\ninit(x).\n```"])
def test_rules_without_an_encoding_are_malformed(answer: str) -> None:
    assert parse_rules(answer, with_main_query=False)[2] is not None


def test_sample_queries_keep_their_marks_and_horizons() -> None:
    text = (
        "```\n% Query 1: one crosses (satisfiable)\n% horizon: 2\ninit(x).\n:- not occurs(a,1).\n"
        "% Query 2: three cross (Unsatisfiable)\n:- not occurs(b,1).\n```"
    )
    queries, problems = parse_sample_queries(text, limit=5)
    assert [(q.number, q.label, q.expected_satisfiable, q.horizon) for q in queries] == [
        (1, "one crosses", True, 2),
        (2, "three cross", False, DEFAULT_QUERY_HORIZON),
    ]
    assert queries[0].text == "init(x).\n:- not occurs(a,1).\n"
    assert "no '% horizon:' line" in queries[1].note and problems == []


def test_sample_queries_without_a_mark_are_skipped_and_said_so() -> None:
    queries, problems = parse_sample_queries(
        "% Query 1: no mark\na.\n% Query 2: ok (satisfiable)\nb.\n", limit=5
    )
    assert [q.number for q in queries] == [2]
    assert problems == ["Query 1 has no (satisfiable) or (unsatisfiable) mark and was skipped"]


def test_sample_queries_beyond_the_limit_and_horizon_are_cut() -> None:
    text = "".join(f"% Query {i}: q (satisfiable)\n% horizon: 99\na.\n" for i in range(1, 8))
    queries, problems = parse_sample_queries(text, limit=5)
    assert len(queries) == 5 and queries[0].horizon == MAX_QUERY_HORIZON
    assert problems == ["only the first 5 sample queries are run"]


def test_a_query_renders_back_to_its_format() -> None:
    (again,), _ = parse_sample_queries(QUERY.render(), limit=5)
    assert again == QUERY


def test_all_unchanged_changes_nothing_whatever_follows_the_markers() -> None:
    answer = (
        "```\n% PROGRAM CHANGED? [UNCHANGED]\nb.\n% MAIN QUERY CHANGED? [UNCHANGED]\n"
        "% SAMPLE QUERIES CHANGED? [UNCHANGED]\n```"
    )
    revision = parse_revision(answer, CURRENT, with_main_query=True, query_limit=5)
    assert revision.program == CURRENT and revision.changed == () and revision.problems == ()


def test_a_changed_segment_replaces_the_old_one() -> None:
    answer = (
        "```\n% PROGRAM CHANGED? [CHANGED]\nb.\n% MAIN QUERY CHANGED? [UNCHANGED]\n"
        "% SAMPLE QUERIES CHANGED? [CHANGED]\n% Query 1: other (unsatisfiable)\n% horizon: 1\nc.\n```"
    )
    revision = parse_revision(answer, CURRENT, with_main_query=True, query_limit=5)
    assert revision.program.encoding == "b.\n" and revision.program.main_query == "init(x).\n"
    assert revision.program.sample_queries[0].label == "other"
    assert revision.changed == ("program", "sample queries")


def test_a_program_marked_changed_with_the_same_text_is_unchanged() -> None:
    # As in LLM+AL's code: an identical program counts as unchanged.
    answer = "% PROGRAM CHANGED? [CHANGED]\na.\n% SAMPLE QUERIES CHANGED? [UNCHANGED]\n"
    assert parse_revision(answer, CURRENT, with_main_query=False, query_limit=5).changed == ()


def test_an_answer_without_markers_is_malformed() -> None:
    revision = parse_revision("All good!", CURRENT, with_main_query=False, query_limit=5)
    assert revision.program == CURRENT and revision.problems


def test_names_rewrite_hyphens_and_keep_a_bijection() -> None:
    names = AspNames.build(["at-robby", "at_robby", "Ball", "1st", "not"])
    assert names.to_asp["at-robby"] == "at_robby" and names.to_asp["at_robby"] == "at_robby_2"
    assert names.to_asp["1st"] == "n_1st" and names.to_asp["not"] == "n_not"
    assert len(set(names.to_asp.values())) == 5
    assert names.pddl_atom(["at_robby_2", "n_1st"]) == ("at_robby", "1st")
    assert names.term(("box-empty",)) == "box_empty"


def test_facts_give_objects_types_with_supertypes_init_and_goal(tmp_path: Path) -> None:
    problem = load_domain_problems("spanner", 0, 1, tmp_path).training[0]
    names = AspNames.for_problems(problem.domain, [problem])
    facts = problem_facts(problem, names).splitlines()
    assert "object(bob)." in facts and "type(bob,man)." in facts and "type(bob,locatable)." in facts
    assert "type(bob,object)." not in facts
    assert "init(at(bob,shed))." in facts
    assert sum(line.startswith("goal(tightened(") for line in facts) == len(problem.goal)
    assert type_ancestry(problem.domain, "nut") == ["nut", "locatable"]


def test_the_label_names_the_settings_that_differ() -> None:
    assert AspSettings().label == "asp"
    assert AspSettings(successor_check=False, revisions=2).label == "asp+revisions-2+no-successor-check"
    with pytest.raises(ValueError):
        AspSettings(horizon_growth=0.5)
