"""AutoToS prompts: the example input is valid Python in the documented representation; unit tests
derived from training problems are labelled by the PDDL goal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from genplan.approaches.autotos import prompts
from genplan.approaches.autotos.examples import example_problems, goal_cases, successor_cases
from genplan.approaches.autotos.states import state_from_json
from genplan.pddl.problem_sets import load_domain_problems
from genplan.plans.successors import SuccessorGenerator
from genplan.sandbox import ALLOWED_MODULES


def _python_block(text: str) -> dict[str, object]:
    block = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert block is not None
    values: dict[str, object] = {}
    for line in block.group(1).strip().splitlines():
        name, _, literal = line.partition(" = ")
        values[name] = eval(literal, {"frozenset": frozenset, "set": set})  # our own literal, not a model's
    return values


@pytest.mark.parametrize(("domain", "typed"), [("spanner", True), ("gripper", False)])
def test_the_example_input_is_the_problem_in_the_documented_representation(
    domain: str, typed: bool, tmp_path: Path
) -> None:
    problem = load_domain_problems(domain, 0, 1, tmp_path).training[0]
    text = prompts.successor_prompt(problem.domain.to_pddl(), problem)
    assert ("(name, type) pairs" in text) is typed
    shown = _python_block(text)
    assert shown["objects"] == problem.objects and shown["state"] == set(problem.init)
    goal = _python_block(prompts.goal_prompt(problem))
    assert goal["state"] == set(problem.init) and goal["goal"] == set(problem.goal)
    assert problem.domain.to_pddl().strip() in text


def test_the_system_prompt_is_the_papers() -> None:
    assert prompts.SYSTEM_PROMPT.startswith(
        "You are a Python coding assistant. Help me generate my Python functions based on the task descriptions. "
        "Please always generate only a single function and keep all imports in it."
    )
    named = prompts.SYSTEM_PROMPT.split("import only these standard modules: ", 1)[1].split(";")[0]
    modules = {m.strip() for m in named.split(",")}
    assert "collections" in modules and modules <= set(ALLOWED_MODULES)


def test_unit_tests_are_labelled_by_the_pddl_goal(tmp_path: Path) -> None:
    problems = load_domain_problems("ferry", 0, 1, tmp_path)
    examples = example_problems(problems.training, 3, 3, 0)
    cases = goal_cases(examples)
    assert {c["expected"] for c in cases} == {True, False}
    for case in cases:
        assert case["expected"] == (state_from_json(case["goal"]) <= state_from_json(case["state"]))
    assert len({(str(c["state"]), str(c["goal"])) for c in cases}) == len(cases)
    for example in examples:
        generator = SuccessorGenerator.for_problem(example.problem)
        for case in successor_cases(example):
            state = state_from_json(case["state"])
            truth = {s for _, s in generator.successors(state)}
            assert all(state_from_json(s) in truth for s in case["successors"])
