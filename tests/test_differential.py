"""VAL and the simulator agree on validity and on the first failing step, on thousands of plans."""

from __future__ import annotations

import random

import pytest
from oracles import ORACLES

from genplan.paths import builtin_domain_file, builtin_domain_names
from genplan.pddl.domain import load_domain
from genplan.pddl.generate import generate_problems
from genplan.pddl.problem import Problem, parse_problem_text
from genplan.plans.val import val_path
from genplan.plans.validate import check_plan

pytestmark = pytest.mark.skipif(
    val_path() is None, reason="VAL's Validate binary does not run on this platform"
)


def _variants(problem: Problem, plan: list[str], rng: random.Random) -> list[list[str]]:
    """The valid plan, truncated, shuffled and mutated versions of it (all well formed)."""
    by_type: dict[str, list[str]] = {}
    for obj, type_name in problem.object_types.items():
        by_type.setdefault(type_name, []).append(obj)
    plans = [plan, plan[: len(plan) // 2], plan[:-1], rng.sample(plan, len(plan))]
    for _ in range(4):
        if not plan:
            break
        mutated = list(plan)
        index = rng.randrange(len(mutated))
        parts = mutated[index].strip("()").split()
        if len(parts) > 1:
            position = rng.randrange(1, len(parts))
            parts[position] = rng.choice(sorted(by_type[problem.object_types[parts[position]]]))
        mutated[index] = "(" + " ".join(parts) + ")"
        plans.append(mutated)
        dropped = list(plan)
        del dropped[rng.randrange(len(dropped))]
        plans.append(dropped)
    return plans


@pytest.mark.slow
@pytest.mark.parametrize("domain", builtin_domain_names())
def test_val_and_simulator_agree(domain: str) -> None:
    parsed_domain = load_domain(builtin_domain_file(domain))
    rng = random.Random(domain)
    compared = 0
    invalid = 0
    for seed in range(5):
        for generated in generate_problems(domain, "train", seed, n=10):  # 10 even where fewer train (forest)
            problem = parse_problem_text(generated.text, parsed_domain)
            for plan in _variants(problem, ORACLES[domain](problem), rng):
                val = check_plan(problem, plan, checker="val")
                simulator = check_plan(problem, plan, checker="simulator")
                assert val.checker_used == "val", val
                assert (val.valid, val.failing_step) == (simulator.valid, simulator.failing_step), (
                    generated.file_name,
                    plan,
                )
                compared += 1
                invalid += not val.valid
    assert compared >= 290 and invalid > compared // 4
