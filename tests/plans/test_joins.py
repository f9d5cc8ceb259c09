"""The one join of lifted atoms against indexed ground atoms (operators and policy rules)."""

from __future__ import annotations

import time

import pytest

from genplan.plans.joins import JoinTimeout, index_atoms, join_bindings, join_order

STATE = {("on", "a", "b"), ("on", "b", "c"), ("clear", "a"), ("ontable", "c")}
GOAL = {("on", "b", "a")}


def bindings(patterns, indexes, types, variable_types):  # type: ignore[no-untyped-def]
    return sorted(tuple(sorted(b.items())) for b in join_bindings(patterns, indexes, types, variable_types))


def test_each_bound_variable_narrows_the_next_pattern() -> None:
    index = index_atoms(STATE)
    blocks = {"block": {"a", "b", "c"}}
    patterns = (("on", "?x", "?y"), ("on", "?y", "?z"))
    found = bindings(patterns, [index, index], blocks, {"?x": "block", "?y": "block", "?z": "block"})
    assert found == [(("?x", "a"), ("?y", "b"), ("?z", "c"))]


def test_each_pattern_matches_its_own_index_and_variables_bind_only_their_type() -> None:
    state, goal = index_atoms(STATE), index_atoms(GOAL)
    patterns = (("clear", "?x"), ("on", "?y", "?x"))
    assert bindings(patterns, [state, goal], {"block": {"a", "b"}}, {"?x": "block", "?y": "block"}) == [
        (("?x", "a"), ("?y", "b"))
    ]
    # the same conjunction against the state alone: b is not on a there
    assert bindings(patterns, [state, state], {"block": {"a", "b"}}, {"?x": "block", "?y": "block"}) == []
    # a variable of a type without the object binds nothing
    assert bindings(patterns, [state, goal], {"block": {"a"}}, {"?x": "block", "?y": "block"}) == []


def test_constants_must_match_and_arity_must_agree() -> None:
    index = index_atoms(STATE | {("on", "a")})
    found = bindings((("on", "?x", "c"),), [index], {"block": {"a", "b", "c"}}, {"?x": "block"})
    assert found == [(("?x", "b"),)]


def test_join_order_puts_connected_atoms_first() -> None:
    atoms = [("clear", "?z"), ("on", "?x", "?y"), ("on", "?y", "?z")]
    order = join_order(atoms, lambda atom: atom)
    assert order[0] in atoms and set(order) == set(atoms)
    # after the first atom, each next one shares a variable with those before it
    bound = {t for t in order[0][1:]}
    for atom in order[1:]:
        assert bound & set(atom[1:])
        bound |= set(atom[1:])


def test_a_join_past_its_deadline_stops_and_without_one_runs_to_the_end() -> None:
    index = index_atoms(STATE)
    blocks = {"block": {"a", "b", "c"}}
    patterns = (("on", "?x", "?y"), ("on", "?y", "?z"))
    types = {"?x": "block", "?y": "block", "?z": "block"}
    with pytest.raises(JoinTimeout):
        list(join_bindings(patterns, [index, index], blocks, types, time.perf_counter() - 1.0))
    assert len(list(join_bindings(patterns, [index, index], blocks, types, time.perf_counter() + 3600))) == 1
