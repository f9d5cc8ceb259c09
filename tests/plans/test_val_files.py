"""The files VAL reads (issue 36): a problem's own file while it is unchanged, else its text
written once per problem, never per check."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from fake_programs import heavy_problem

import genplan.plans.validate as validate
from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.generate import generate_problems
from genplan.pddl.problem import Problem, bind_problem, load_problem
from genplan.pddl.problem_data import problem_to_pddl
from genplan.plans.val import ValResult, val_path
from genplan.plans.val_files import problem_file

PLAN = ["(pack-first o0)", "(stack o0 o1)"]


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any]]:
    """What VAL is given: ``(domain, problem)`` of every call (VAL itself is not run)."""
    calls: list[tuple[Any, Any]] = []

    def fake_val(domain: Any, problem: Any, lines: list[str], **kw: object) -> ValResult:
        calls.append((domain, problem))
        return ValResult(True, None, "", True, "Plan valid")

    monkeypatch.setattr(validate, "run_val", fake_val)
    monkeypatch.setattr(validate, "val_path", lambda: Path("/bin/true"))
    return calls


def _heavy_file(folder: Path) -> Path:
    problem = heavy_problem("p", 2)
    path = folder / "p.pddl"
    path.write_text(problem.to_pddl())
    return path


def test_val_reads_a_loaded_problems_own_file(tmp_path: Path, seen: list[tuple[Any, Any]]) -> None:
    path = _heavy_file(tmp_path)
    problem = load_problem(path, builtin_domain_file("heavy"))
    assert validate.check_plan(problem, PLAN).valid
    assert seen[-1][1] == path.resolve()


def test_val_reads_the_file_a_generated_problem_was_written_to(
    tmp_path: Path, seen: list[tuple[Any, Any]]
) -> None:
    generated = generate_problems("heavy", "train", 0, 1)[0]
    path = tmp_path / generated.file_name
    path.write_text(generated.problem.to_pddl())
    problem = bind_problem(generated.problem, load_domain(builtin_domain_file("heavy")), path)
    validate.check_plan(problem, [f"(pack-first {min(problem.object_types)})"])
    assert seen[-1][1] == path


def test_a_problem_without_a_file_is_written_once(
    seen: list[tuple[Any, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = heavy_problem("p", 2)
    written: list[str] = []
    real = Problem.to_pddl

    def counting(self: Problem) -> str:
        written.append(self.name)
        return real(self)

    monkeypatch.setattr(Problem, "to_pddl", counting)
    for _ in range(3):
        validate.check_plan(problem, PLAN)
    assert written == ["p"]
    given = seen[-1][1]
    assert {call[1] for call in seen} == {given} and given.read_text() == real(problem)
    assert len({call[0] for call in seen}) == 1  # the domain too: one file for every check


def test_a_changed_file_is_not_given_to_val(tmp_path: Path, seen: list[tuple[Any, Any]]) -> None:
    path = _heavy_file(tmp_path)
    problem = load_problem(path, builtin_domain_file("heavy"))
    path.write_text(problem_to_pddl("p", "heavy-pack", ["o0"], [("box-empty",)], [], typed=False))
    validate.check_plan(problem, PLAN)
    given = seen[-1][1]
    assert given != path.resolve() and given.read_text() == problem.to_pddl()


def test_a_written_file_goes_with_its_problem() -> None:
    problem = heavy_problem("p", 2)
    path = problem_file(problem)
    assert path.is_file()
    del problem
    gc.collect()
    assert not path.exists()


@pytest.mark.skipif(val_path() is None, reason="VAL does not run here")
def test_val_judges_the_own_file_as_the_written_text(tmp_path: Path) -> None:
    path = _heavy_file(tmp_path)
    loaded = load_problem(path, builtin_domain_file("heavy"))
    for plan, valid in ((PLAN, True), (PLAN[:1], False)):
        own = validate.check_plan(loaded, plan)
        written = validate.check_plan(heavy_problem("p", 2), plan)
        assert own.checker_used == written.checker_used == "val"
        assert (own.valid, own.message, own.cost) == (written.valid, written.message, written.cost)
        assert own.valid is valid
