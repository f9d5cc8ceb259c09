"""Saved programs as solvers: load_solver sandboxed (the default) and trusted in-process, errors."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fake_programs import CORRECT, RAISES, heavy_problem

import genplan.approaches.generalized_plan.solver as solver_module
from genplan import load_solver
from genplan.approaches.generalized_plan.solver import SolverError, saved_program
from genplan.errors import ConfigurationError
from genplan.plans.validate import check_plan
from genplan.sandbox import Limits, RunStatus


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
    with pytest.raises(SolverError, match="IndexError") as raised:
        solve(heavy_problem("p", 3))
    assert raised.value.status is RunStatus.RAISED
    with pytest.raises(SolverError, match="IndexError") as raised:
        load_solver("heavy", program=saved / "heavy" / "no-cot-seed0" / "program.py")(heavy_problem("p", 3))
    assert raised.value.status is RunStatus.RAISED


def test_a_call_can_have_its_own_time_budget(tmp_path: Path) -> None:
    (tmp_path / "loops.py").write_text("def get_plan(objects, init, goal):\n    while True:\n        pass\n")
    solve = load_solver("heavy", program=tmp_path / "loops.py", timeout=60)
    started = time.monotonic()
    with pytest.raises(SolverError, match="timed-out") as raised:
        solve(heavy_problem("p", 3), timeout=0.5)
    assert raised.value.status is RunStatus.TIMED_OUT and time.monotonic() - started < 10


def test_a_loaded_domain_takes_a_program_and_saved_program_names_a_domains(saved: Path) -> None:
    domain = heavy_problem("p", 3).domain
    solve = load_solver(domain, program=saved_program("heavy"))
    assert solve.source == saved / "heavy" / "main-seed0" / "program.py"
    assert check_plan(heavy_problem("p", 5), solve(heavy_problem("p", 5))).valid
    with pytest.raises(ConfigurationError, match="give program= for a loaded domain"):
        load_solver(domain)
    with pytest.raises(ConfigurationError, match="unknown domain"):
        saved_program("heavyy")


def test_no_saved_program_says_how_to_make_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver_module, "saved_run_roots", lambda: [tmp_path])
    with pytest.raises(ConfigurationError, match="genplan synthesize --domain gripper --save"):
        load_solver("gripper")


NO_NAMES = ("gripper", "heavy")


@pytest.mark.parametrize("domain", NO_NAMES)
def test_saved_no_names_programs_solve_every_problem_in_real_names(domain: str, tmp_path: Path) -> None:
    """Issue 27 item 9: the run's name_mapping.json beside the program is applied."""
    from genplan.cli import main
    from genplan.paths import builtin_domain_file, data_folder
    from genplan.pddl.generate import write_problems

    program = data_folder("synthesized") / domain / "no-names-seed0" / "program.py"
    assert (program.parent / "name_mapping.json").is_file()
    problem_file = write_problems(domain, "eval", 0, tmp_path / "problems", n=2)[1]
    plan_file = tmp_path / "sas_plan"
    solve = ["solve", "--domain", domain, "--program", str(program), str(problem_file), "-o", str(plan_file)]
    assert main(solve) == 0
    assert "(operator" not in plan_file.read_text()  # written in real names
    assert main(["validate", str(builtin_domain_file(domain)), str(problem_file), str(plan_file)]) == 0


