"""A domain is checked when it loads and stops with ``file:line: what is wrong`` (issue 12, defect 3).

Each mistake below used to load fine (and surface later as plan-semantics advice to the model)
or stop with the parser's jargon ("Unexpected token Token('$END', '')", "No terminal matches
':'").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.errors import PddlError
from genplan.paths import builtin_domain_file, builtin_domain_names
from genplan.pddl.domain import load_domain
from genplan.pddl.problem import load_problem

HEAVY = builtin_domain_file("heavy").read_text()
SPANNER = builtin_domain_file("spanner").read_text()

# (name, domain text, expected line, words the message must contain)
MISTAKES = [
    (
        "undefined predicate",
        HEAVY.replace("(heavier ?bottom ?top)", "(heavyer ?bottom ?top)"),
        17,
        ["action stack", "undefined predicate `heavyer`", "(heavyer ?bottom ?top)"],
    ),
    (
        "wrong arity",
        HEAVY.replace("(heavier ?bottom ?top)", "(heavier ?bottom)"),
        17,
        ["action stack", "(heavier ?bottom) has 1 argument", "predicate heavier takes 2"],
    ),
    (
        "undefined variable",
        HEAVY.replace("(heavier ?bottom ?top)", "(heavier ?bottom ?tip)"),
        17,
        ["action stack", "undefined variable ?tip", "?bottom ?top"],
    ),
    (
        "undeclared constant",
        SPANNER.replace("(at ?m ?l) (at ?s ?l)", "(at ?m ?l) (at bob ?l)"),
        22,
        ["action pickup_spanner", "`bob`", "neither a parameter", "constant"],
    ),
    (
        "argument of the wrong type",
        SPANNER.replace("(carrying ?m ?s) (useable ?s)", "(carrying ?s ?m) (useable ?s)"),
        27,
        ["action tighten_nut", "?s of type spanner", "predicate carrying takes man"],
    ),
    (
        "undeclared type",
        SPANNER.replace("(loose ?n - nut)", "(loose ?n - nutt)"),
        13,
        ["predicate loose", "undeclared type `nutt`"],
    ),
    (
        "unknown requirement",
        HEAVY.replace(":strips", ":strips :foo"),
        2,
        ["unknown requirement `:foo`"],
    ),
    (
        "misspelt section",
        HEAVY.replace(":predicates", ":predicate"),
        3,
        ["unknown section `:predicate`"],
    ),
    (
        "misspelt action key",
        HEAVY.replace(":precondition (and (packed", ":precondtion (and (packed"),
        17,
        ["action stack", "unknown `:precondtion`"],
    ),
    (
        "predicate declared twice",
        HEAVY.replace("(box-empty)\n  )", "(box-empty)\n    (packed ?y)\n  )"),
        9,
        ["predicate packed is declared twice"],
    ),
    (
        "missing parenthesis at the end",
        HEAVY.rstrip()[:-1],
        1,
        ["unbalanced parentheses", "(define", "never closed"],
    ),
    (
        "missing parenthesis in the middle",
        HEAVY.replace("(box-empty)\n  )", "(box-empty)\n"),
        10,
        [
            "unbalanced parentheses",
            "(:predicates",
            "opened on line 3",
            "not closed before (:action on line 10",
        ],
    ),
    (
        "one parenthesis too many",
        HEAVY.replace("(box-empty)\n  )", "(box-empty)\n  ))"),
        10,
        ["unbalanced parentheses", "on line 9 closes the whole (define", "one `)` too many"],
    ),
    (
        "a problem file given as the domain",
        "(define (problem p) (:domain heavy-pack) (:objects o1) (:init) (:goal (packed o1)))",
        1,
        ["a problem file, not a domain file"],
    ),
]


@pytest.mark.parametrize(("name", "text", "line", "words"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_domain_mistake_stops_with_file_line_and_what_is_wrong(
    tmp_path: Path, name: str, text: str, line: int, words: list[str]
) -> None:
    path = tmp_path / "domain.pddl"
    path.write_text(text)
    with pytest.raises(PddlError) as caught:
        load_domain(path)
    error = caught.value
    assert (error.path, error.line) == (path.resolve(), line), str(error)
    assert str(error).startswith(f"{path.resolve()}:{line}: ")
    for word in words:
        assert word in error.reason, (word, error.reason)
    assert "Token(" not in error.reason and "terminal" not in error.reason


@pytest.mark.parametrize("name", builtin_domain_names())
def test_every_builtin_domain_passes_the_check(name: str) -> None:
    assert load_domain(builtin_domain_file(name)).operators


def test_a_problem_for_another_domain_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "p.pddl"
    path.write_text(
        "(define (problem p)\n (:domain gripper-strips)\n (:objects o1)\n (:init (box-empty) (unpacked o1))\n"
        " (:goal (and (packed o1))))\n"
    )
    with pytest.raises(PddlError) as caught:
        load_problem(path, builtin_domain_file("heavy"))
    assert caught.value.line == 2
    assert "for domain `gripper-strips`" in caught.value.reason and "`heavy-pack`" in caught.value.reason


def test_problem_parser_jargon_is_translated(tmp_path: Path) -> None:
    path = tmp_path / "p.pddl"
    path.write_text(
        "(define (problem p) (:domain heavy-pack) (:requirements :strips :foo)\n (:objects o1)\n"
        " (:init (box-empty))\n (:goal (and (packed o1))))\n"
    )
    with pytest.raises(PddlError) as caught:
        load_problem(path, builtin_domain_file("heavy"))
    assert (caught.value.line, caught.value.reason) == (1, "unknown requirement `:foo`")
    path.write_text(
        "(define (problem p) (:domain heavy-pack)\n (:objects o1)\n (:init (box-empty)\n (:goal (and (packed o1))))\n"
    )
    with pytest.raises(PddlError) as caught:
        load_problem(path, builtin_domain_file("heavy"))
    assert caught.value.line == 4
    assert caught.value.reason == (
        "unbalanced parentheses: the list (:init ... opened on line 3 is not closed before (:goal on line 4"
    )


def test_a_domain_file_that_is_not_utf8_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "domain.pddl"
    path.write_bytes(HEAVY.replace("heavy-pack", "heavy-p\xe4ck").encode("latin-1"))
    with pytest.raises(PddlError) as caught:
        load_domain(path)
    assert caught.value.line == 1 and "not UTF-8" in caught.value.reason
