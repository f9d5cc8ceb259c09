"""The engine's problem kind is the PDDL table's modelled rows, in UP's words, and agrees with
what genplan loads on every example problem UP ships."""

from __future__ import annotations

import dataclasses

import pytest
from unified_planning.exceptions import UPException
from unified_planning.io import PDDLWriter
from unified_planning.test.examples import get_example_problems

import genplan.up.kind as kind_module
from genplan.errors import PddlError
from genplan.pddl.domain import parse_domain_text
from genplan.pddl.fragment import CONSTRUCTS
from genplan.pddl.problem import parse_problem_text
from genplan.up.errors import UnsupportedUpProblem
from genplan.up.kind import UP_FEATURES, supported_kind
from genplan.up.pddl import load_up_problem

EXAMPLES = get_example_problems()


def test_the_kind_is_the_union_of_the_modelled_rows() -> None:
    assert set(UP_FEATURES) == {construct.key for construct in CONSTRUCTS if construct.modelled}
    assert supported_kind().features == {feature for features in UP_FEATURES.values() for feature in features}
    assert not {"CONDITIONAL_EFFECTS", "DISJUNCTIVE_CONDITIONS", "NUMERIC_FLUENTS", "CONTINUOUS_TIME"} & (
        supported_kind().features
    )


def test_a_row_modelled_without_up_features_stops_the_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    derived = next(construct for construct in CONSTRUCTS if construct.key == "derived-predicates")
    table = tuple(dataclasses.replace(c, modelled=True) if c is derived else c for c in CONSTRUCTS)
    monkeypatch.setattr(kind_module, "CONSTRUCTS", table)
    with pytest.raises(KeyError, match="missing \\['derived-predicates'\\]"):
        supported_kind()


def _kind(name: str) -> set[str] | None:
    try:
        return set(EXAMPLES[name].problem.kind.features)
    except Exception:  # a few of UP's examples (scheduling) have no kind a Problem computes
        return None


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_an_example_of_a_supported_kind_loads_and_genplan_refuses_any_other(name: str) -> None:
    """Neither too wide nor too narrow: inside the kind, the written PDDL loads; outside, genplan's
    own PDDL table refuses what UP's writer writes (the kind check is bypassed to see it)."""
    features = _kind(name)
    if features is None:
        pytest.skip("UP computes no kind for this example")
    problem = EXAMPLES[name].problem
    if features <= supported_kind().features:
        loaded = load_up_problem(problem)
        assert len(loaded.problem.object_types) >= len(problem.all_objects)
        return
    with pytest.raises(
        UnsupportedUpProblem, match=r"of a kind genplan does not model|not a SchedulingProblem"
    ):
        load_up_problem(problem)
    try:
        writer = PDDLWriter(problem)
        domain, text = writer.get_domain(), writer.get_problem()
    except (UPException, NotImplementedError, AttributeError):
        return  # not PDDL at all (UP's writer says so; it fails on scheduling problems)
    with pytest.raises(PddlError):
        parse_problem_text(text, parse_domain_text(domain))
