"""Saved programs as solvers: load_solver sandboxed (the default) and trusted in-process, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_programs import CORRECT, RAISES, heavy_problem

import genplan.approaches.generalized_plan.solver as solver_module
from genplan import load_solver
from genplan.approaches.generalized_plan.solver import SolverError
from genplan.errors import ConfigurationError
from genplan.plans.validate import check_plan
from genplan.sandbox import Limits


@pytest.fixture
def saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "synthesized"
    for variant, fraction, program in (("main-seed0", 1.0, CORRECT), ("no-cot-seed0", 0.0, RAISES)):
        folder = root / "heavy" / variant
        folder.mkdir(parents=True)
        (folder / "program.py").write_text(program)
        (folder / "metadata.json").write_text(
            json.dumps({"variant": variant.split("-seed")[0], "fraction_solved": fraction})
        )
    monkeypatch.setattr(solver_module, "saved_run_roots", lambda: [root])
    return root


def test_load_solver_uses_the_best_saved_program(saved: Path) -> None:
    solve = load_solver("heavy")
    problem = heavy_problem("p", 30)
    assert check_plan(problem, solve(problem)).valid


def test_trusted_solver_gives_the_same_plan(saved: Path) -> None:
    problem = heavy_problem("p", 12)
    assert load_solver("heavy", trusted=True)(problem) == load_solver("heavy")(problem)


def test_the_solver_is_sandboxed_unless_trusted(saved: Path) -> None:
    escape = "import random\ndef get_plan(objects, init, goal):\n    return [random._os.name]\n"
    (saved / "heavy" / "escape.py").write_text(escape.replace("random._os", "getattr(random, '_os')"))
    solve = load_solver("heavy", program=saved / "heavy" / "escape.py")
    with pytest.raises(SolverError, match="private attribute"):
        solve(heavy_problem("p", 3))
    probe = "def get_plan(objects, init, goal):\n    return [str(len(objects))]\n"
    (saved / "heavy" / "probe.py").write_text(probe)
    assert load_solver("heavy", program=saved / "heavy" / "probe.py", limits=Limits(isolation="none"))(
        heavy_problem("p", 3)
    ) == ["3"]


def test_solver_accepts_problem_files(saved: Path, tmp_path: Path) -> None:
    problem = heavy_problem("p", 4)
    path = tmp_path / "p.pddl"
    path.write_text(problem.to_pddl())
    assert load_solver("heavy")(path)[0] == "(pack-first o0)"


def test_failing_program_raises_solver_error(saved: Path) -> None:
    solve = load_solver("heavy", program=saved / "heavy" / "no-cot-seed0" / "program.py", trusted=True)
    with pytest.raises(SolverError, match="IndexError"):
        solve(heavy_problem("p", 3))
    with pytest.raises(SolverError, match="IndexError"):
        load_solver("heavy", program=saved / "heavy" / "no-cot-seed0" / "program.py")(heavy_problem("p", 3))


def test_no_saved_program_says_how_to_make_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver_module, "saved_run_roots", lambda: [tmp_path])
    with pytest.raises(ConfigurationError, match="genplan synthesize --domain gripper --save"):
        load_solver("gripper")


def test_a_users_saved_program_is_found_first_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from genplan.approaches.base import saved_run_folder
    from genplan.paths import data_folder

    shipped = data_folder("synthesized") / "heavy" / "main-seed0"
    monkeypatch.chdir(tmp_path)
    assert saved_run_folder("heavy", "main", 0) == shipped  # nothing saved here yet: genplan's own
    assert load_solver("heavy", trusted=True).source == shipped / "program.py"
    mine = tmp_path / "synthesized" / "heavy" / "main-seed0"
    mine.mkdir(parents=True)
    (mine / "program.py").write_text("# the user's own\n" + CORRECT)
    assert saved_run_folder("heavy", "main", 0) == mine
    solve = load_solver("heavy", trusted=True)
    assert solve.source == mine / "program.py" and solve.program.startswith("# the user's own")
    assert solver_module.saved_programs("heavy")[0] == mine and shipped in solver_module.saved_programs(
        "heavy"
    )


def test_genplan_solve_says_which_saved_program_it_used(tmp_path: Path) -> None:
    import subprocess
    import sys

    mine = tmp_path / "synthesized" / "heavy" / "main-seed0"
    mine.mkdir(parents=True)
    (mine / "program.py").write_text(CORRECT)
    from genplan.pddl.generate import generate_problems, save_problems

    [(problem, _)] = save_problems(generate_problems("heavy", "eval", 0, 1, 1), tmp_path / "problems")
    result = subprocess.run(
        [sys.executable, "-m", "genplan", "solve", "--domain", "heavy", str(problem), "--trusted"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert f"the saved program {mine / 'program.py'}" in result.stderr
