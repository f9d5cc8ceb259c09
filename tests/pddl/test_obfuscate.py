"""No Names: every name is replaced consistently, the mapping round-trips, plans translate."""

from __future__ import annotations

import re

import pytest
from oracles import ORACLES

from genplan.paths import builtin_domain_file, builtin_domain_names
from genplan.pddl.domain import load_domain
from genplan.pddl.generate import generate_problems
from genplan.pddl.obfuscate import (
    NameMapping,
    build_mapping,
    domain_to_pddl,
    obfuscate_domain,
    obfuscate_problem,
)
from genplan.pddl.problem import parse_problem_text
from genplan.plans.validate import check_plan


def _setup(name: str):
    domain = load_domain(builtin_domain_file(name))
    problems = [parse_problem_text(g.text, domain) for g in generate_problems(name, "train", 0, n=3)]
    mapping = build_mapping(domain, problems)
    obfuscated_domain, mapping = obfuscate_domain(domain, mapping)
    return domain, problems, mapping, obfuscated_domain


@pytest.mark.parametrize("name", builtin_domain_names())
def test_no_original_name_survives(name: str) -> None:
    domain, problems, mapping, obfuscated_domain = _setup(name)
    texts = [obfuscated_domain.to_pddl()] + [
        obfuscate_problem(p, mapping, obfuscated_domain).to_pddl() for p in problems
    ]
    words = set(re.findall(r"[a-z_?][\w?-]*", "\n".join(texts)))
    originals = {domain.name, *domain.predicates, *domain.operators, *domain.types, *domain.constants}
    originals |= {v for o in domain.operators.values() for v, _ in o.parameters}
    originals |= {o for p in problems for o in p.object_types} | {p.name for p in problems}
    originals -= {"object"}
    assert not originals & words


@pytest.mark.parametrize("name", builtin_domain_names())
def test_valid_plans_stay_valid_and_map_back(name: str) -> None:
    _, problems, mapping, obfuscated_domain = _setup(name)
    for problem in problems:
        plan = ORACLES[name](problem)
        hidden = obfuscate_problem(problem, mapping, obfuscated_domain)
        translated = mapping.plan_to_obfuscated(plan)
        assert check_plan(hidden, translated).valid
        assert mapping.plan_to_original(translated) == [" ".join(a.split()) for a in plan]


def test_names_are_consistent_across_problems_and_deterministic() -> None:
    _, problems, mapping, obfuscated_domain = _setup("gripper")
    first = obfuscate_problem(problems[0], mapping, obfuscated_domain)
    second = obfuscate_problem(problems[1], mapping, obfuscated_domain)
    shared = set(problems[0].object_types) & set(problems[1].object_types)
    assert shared
    for obj in shared:
        assert mapping.to_obfuscated(obj, "object") in first.object_types
        assert mapping.to_obfuscated(obj, "object") in second.object_types
    assert build_mapping(problems[0].domain, problems) == mapping


def test_mapping_json_round_trip_and_domain_writer() -> None:
    domain, _, mapping, obfuscated_domain = _setup("spanner")
    assert NameMapping.from_json(mapping.to_json()) == mapping
    assert mapping.to_original(mapping.to_obfuscated("walk", "operator"), "operator") == "walk"
    from genplan.pddl.domain import parse_domain_text

    again = parse_domain_text(domain_to_pddl(domain))
    assert (again.operators, again.types, again.predicates) == (
        domain.operators,
        domain.types,
        domain.predicates,
    )
    assert obfuscated_domain.is_subtype(
        mapping.to_obfuscated("man", "type"), mapping.to_obfuscated("locatable", "type")
    )


def test_adding_evaluation_problems_keeps_training_names() -> None:
    domain, _, mapping, _ = _setup("ferry")
    evaluation = [parse_problem_text(g.text, domain) for g in generate_problems("ferry", "eval", 0, n=2)]
    from genplan.pddl.obfuscate import extend_mapping

    extended = extend_mapping(mapping, evaluation)
    for category in ("object", "problem", "predicate"):
        for name, hidden in mapping.forward[category].items():
            assert extended.to_obfuscated(name, category) == hidden
    assert all(extended.to_obfuscated(o, "object") for p in evaluation for o in p.object_types)
    assert len(set(extended.forward["object"].values())) == len(extended.forward["object"])
