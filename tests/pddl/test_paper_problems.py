"""The paper's own evaluation problems (``--problems paper``): shipped, loaded, evaluated, recorded.

The files are Silver et al.'s seed-0 evaluation problems as the paper's code ships them (see
domains/<domain>/paper/LICENSE); every saved program must solve all of them (slow), and
``genplan evaluate``, ``run``/``synthesize`` and the experiment grid run on them and say so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from shipped import shipped

from genplan.approaches.generalized_plan.evaluate import evaluate_program
from genplan.cli import main
from genplan.errors import ConfigurationError
from genplan.experiments.grid import run_grid
from genplan.experiments.journal import read_jsonl
from genplan.experiments.reports import make_reports
from genplan.experiments.spec import ApproachSpec, GridSpec, ModelSpec, grid_cells
from genplan.llm import BackendSpec
from genplan.paths import PAPER_DOMAINS, builtin_domain_file, data_folder
from genplan.pddl.domain import Domain, load_domain
from genplan.pddl.obfuscate import NameMapping, extend_mapping, obfuscate_domain, obfuscate_problem
from genplan.pddl.paper_problems import paper_domain, paper_folder, paper_problem_files
from genplan.pddl.problem import Problem
from genplan.pddl.selection import PaperSelection, load_selected_problems, parse_selection
from genplan.sandbox import Limits

SAVED_GRIPPER = data_folder("synthesized") / "gripper" / "main-seed0"


@pytest.mark.parametrize("domain", PAPER_DOMAINS)
def test_thirty_problems_per_domain_ship_with_the_domain_file_and_the_license(domain: str) -> None:
    files = paper_problem_files(domain)
    assert len(files) == 30
    stem = "task" if domain == "heavy" else "problem"
    assert [f.name for f in files] == [f"{stem}{i}.pddl" for i in range(30)]  # the paper's order
    notice = (paper_folder(domain).parent / "LICENSE").read_text()
    assert "MIT License" in notice and "Copyright (c) 2023 Tom Silver" in notice


def _normalised(domain: Domain) -> tuple[object, ...]:
    """The domain without its name, requirements and variable names: what a plan is checked against."""
    operators = []
    for name, operator in sorted(domain.operators.items()):
        index = {variable: f"?{i}" for i, (variable, _) in enumerate(operator.parameters)}

        def atoms(
            group: tuple[tuple[str, ...], ...], index: dict[str, str] = index
        ) -> frozenset[tuple[str, ...]]:
            return frozenset((a[0], *(index.get(x, x) for x in a[1:])) for a in group)

        operators.append(
            (
                name,
                tuple(t for _, t in operator.parameters),
                atoms(operator.positive_preconditions),
                atoms(operator.negative_preconditions),
                atoms(operator.add_effects),
                atoms(operator.delete_effects),
            )
        )
    return (dict(domain.types), dict(domain.predicates), tuple(operators), dict(domain.constants))


@pytest.mark.parametrize("domain", PAPER_DOMAINS)
def test_the_papers_domain_files_define_genplans_predicates_and_operators(domain: str) -> None:
    assert _normalised(paper_domain(domain)) == _normalised(load_domain(builtin_domain_file(domain)))


def test_the_paper_selection_evaluates_on_the_files_with_generated_training_problems(tmp_path: Path) -> None:
    problems = load_selected_problems("delivery", 3, PaperSelection(), tmp_path)
    assert problems.problem_set == "paper" and problems.generators == "v2"
    assert len(problems.evaluation) == 30
    assert {p.domain.name for p in problems.evaluation} == {"trapnewspapers"}  # the paper's own domain file
    assert all(p.name == "newspaper" for p in problems.evaluation)  # names repeat: records key by file
    assert problems.training[0].name == "delivery-train-00"
    from genplan.approaches.base import problem_key

    assert [problem_key(p, problems.root) for p in problems.evaluation[:2]] == [
        "paper/seed0/problem0.pddl",
        "paper/seed0/problem1.pddl",
    ]
    first = parse_selection("paper", count=5)
    assert (first.describe(), first.slug()) == ("paper x5", "paper-x5")
    assert len(load_selected_problems("delivery", 0, first, tmp_path).evaluation_sources) == 5
    assert (parse_selection("paper").describe(), parse_selection("paper").slug()) == ("paper", "paper")


def test_the_paper_selection_needs_one_of_the_papers_domains(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="the paper's problems exist for its seven domains"):
        load_selected_problems("blocksworld", 0, PaperSelection(), tmp_path)
    with pytest.raises(ConfigurationError, match="needs a built-in domain"):
        load_selected_problems(str(tmp_path), 0, PaperSelection(), tmp_path)


def test_evaluate_runs_a_program_on_the_papers_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "results.json"
    arguments = ["evaluate", "--program", str(SAVED_GRIPPER / "program.py"), "--domain", "gripper"]
    arguments += ["--problems", "paper", "--work-dir", str(tmp_path / "work"), "--json", str(report)]
    assert main(arguments) == 0
    captured = capsys.readouterr()
    assert "paper/seed0/problem29.pddl" in captured.out and "Solved 30/30" in captured.out
    assert "paper (the paper's seed-0 evaluation problems)" in captured.err  # no generated problems used
    data = json.loads(report.read_text())
    assert (data["domain"], data["problem_set"], data["summary"]["solved"]) == ("gripper", "paper", 30)
    assert data["generators"] is None
    assert [p["problem"] for p in data["problems"][:2]] == [
        "paper/seed0/problem0.pddl",
        "paper/seed0/problem1.pddl",
    ]


def _genplan(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "GENPLAN"))}
    env["PYTHONHASHSEED"] = "0"
    return subprocess.run(
        [sys.executable, "-m", "genplan", *arguments],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.slow
def test_a_replayed_saved_run_is_evaluated_on_the_papers_problems_in_its_own_folder(tmp_path: Path) -> None:
    result = _genplan(
        "synthesize",
        "--domain",
        "gripper",
        "--problems",
        "paper",
        "--llm",
        f"replay:{SAVED_GRIPPER / 'conversation.jsonl'}",
        "--runs-dir",
        str(tmp_path / "runs"),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "made on problems of the generators v1; using them" in result.stdout
    assert (
        "problems: paper (the paper's seed-0 evaluation problems; training problems from generators v1)"
        in (result.stdout)
    )
    folder = tmp_path / "runs" / "gripper-paper" / "main-seed0"
    metadata = json.loads((folder / "metadata.json").read_text())
    assert (metadata["problem_set"], metadata["generators"], metadata["solved"]) == ("paper", "v1", 30)
    assert (folder / "program.py").read_text() == (SAVED_GRIPPER / "program.py").read_text()
    results = json.loads((folder / "results.json").read_text())
    assert results[0]["problem"] == "paper/seed0/problem0.pddl"


def test_the_grid_runs_on_the_papers_problems_and_its_tables_say_so(tmp_path: Path) -> None:
    spec = GridSpec(
        domains=("gripper",),
        seeds=(0,),
        approaches=(ApproachSpec("generalized-plan"),),
        model=ModelSpec(
            BackendSpec.parse(f"replay:{SAVED_GRIPPER / 'conversation.jsonl'}"), cache_dir=tmp_path / "cache"
        ),
        runs_dir=tmp_path / "runs",
        results_dir=tmp_path / "results",
        n_eval=5,
        problems=PaperSelection(5),
    )
    (cell,) = grid_cells(spec)
    assert (cell.domain_name, cell.generators) == ("gripper-paper-x5", "v1")  # the recording's problems
    assert grid_cells(replace(spec, generators="v2"))[0].generators == "v2"
    summary = run_grid(spec)
    assert (summary.finished, summary.failed) == (1, 0)
    (run,) = read_jsonl(spec.results_dir / "runs.jsonl")
    assert (run["problem_set"], run["generators"], run["solved"]) == ("paper x5", "v1", 5)
    make_reports(spec.results_dir, tmp_path / "reports")
    table1 = (tmp_path / "reports" / "table1.md").read_text()
    assert "Evaluation problems: paper x5 (the paper's own seed-0 evaluation files)." in table1
    assert "| gripper-paper-x5 | 1.00 |" in table1
    assert "| paper x5 |" in (tmp_path / "reports" / "comparison.md").read_text()


SAVED_PROGRAMS = sorted(
    p.parent
    for p in shipped("*/*/metadata.json")  # not a run a user saved here
    if json.loads(p.read_text())["approach"] == "generalized-plan"
    and json.loads(p.read_text())["domain"] in PAPER_DOMAINS  # the paper's seven domains have its problems
)


def _as_the_program_saw_them(saved: Path, problems: list[Problem], domain: Domain) -> list[Problem]:
    """``problems`` as the saved program reads them: for a "No Names" run, renamed through the
    run's name mapping extended to their new names (as ``genplan synthesize`` does)."""
    mapping_file = saved / "name_mapping.json"
    if not mapping_file.is_file():
        return problems
    mapping = extend_mapping(NameMapping.from_json(json.loads(mapping_file.read_text())), problems)
    obfuscated, _ = obfuscate_domain(domain, mapping)
    return [obfuscate_problem(p, mapping, obfuscated) for p in problems]


@pytest.mark.slow
@pytest.mark.parametrize("saved", SAVED_PROGRAMS, ids=[f"{p.parent.name}/{p.name}" for p in SAVED_PROGRAMS])
def test_every_saved_program_solves_the_papers_seed_0_problems(saved: Path, tmp_path: Path) -> None:
    domain = json.loads((saved / "metadata.json").read_text())["domain"]
    problems = load_selected_problems(domain, 0, PaperSelection(), tmp_path)
    seen = _as_the_program_saw_them(saved, list(problems.evaluation), problems.domain)
    checks = evaluate_program((saved / "program.py").read_text(), seen, timeout=30.0, limits=Limits())
    assert len(checks) == 30
    assert [
        (path.name, c.failure) for c, path in zip(checks, problems.evaluation_sources) if not c.solved
    ] == []
