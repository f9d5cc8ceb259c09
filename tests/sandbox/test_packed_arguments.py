"""Packed get_plan arguments (the fast path) against the plain JSON lists: the same items, in the
same order, so every program gets the same sets built the same way."""

from __future__ import annotations

from typing import Any

import pytest

import genplan.sandbox.runner as runner
from genplan.paths import builtin_domain_file, builtin_domain_names
from genplan.pddl.generate import write_problems
from genplan.pddl.problem import Problem, load_problem
from genplan.sandbox import RunStatus, program_arguments, run_program, run_untrusted
from genplan.sandbox.channel import decode, encode
from genplan.sandbox.harness import from_json_item, items_from_packed, program_set, set_from_json
from genplan.sandbox.runner import GET_PLAN_HARNESS, packed_program_arguments

ORDER_OF_SETS = """
def get_plan(objects, init, goal):
    text = repr([list(objects), list(init), list(goal)])
    return [text[i : i + 900] for i in range(0, len(text), 900)]
"""
"""A program whose plan is the order its three sets iterate in."""

EDGE_PARTS: dict[str, list[Any]] = {
    "names with prefixes and symbols": ["a", "a-b", "a_b", "A", "b", "~", "é", "a0", "", "0"],
    "atoms of mixed arity": [("p",), ("p", "a"), ("p", "a", "b"), ("q", "a"), ("p", "a-b"), ("p", "a", "")],
    "atoms with empty names": [("a", ""), ("",), ("a",), ("", "a"), ("b", "", "")],
    "names with a space": ["a b", "a", "c"],
    "names with a tab": ["a\tb", "a", "c"],
    "atoms with a space": [("p", "a b"), ("p", "a")],
    "atoms with a line break": [("p", "a\nb"), ("p", "a")],
    "an empty atom": [(), ("p",)],
    "names and atoms": ["a", ("p", "a")],
    "not strings": [("p", 1), ("p", 2)],
    "nested atoms": [("p", ("a", "b")), ("p", ("c",))],
    "nothing": [],
}
"""Parts that pack (the first three) and parts that must go the plain way."""


def _sequence(part: Any) -> list[Any]:
    """The items of one argument in the order the program's set is built from them."""
    if type(part) is dict:
        return items_from_packed(part["packed"])
    return [from_json_item(item) for item in part]


@pytest.fixture(scope="module")
def problems(tmp_path_factory: pytest.TempPathFactory) -> list[Problem]:
    """Two training problems of every built-in domain and heavy's largest evaluation problem of
    seed 0 (eval-05: 224 objects, 25,201 initial atoms)."""
    folder = tmp_path_factory.mktemp("problems")
    loaded = []
    for domain in builtin_domain_names():
        for path in write_problems(domain, "train", 0, folder / domain, n=2):
            loaded.append(load_problem(path, builtin_domain_file(domain)))
    heavy = write_problems("heavy", "eval", 0, folder / "heavy-eval", n=6)[5]
    loaded.append(load_problem(heavy, builtin_domain_file("heavy")))
    return loaded


@pytest.mark.parametrize("order_seed", [None, 0, 7])
def test_packed_arguments_hold_the_plain_items_in_the_plain_order(
    problems: list[Problem], order_seed: int | None
) -> None:
    for problem in problems:
        parts = (problem.objects, problem.init, problem.goal)
        plain = program_arguments(*parts, order_seed)
        packed = packed_program_arguments(*parts, order_seed)
        assert all(type(part) is dict for part in packed if part), problem.name  # real problems pack
        assert [_sequence(p) for p in packed] == [_sequence(p) for p in plain], problem.name
        sent = decode(encode(packed)[8:])  # as the worker reads them
        assert [list(program_set(p)) for p in sent] == [list(set_from_json(p)) for p in plain]


@pytest.mark.parametrize("label", EDGE_PARTS)
@pytest.mark.parametrize("order_seed", [None, 3])
def test_every_part_packs_exactly_or_goes_the_plain_way(label: str, order_seed: int | None) -> None:
    part = EDGE_PARTS[label]
    plain = program_arguments(part, part, ["x"], order_seed)
    packed = packed_program_arguments(part, part, ["x"], order_seed)
    assert [_sequence(p) for p in packed] == [_sequence(p) for p in plain]
    packs = type(packed[0]) is dict
    assert packs == (
        label in ("names with prefixes and symbols", "atoms of mixed arity", "atoms with empty names")
    )
    if not packs:
        assert packed[:2] == plain[:2]  # the plain lists themselves


@pytest.mark.parametrize(
    "runs", [[[1, 2, "a"]], [[2, 1, "a b c"]], [[-1, 1, "a"]], [[0, 0, ""]], [["1", 1, "a"]], [[1, 1]]]
)
def test_a_malformed_packed_part_is_refused(runs: list[Any]) -> None:
    with pytest.raises(ValueError):
        program_set({"packed": runs})


@pytest.mark.slow
def test_programs_get_the_same_sets_in_the_sandbox_either_way(problems: list[Problem]) -> None:
    for problem in problems[::3]:
        for order_seed in (None, 1):
            parts = (problem.objects, problem.init, problem.goal)
            plain = run_untrusted(
                ORDER_OF_SETS, GET_PLAN_HARNESS, program_arguments(*parts, order_seed), timeout=30
            )
            assert plain.status is RunStatus.SUCCESS, problem.name
            packed = run_program(ORDER_OF_SETS, *parts, order_seed=order_seed, timeout=30)
            assert packed.status is RunStatus.SUCCESS and packed.plan == plain.value["plan"], problem.name


def test_packed_names_are_one_string_each() -> None:
    text = " ".join(["on", "a" + "b", "c", "on", "c", "a" + "b"])  # names built apart, as read
    first, second = items_from_packed([[3, 2, text]])
    assert first[1] is second[2] and first[2] is second[1] and first[0] is second[0]


def test_a_problems_arguments_are_packed_once_and_reused(
    problems: list[Problem], monkeypatch: pytest.MonkeyPatch
) -> None:
    packed: list[int | None] = []
    real = runner.packed_program_arguments

    def counting(*arguments: Any) -> list[Any]:
        packed.append(arguments[3] if len(arguments) > 3 else None)
        return real(*arguments)

    monkeypatch.setattr(runner, "packed_program_arguments", counting)
    problem = problems[-1]
    parts = (problem.objects, problem.init, problem.goal)
    plans = [run_program(ORDER_OF_SETS, *parts, timeout=30, reuse_for=problem).plan for _ in range(3)]
    assert len(packed) == 1 and plans[0] == plans[1] == plans[2]
    assert plans[0] == run_program(ORDER_OF_SETS, *parts, timeout=30).plan  # the same sets as packed anew
    assert len(packed) == 2
    run_program(ORDER_OF_SETS, *parts, timeout=30, reuse_for=problem, order_seed=3)
    assert packed[-1] == 3  # a shuffled order is packed for its call only
