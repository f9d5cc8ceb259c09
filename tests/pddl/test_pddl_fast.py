"""genplan's own domain and problem readers against the ``pddl`` library's parsers, their oracle.

Every domain genplan ships, every problem it generates (training, check and evaluation
problems of all seven domains, a larger scale too) and hand-laid files in the IPC style
(``tests/data/ipc-style``: tabs, comments, blank lines, ``- object`` in an untyped domain, a
type hierarchy) must give exactly what the library gives; generated problems must also give
the same problem when bound as data, without text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.errors import PddlError
from genplan.paths import builtin_domain_file, builtin_domain_names
from genplan.pddl.domain import load_domain
from genplan.pddl.domain_reader import domain_fields_from_tree
from genplan.pddl.generate import generate_problems
from genplan.pddl.library import library_domain, library_problem
from genplan.pddl.problem import Problem, _checked_problem, bind_problem, parse_problem_text
from genplan.pddl.problem_reader import read_problem
from genplan.pddl.sexpr import read_expression
from genplan.pddl.text import add_missing_requirements, strip_comments_and_lower

IPC_STYLE = Path(__file__).resolve().parents[1] / "data" / "ipc-style"
DOMAIN_FILES = [builtin_domain_file(name) for name in builtin_domain_names()] + sorted(
    IPC_STYLE.glob("*/domain.pddl")
)
IPC_STYLE_PROBLEMS = sorted(p for p in IPC_STYLE.glob("*/*.pddl") if p.name != "domain.pddl")


def test_every_ipc_style_folder_is_in_the_differential_test() -> None:
    """The parametrised tests glob their files: a renamed or emptied folder must fail, not
    leave them with nothing to check."""
    folders = sorted(p.name for p in IPC_STYLE.iterdir() if p.is_dir())
    assert folders == ["blocksworld", "haulage", "miconic"]
    assert {p.parent.name for p in DOMAIN_FILES if IPC_STYLE in p.parents} == set(folders)
    assert {p.parent.name for p in IPC_STYLE_PROBLEMS} == set(folders)


def _library_parse(text: str, domain_file: Path) -> Problem:
    """A problem parsed by the library alone (the path before genplan's reader existed)."""
    normalised = add_missing_requirements(strip_comments_and_lower(text))
    name, domain_name, objects, init, goal = library_problem(normalised, None)
    return _checked_problem(
        name, domain_name, objects, init, goal, load_domain(domain_file), None, normalised
    )


def _same(ours: Problem, library: Problem) -> None:
    assert ours == library
    assert list(ours.object_types.items()) == list(library.object_types.items())  # order too


@pytest.mark.parametrize("path", DOMAIN_FILES, ids=lambda p: f"{p.parent.name}")
def test_domain_reader_agrees_with_the_library(path: Path) -> None:
    text = add_missing_requirements(strip_comments_and_lower(path.read_text()))
    ours = domain_fields_from_tree(read_expression(text))
    assert ours is not None, "a shipped or IPC-style domain fell outside the fast path"
    assert ours == library_domain(text, None)


@pytest.mark.parametrize("path", IPC_STYLE_PROBLEMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_ipc_style_problem_files_read_as_the_library_reads_them(path: Path) -> None:
    text = path.read_text()
    assert read_problem(strip_comments_and_lower(text)) is not None
    domain_file = path.parent / "domain.pddl"
    _same(parse_problem_text(text, load_domain(domain_file)), _library_parse(text, domain_file))


def _generated_cases() -> list[tuple[str, str, int, int | None, int]]:
    cases = []
    for domain in builtin_domain_names():
        cases += [(domain, "train", seed, None, 1) for seed in (0, 1, 2)]
        cases += [(domain, "check", 0, None, 1), (domain, "eval", 0, None, 1)]
        if domain != "heavy":  # heavy at scale 2: 45,000 atoms a problem, several seconds each in the library
            cases.append((domain, "eval", 1, 2, 2))
    return cases


@pytest.mark.slow
@pytest.mark.parametrize(("domain", "split", "seed", "n", "scale"), _generated_cases())
def test_generated_problems_read_and_bind_as_the_library_reads_them(
    domain: str, split: str, seed: int, n: int | None, scale: int
) -> None:
    domain_file = builtin_domain_file(domain)
    parsed_domain = load_domain(domain_file)
    for generated in generate_problems(domain, split, seed, n, scale):
        text = generated.text
        assert read_problem(text) is not None, generated.file_name
        library = _library_parse(text, domain_file)
        _same(parse_problem_text(text, parsed_domain), library)
        _same(bind_problem(generated.problem, parsed_domain), library)


UNUSUAL = {
    "empty init": "(define (problem p) (:domain heavy-pack) (:objects o1) (:init) (:goal (and (packed o1))))",
    "single goal atom, comments, upper case": (
        "; a comment\n(define (problem P) (:domain HEAVY-PACK) ; here too\n (:objects O1 O2)\n"
        " (:init (box-empty) (UNPACKED o1) (unpacked o2) (heavier o1 o2))\n (:goal (packed o1)))"
    ),
    "requirements in the problem": (
        "(define (problem p) (:domain heavy-pack) (:requirements :strips) (:objects o1)"
        " (:init (box-empty) (unpacked o1)) (:goal (and (packed o1))))"
    ),
}


@pytest.mark.parametrize("name", sorted(UNUSUAL))
def test_unusual_problem_files_read_as_the_library_reads_them(name: str) -> None:
    domain_file = builtin_domain_file("heavy")
    _same(
        parse_problem_text(UNUSUAL[name], load_domain(domain_file)),
        _library_parse(UNUSUAL[name], domain_file),
    )


def test_the_fallback_is_taken_where_the_fast_path_stops() -> None:
    empty_init = UNUSUAL["empty init"]
    assert read_problem(empty_init) is None
    problem = parse_problem_text(empty_init, load_domain(builtin_domain_file("heavy")))
    assert problem.init == frozenset() and problem.goal == frozenset({("packed", "o1")})


def test_what_the_library_rejects_the_fallback_rejects_in_pddl_words() -> None:
    out_of_order = (
        "(define (problem p) (:domain heavy-pack) (:objects o1)\n (:goal (and (packed o1)))\n"
        " (:init (box-empty) (unpacked o1)))"
    )
    assert read_problem(out_of_order) is None
    with pytest.raises(PddlError) as caught:
        parse_problem_text(out_of_order, load_domain(builtin_domain_file("heavy")))
    assert caught.value.line == 2
    assert "unexpected `(:goal` in (define (problem p)" in caught.value.reason
    assert "expected `:init`" in caught.value.reason
