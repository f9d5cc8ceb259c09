"""scripts/compare_mechanisms.py end to end with a scripted model on a folder in the IPC 2023 layout."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from types import ModuleType

import pytest
from fake_programs import CORRECT, fenced, heavy_problem

from genplan.experiments.reports import mechanisms_table
from genplan.experiments.spec import grid_cells
from genplan.llm import FakeLanguageModel, Message
from genplan.paths import builtin_domain_file
from genplan.pddl.problem import parse_problem_text, problem_to_pddl
from genplan.pddl.problem_sets import domain_short_name
from genplan.sandbox import load_trusted

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "compare_mechanisms.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("compare_mechanisms", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ipc_folder(root: Path) -> Path:
    """A heavy domain in the IPC 2023 layout: training/easy, testing/easy|medium|hard."""
    folder = root / "benchmarks" / "packing"
    folder.mkdir(parents=True)
    shutil.copy(builtin_domain_file("heavy"), folder / "domain.pddl")
    sizes = {
        "training/easy": (3, 4, 5, 6, 7),
        "testing/easy": (8,),
        "testing/medium": (20,),
        "testing/hard": (40,),
    }
    for where, items in sizes.items():
        (folder / where).mkdir(parents=True)
        for index, n in enumerate(items, start=1):
            problem = heavy_problem(f"p{index:02d}", n)
            objects = sorted(problem.objects)  # type: ignore[arg-type]
            text = problem_to_pddl(
                f"p{index:02d}", "heavy-pack", objects, problem.init, problem.goal, typed=False
            )
            (folder / where / f"p{index:02d}.pddl").write_text(text)
    return root / "benchmarks"


def _answer(messages: list[Message]) -> str:
    """A scripted model that answers by what the last prompt asks."""
    asked = messages[-1].content
    if "Write a short summary" in asked:
        return "A packing domain: items go into a box, heavier ones below lighter ones."
    if "What is that strategy?" in asked:
        return "Pack the heaviest item first, then each next heaviest on top."
    if "check the strategy by hand" in asked:
        from genplan.pddl.domain import load_domain

        text = asked[asked.index("(define") : asked.index("\n\nFollow the strategy")]
        problem = parse_problem_text(text, load_domain(builtin_domain_file("heavy")))
        plan = load_trusted(CORRECT)(problem.objects, problem.init, problem.goal)
        return "```plan\n" + "\n".join(plan) + "\n```"
    return fenced(CORRECT)


@pytest.mark.slow
def test_the_comparison_runs_every_configuration_and_writes_the_table(tmp_path: Path) -> None:
    script = _script()
    benchmarks = _ipc_folder(tmp_path)
    out = tmp_path / "out"
    models: list[FakeLanguageModel] = []

    def factory(cell: object) -> FakeLanguageModel:
        model = FakeLanguageModel([_answer] * 40)
        models.append(model)
        return model

    arguments = [
        str(benchmarks),
        "--out",
        str(out),
        "--candidates",
        "2",
        "--shuffles",
        "2",
        "--eval-timeout",
        "5",
    ]
    arguments += ["--llm", f"files:{tmp_path / 'unused'}", "--model", "scripted"]  # the factory answers
    assert script.main(arguments, model_factory=factory) == 0
    runs = [json.loads(line) for line in (out / "results" / "runs.jsonl").read_text().splitlines()]
    assert sorted(run["label"] for run in runs) == sorted(
        ["main", "scaling", "candidates2", "check-strategy", "reflect", "shuffles2"]
    )
    assert all(run["solved"] == 3 and run["wall_seconds"] > 0 for run in runs)
    table = (out / "mechanisms.md").read_text()
    assert "| label | domain | solved | easy | medium | hard | feedback by kind |" in table
    packing = domain_short_name(str(benchmarks / "packing"))  # a user's folder, known by its content
    assert f"| main | {packing} | 3/3 (1.00) | 1/1 | 1/1 | 1/1 | - | 3 |" in table
    assert f"| candidates2 | {packing} | 3/3 (1.00) | 1/1 | 1/1 | 1/1 | - | 6 |" in table
    assert f"| check-strategy | {packing} | 3/3 (1.00) | 1/1 | 1/1 | 1/1 | - | 4 |" in table
    assert [line.endswith("| 0/1 |") for line in table.splitlines() if line.startswith("| shuffles2 |")] == [
        True
    ]
    assert len(models) == 6
    assert "Evaluation problems: folder.\n" in table  # the problem set behind the table
    again = tmp_path / "again.md"
    assert script.main([str(benchmarks), "--out", str(out), "--table-only"]) == 0  # resumable: nothing runs
    again.write_text((out / "mechanisms.md").read_text())
    assert again.read_text() == table and len(models) == 6


def test_the_table_sums_feedback_tokens_and_order_sensitive_programs() -> None:
    runs = [
        {
            "approach": "generalized-plan",
            "label": "shuffles4",
            "domain": domain,
            "feedback": {"scaling": 1, "plan-semantics": 2},
            "llm_calls": 5,
            "prompt_tokens": 100,
            "completion_tokens": 20,
            "wall_seconds": 12.0,
            "details": {"order_sensitive": sensitive},
        }
        for domain, sensitive in (("a", True), ("b", False))
    ]
    problems = [
        {
            "approach": "generalized-plan",
            "label": "shuffles4",
            "domain": "a",
            "problem": "eval/p1.pddl",
            "status": s,
        }
        for s in ("solved", "timeout")
    ]
    table = mechanisms_table(runs, problems)
    assert "| shuffles4 | a | 1/2 (0.50) | plan-semantics 2, scaling 1 | 5 | 120 | 12 s | 1/1 |" in table
    assert (
        "| shuffles4 | all domains | 1/2 (0.50) | plan-semantics 4, scaling 2 | 10 | 240 | 24 s | 1/2 |"
        in table
    )


def test_every_cell_of_a_built_in_domain_gets_the_generator_version(tmp_path: Path) -> None:
    script = _script()

    def generators(*flags: str) -> dict[str, str]:
        args = script.build_parser().parse_args(["miconic", "--out", str(tmp_path), *flags])
        return {cell.label: cell.generators for cell in grid_cells(script.grid_spec(args))}

    chosen = generators("--generators", "v1", "--llm", f"files:{tmp_path / 'prompts'}")
    assert len(chosen) == 6 and set(chosen.values()) == {"v1"}
    assert set(generators("--llm", f"files:{tmp_path / 'prompts'}").values()) == {"v2"}
    # With no model, a cell replays the saved run of its label where there is one, on the
    # problems that run was made on; the others have no recording and get the current version.
    replayed = generators()
    assert replayed["main"] == "v1"
    assert replayed["candidates3"] == "v2"
