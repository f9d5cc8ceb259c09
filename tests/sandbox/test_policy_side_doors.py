"""Side doors of the static policy (issue 23, class 2), tried in trusted mode (the policy is the
only layer there) and through the sandbox: each is refused at compile time or by a guard."""

from __future__ import annotations

import pytest

from genplan.sandbox import Limits, PolicyViolation, RunStatus, load_trusted, run_program

ATTACKS = {
    "match class pattern": """
def get_plan(objects, init, goal):
    def f():
        pass
    match f:
        case object(__globals__=g):
            return [str(sorted(g))]
    return []
""",
    "private name in a match class pattern": """
import random
def get_plan(objects, init, goal):
    match random.Random():
        case object(_os=found):
            return ['escaped', str(found)]
    return []
""",
    "private name on the metaclass": """
import enum
class Colour(enum.Enum):
    RED = 1
def get_plan(objects, init, goal):
    return ['escaped', str(Colour._get_mixins_)]
""",
    "str subclass aliasing format_map": """
class Template(str):
    fill = str.format_map
def get_plan(objects, init, goal):
    def f():
        pass
    return ['escaped', Template('{f.__globals__}').fill({'f': f})]
""",
    "UserString.format": """
import collections
def get_plan(objects, init, goal):
    def f():
        pass
    return ['escaped', collections.UserString('{0.__globals__}').format(f)]
""",
    "UserString.format unbound": """
import collections
def get_plan(objects, init, goal):
    def f():
        pass
    text = collections.UserString('{0.__globals__}')
    return ['escaped', collections.UserString.format(text, f)]
""",
    "typing hands out the real type": """
import typing
def get_plan(objects, init, goal):
    real = typing.get_origin(typing.Type[int])
    forged = real('Forged', (), {'__module__': 'random'})
    return ['escaped', str(forged)]
""",
    "annotations that answer twice": """
import dataclasses
class Fields(dict):
    def items(self):
        return [('__class__', int)]
    def __iter__(self):
        return iter(['x'])
class C:
    pass
C.__annotations__ = Fields(x=int)
def get_plan(objects, init, goal):
    dataclasses.dataclass(C)
    return ['escaped']
""",
}


@pytest.mark.parametrize("label", list(ATTACKS))
def test_trusted_mode_refuses_the_side_door(label: str) -> None:
    source = ATTACKS[label]
    try:
        solve = load_trusted(source)
        plan = solve({"a"}, set(), set())
    except (PolicyViolation, AttributeError, TypeError, NameError):
        return
    assert not (plan and plan[0] == "escaped"), plan
    assert "__builtins__" not in repr(plan), plan


@pytest.mark.parametrize(
    "label", ["match class pattern", "UserString.format", "typing hands out the real type"]
)
def test_the_sandbox_refuses_the_side_door(label: str) -> None:
    outcome = run_program(ATTACKS[label], {"a"}, set(), set(), timeout=5, limits=Limits(grace_seconds=1.0))
    assert outcome.status is not RunStatus.SUCCESS, outcome


def test_real_format_still_works() -> None:
    solve = load_trusted(
        "import collections\n"
        "def get_plan(objects, init, goal):\n"
        "    return ['({} {})'.format('a', 'b'), collections.UserString('({0})').format('c'), str.format('{}', 1)]\n"
    )
    assert solve(set(), set(), set()) == ["(a b)", "(c)", "1"]