@pytest.mark.slow  # an end-to-end job of several seconds
@pytest.mark.parametrize("domain", NO_NAMES)
def test_saved_no_names_programs_score_30_of_30_through_evaluate(
    domain: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from genplan.cli import main
    from genplan.paths import data_folder

    program = data_folder("synthesized") / domain / "no-names-seed0" / "program.py"
    evaluate = ["evaluate", "--program", str(program), "--domain", domain, "--work-dir", str(tmp_path)]
    assert main(evaluate) == 0
    captured = capsys.readouterr()
    assert "Solved 30/30" in captured.out and "name_mapping.json (No Names)" in captured.err


def test_a_name_mapping_can_be_given_and_another_domains_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from genplan.cli import main
    from genplan.paths import data_folder

    saved = data_folder("synthesized") / "gripper" / "no-names-seed0"
    program = tmp_path / "program.py"
    program.write_text((saved / "program.py").read_text())  # no mapping beside it: 0 solved
    evaluate = ["evaluate", "--program", str(program), "--domain", "gripper", "--n", "3"]
    evaluate += ["--work-dir", str(tmp_path / "work")]
    assert main(evaluate) == 1
    assert main([*evaluate, "--name-mapping", str(saved / "name_mapping.json")]) == 0
    assert "Solved 3/3" in capsys.readouterr().out
    heavy_mapping = data_folder("synthesized") / "heavy" / "no-names-seed0" / "name_mapping.json"
    assert main([*evaluate, "--name-mapping", str(heavy_mapping)]) == 2
    assert "belongs to a run of another domain" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("[1, 2]")
    assert main([*evaluate, "--name-mapping", str(tmp_path / "bad.json")]) == 2
    assert "is not a name mapping" in capsys.readouterr().err


def test_a_program_that_is_not_python_is_refused_once_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27 item 10: not `<file-name-omitted>` on every problem, but one clear error."""
    import genplan.approaches.generalized_plan.evaluate as evaluate_module
    from genplan.cli import main

    ran: list[object] = []
    monkeypatch.setattr(evaluate_module, "check_program", lambda *a, **k: ran.append(a))
    answer = tmp_path / "answer.py"
    answer.write_text(
        "Here is my program:\n```python\ndef get_plan(objects, init, goal):\n    return []\n```\n"
    )
    evaluate = ["evaluate", "--program", str(answer), "--domain", "heavy", "--n", "3"]
    assert main([*evaluate, "--work-dir", str(tmp_path / "w")]) == 2
    err = capsys.readouterr().err
    assert f"{answer}:1: the program is not Python (invalid syntax): `Here is my program:`" in err
    assert "save only the code inside it" in err and "<file-name-omitted>" not in err and ran == []
    unclosed = tmp_path / "unclosed.py"
    unclosed.write_text("def get_plan(objects, init, goal):\n    return [\x1b[2J\n")
    with pytest.raises(ConfigurationError, match=r"unclosed\.py:2: the program is not Python") as caught:
        load_solver("heavy", program=unclosed)
    assert "\x1b" not in str(caught.value) and "defines get_plan" in str(caught.value)


def test_evaluate_saves_a_no_names_programs_plans_in_the_problems_own_names(tmp_path: Path) -> None:
    """evaluate --plans on a No-Names program: each saved plan is written in real names, so it
    checks against the problem file it belongs to."""
    from genplan.cli import main
    from genplan.paths import builtin_domain_file, data_folder
    from genplan.pddl.generate import write_problems

    program = data_folder("synthesized") / "gripper" / "no-names-seed0" / "program.py"
    problems = tmp_path / "problems"
    write_problems("gripper", "eval", 0, problems, n=2)
    plans = tmp_path / "plans"
    evaluate = ["evaluate", "--program", str(program), "--domain", "gripper", "--n", "2"]
    assert main([*evaluate, "--runs-dir", str(tmp_path / "w"), "--plans", str(plans)]) == 0
    saved = sorted(plans.rglob("*.plan"))
    assert len(saved) == 2
    for plan in saved:
        assert "(operator" not in plan.read_text()
    problem = sorted(problems.glob("*.pddl"))[0]
    first = next(p for p in saved if p.stem == problem.stem)
    assert main(["validate", str(builtin_domain_file("gripper")), str(problem), str(first)]) == 0


def test_a_users_saved_program_is_found_first_and_named_but_never_run_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: trusted mode runs a program as Python with the caller's rights, so it runs only
    one named explicitly or one of genplan's own saved runs, never one it found in the current
    folder's ./synthesized/ (the sandbox still prefers the user's)."""
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
    assert load_solver("heavy").source == mine / "program.py"
    solve = load_solver("heavy", trusted=True)
    assert solve.source == shipped / "program.py" and not solve.program.startswith("# the user's own")
    named = load_solver("heavy", program=mine / "program.py", trusted=True)
    assert named.program.startswith("# the user's own")
    assert solver_module.saved_programs("heavy")[0] == mine and shipped in solver_module.saved_programs(
        "heavy"
    )
    assert mine not in solver_module.saved_programs("heavy", trusted=True)


def test_genplan_solve_says_which_saved_program_it_used(tmp_path: Path) -> None:
    import subprocess
    import sys

    from genplan.pddl.generate import generate_problems, save_problems

    mine = tmp_path / "synthesized" / "heavy" / "main-seed0"
    mine.mkdir(parents=True)
    (mine / "program.py").write_text(CORRECT)
    [(problem, _)] = save_problems(generate_problems("heavy", "eval", 0, 1, 1), tmp_path / "problems")

    def solve(*flags: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "genplan", "solve", "--domain", "heavy", str(problem), *flags]
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)

    result = solve()
    assert result.returncode == 0, result.stderr
    assert f"the saved program {mine / 'program.py'}" in result.stderr
    # --trusted: genplan's own, named before it runs; the one found here would end genplan at once
    (mine / "program.py").write_text("raise SystemExit(0)\n" + CORRECT)
    result = solve("--trusted", "-o", str(tmp_path / "plan"))
    # genplan's own saved runs as the command's genplan finds them (the installed package's data
    # when genplan is installed, not this checkout's, which the tests may import instead)
    where = subprocess.run(
        [sys.executable, "-c", "from genplan.paths import data_folder; print(data_folder('synthesized'))"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    shipped = Path(where.stdout.strip()) / "heavy" / "main-seed0" / "program.py"
    assert result.returncode == 0, result.stderr
    assert f"running {shipped} in this process, as Python with your rights" in result.stderr
    assert f"not {mine / 'program.py'}, found in the current folder: --trusted runs it only" in result.stderr
    assert (tmp_path / "plan").read_text().endswith("(unit cost)\n")


STOPS = {
    "SystemExit": "raise SystemExit(0)",
    "KeyboardInterrupt": "raise KeyboardInterrupt",
    "GeneratorExit": "raise GeneratorExit('done')",
    "its own BaseException": "class Stop(BaseException):\n    pass\nraise Stop('here')",
}


@pytest.mark.parametrize("where", ["top level", "get_plan"])
@pytest.mark.parametrize("label", list(STOPS))
def test_a_base_exception_from_a_trusted_program_is_an_error_not_an_exit(
    label: str, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 34: ``raise SystemExit(0)`` ended ``genplan solve --trusted`` with status 0 and no
    plan file; now every BaseException is an error with a non-zero status, the program named first."""
    from genplan.cli import main

    stop = STOPS[label]
    body = "def get_plan(objects, init, goal):\n" + "".join(f"    {line}\n" for line in stop.splitlines())
    program = tmp_path / "program.py"
    program.write_text(f"{stop}\n" + CORRECT if where == "top level" else body)
    problem = tmp_path / "p.pddl"
    problem.write_text(heavy_problem("p", 3).to_pddl())
    plan = tmp_path / "plan"
    arguments = [
        "solve",
        "--domain",
        "heavy",
        "--program",
        str(program),
        str(problem),
        "--trusted",
        "-o",
        str(plan),
    ]
    status = main(arguments)
    err = capsys.readouterr().err
    assert status == 2 and not plan.exists(), err
    raised = "Stop" if label == "its own BaseException" else label
    assert (
        f"genplan: error: the program raised {raised}" in err
        or f"the program could not be loaded: {raised}" in err
    )
    assert err.index(f"running {program}") < err.index("genplan: error:")


def test_a_trusted_programs_top_level_error_is_reported_after_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from genplan.cli import main

    program = tmp_path / "program.py"
    program.write_text("raise ValueError('\\x1b[2J at the top')\n" + CORRECT)
    problem = tmp_path / "p.pddl"
    problem.write_text(heavy_problem("p", 3).to_pddl())
    assert main(["solve", "--domain", "heavy", "--program", str(program), str(problem), "--trusted"]) == 2
    err = capsys.readouterr().err
    assert "could not be loaded: ValueError" in err and "\x1b" not in err
    assert err.index(f"running {program}") < err.index("genplan: error:")


def test_trusted_mode_says_what_it_is() -> None:
    """--help and load_solver's docstring say that trusted mode runs the program as Python with
    the caller's rights."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "genplan", "solve", "--help"], capture_output=True, text=True, timeout=60
    )
    assert "as Python with your rights" in " ".join(result.stdout.split())
    assert "as Python with your rights" in " ".join((load_solver.__doc__ or "").split())
