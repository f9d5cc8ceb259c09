"""Side doors of the static policy (issue 23, class 2), tried in trusted mode (the policy is the
only layer there) and through the sandbox: each is refused at compile time or by a guard."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from genplan.sandbox import Limits, PolicyViolation, RunStatus, load_trusted, run_program
from genplan.sandbox.runtime import new_program

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
    # ForwardRef._evaluate evals its string with the real builtins in the namespace it is given
    "private name in a match class pattern": """
import typing
def get_plan(objects, init, goal):
    match typing.get_args(typing.List['int'])[0]:
        case object(_evaluate=evaluate):
            namespace = {}
            evaluate(namespace, None, frozenset())
            return ['escaped', str(sorted(namespace))]
    return []
""",
    # EnumType._convert_ (on the metaclass, not in the class's MRO) writes into any module;
    # the decoy defines the name, so only the run-time guard stands in the way
    "private name on the metaclass": """
import enum
class Decoy:
    _convert_ = None
class Base(enum.Enum):
    pass
def get_plan(objects, init, goal):
    return ['escaped', str(Base._convert_)]
""",
    # the real str.format_map reached through super(), bound and stored under another name
    "str subclass aliasing format_map": """
class Template(str):
    def fill(self, mapping):
        method = super().format_map
        return method(mapping)
def get_plan(objects, init, goal):
    def f():
        pass
    return ['escaped', Template('{f.__globals__[__name__]}').fill({'f': f})]
""",
    "UserString.format": """
import collections
def get_plan(objects, init, goal):
    def f():
        pass
    return ['escaped', collections.UserString('{0.__globals__[__name__]}').format(f)]
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
    # a capture pattern binds the class body's __annotations__ to a dict whose items() (what
    # the dataclass machinery reads) differ from its keys
    "annotations that answer twice": """
import dataclasses
class Fields(dict):
    def items(self):
        return [('__class__', int)]
    def __iter__(self):
        return iter(['x'])
class C:
    match Fields(x=int):
        case __annotations__:
            pass
def get_plan(objects, init, goal):
    names = [field.name for field in dataclasses.fields(dataclasses.dataclass(C))]
    return ['escaped', str(names)] if names != ['x'] else []
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


def test_the_dataclass_guard_checks_the_fields_the_machinery_sees() -> None:
    """Whatever puts a dict subclass in a class's annotations (``case __annotations__:`` did),
    the guard checks and hands on a plain copy: the fields it checked are the fields built."""

    class Fields(dict[str, type]):
        def items(self) -> list[tuple[str, type]]:  # type: ignore[override]
            return [("__class__", int)]

        def __iter__(self) -> Iterator[str]:
            return iter(["x"])

    _, scope = new_program()
    # as a class statement of the program would have made it (issue 34: ownership is what the
    # program created, not a __module__ string)
    klass = scope.adopt(type("C", (), {"__module__": scope.name, "__annotations__": Fields(x=int)}))
    try:
        built = scope.dataclass(klass)
    except TypeError:
        return
    assert [field.name for field in dataclasses.fields(built)] == ["x"]


def test_real_format_still_works() -> None:
    solve = load_trusted(
        "import collections\n"
        "def get_plan(objects, init, goal):\n"
        "    return ['({} {})'.format('a', 'b'), collections.UserString('({0})').format('c'), str.format('{}', 1)]\n"
    )
    assert solve(set(), set(), set()) == ["(a b)", "(c)", "1"]
