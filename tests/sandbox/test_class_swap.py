"""Issue 34, class 1: no route to a class swap, and so none to the real builtins.

The red team's chain: a class built through ``typing`` (``TypedDict('T', {'__class__': ...})``)
counted as the program's own, so the guarded ``@dataclass`` accepted it and generated an
``__init__`` that assigns ``__class__``; with it the real ``__future__`` module (whose dict holds
the real ``__builtins__``) became an instance of a program class, and ``vars()`` handed out its
dict. Each link is a class of attack, closed as a class: ownership is what the program created
(not a ``__module__`` string, not ``type(obj)`` at the time of asking), no generated method or
library helper assigns a dunder for the program, and every module a program imports is a view.
Each attack runs in trusted mode (the policy is the only layer there); the chain runs in the
sandbox too.
"""

from __future__ import annotations

import builtins
import contextlib
import enum
import math
import statistics
import string
import sys
import types
import typing
import warnings

import pytest

from genplan.sandbox import Limits, PolicyViolation, RunStatus, load_trusted, run_program
from genplan.sandbox.policy import ALLOWED_MODULES, attribute_is_allowed, is_private, needs_owner
from genplan.sandbox.runtime import SafeType, new_program

CHAIN = """
import typing, dataclasses, math
import __future__ as fut
class M(type(math)):
    pass
T = typing.TypedDict('T', {'__class__': object})
D = dataclasses.dataclass(T)
def get_plan(objects, init, goal):
    D.__init__(fut, M)
    os = vars(fut)['__builtins__']['__import__']('os')
    return ['escaped', os.getcwd()]
"""
"""The red team's program, as it ran on main: real builtins in trusted mode, no error."""

SWAP = """
import math
import __future__ as fut
class M(type(math)):
    pass
def finish():
    return ['escaped', str(sorted(vars(fut)['__builtins__'])[:3])]
"""
"""A module subclass to swap ``__future__`` into, and the read that follows a swap."""

ATTACKS = {
    # class: a class built through a library counts as the program's own
    "TypedDict class from data": CHAIN,
    "TypedDict subclass inherits the data's fields": SWAP
    + """
import typing, dataclasses
Base = typing.TypedDict('Base', {'__class__': object})
class Child(Base):
    pass
def get_plan(objects, init, goal):
    dataclasses.dataclass(Child).__init__(fut, M)
    return finish()
""",
    "functional enum is not the program's": """
import enum
E = enum.Enum('E', 'a b')
def get_plan(objects, init, goal):
    return ['escaped', str(sorted(vars(E)))]
""",
    # class: a generated method or a library helper assigns a dunder
    "dataclass field added through a class's annotations": SWAP
    + """
import dataclasses
class C:
    x: int
def get_plan(objects, init, goal):
    vars(C)['__annotations__']['__class__'] = object
    dataclasses.dataclass(C).__init__(fut, 0, M)
    return finish()
""",
    "dataclass field renamed, then inherited": SWAP
    + """
import dataclasses
@dataclasses.dataclass
class D:
    x: object = None
dataclasses.fields(D)[0].name = '__class__'
@dataclasses.dataclass
class E(D):
    pass
def get_plan(objects, init, goal):
    E.__init__(fut, M)
    return finish()
""",
    "dataclass field() default renamed": SWAP
    + """
import dataclasses
default = dataclasses.field(default=None)
@dataclasses.dataclass(slots=True)
class D:
    x: object = default
default.name = '__class__'
def get_plan(objects, init, goal):
    return ['escaped', str(dataclasses.fields(D)[0].name)]
""",
    "enum from data with a reducer": SWAP
    + """
import enum, copy
def reducer(self, protocol):
    return (lambda: fut, (), (None, {'__class__': M}))
E = enum.Enum('E', [('a', 1), ('__reduce_ex__', reducer), ('__copy__', None)])
def get_plan(objects, init, goal):
    copy.copy(E.a)
    return finish()
""",
    "enum from a mapping with a dunder": """
import enum
E = enum.IntEnum('E', {'a': 1, '__init_subclass__': print})
def get_plan(objects, init, goal):
    return ['escaped']
""",
    "enum subclass of the program's from data": SWAP
    + """
import enum, copy
class Base(enum.Enum):
    def describe(self):
        return self.name
def reducer(self, protocol):
    return (lambda: fut, (), (None, {'__class__': M}))
E = Base('E', {'a': 1, '__reduce_ex__': reducer, '__copy__': None})
def get_plan(objects, init, goal):
    copy.copy(E.a)
    return finish()
""",
    "copy's reducer table": SWAP
    + """
import copy
class K:
    pass
def get_plan(objects, init, goal):
    copy.dispatch_table[K] = lambda obj: (lambda: fut, (), (None, {'__class__': M}))
    copy.copy(K())
    return finish()
""",
}


def _refused(source: str) -> list[str] | None:
    """The plan, or ``None`` when the program was refused (at compile time or by a guard)."""
    try:
        return load_trusted(source)({"a"}, set(), set())
    except (PolicyViolation, AttributeError, TypeError, ValueError, NameError, ImportError):
        return None


@pytest.mark.parametrize("label", list(ATTACKS))
def test_trusted_mode_refuses_the_attack(label: str) -> None:
    plan = _refused(ATTACKS[label])
    assert plan is None, plan


def test_a_dataclass_init_sets_private_attributes_on_its_own_instances_only() -> None:
    """The generated ``__init__`` of a dataclass with a private field, called on a library
    class, wrote that class's private attribute for every caller."""
    source = (
        "import dataclasses, string\n"
        "@dataclasses.dataclass\n"
        "class D:\n"
        "    _seed: int = 0\n"
        "def get_plan(objects, init, goal):\n"
        "    D.__init__(string.Template, 5)\n"
        "    return [str(D(3)._seed)]\n"
    )
    with pytest.raises(TypeError, match="only on instances of D"):
        load_trusted(source)(set(), set(), set())
    assert "_seed" not in vars(string.Template)
    solve = load_trusted(source.replace("    D.__init__(string.Template, 5)\n", ""))
    assert solve(set(), set(), set()) == ["3"]


def test_a_slot_named_like_a_dunder_is_refused() -> None:
    """``__slots__ = ('__class__',)`` makes ``obj.__class__`` a slot: library code that assigns or
    reads it (``isinstance`` falls back on it) sees what the program put there."""
    source = (
        "class Liar:\n    __slots__ = ('__class__',)\ndef get_plan(objects, init, goal):\n    return []\n"
    )
    with pytest.raises(TypeError, match="__class__"):
        load_trusted(source)


def test_the_chain_is_contained_in_the_sandbox() -> None:
    outcome = run_program(CHAIN, {"a"}, set(), set(), timeout=10, limits=Limits(grace_seconds=1.0))
    assert outcome.status is not RunStatus.SUCCESS, outcome
    assert "TypedDict" in (outcome.traceback or "") or "dataclass" in (outcome.traceback or ""), outcome


def test_the_program_gets_a_view_of_future() -> None:
    future = load_trusted("import __future__ as f\ndef get_plan(objects, init, goal):\n    return f\n")(
        set(), set(), set()
    )
    assert future is not sys.modules["__future__"]
    assert "__builtins__" not in vars(future) and vars(future).get("__spec__") is None
    assert future.annotations is sys.modules["__future__"].annotations
    solve = load_trusted(
        "from __future__ import annotations\n"
        "import __future__ as f\n"
        "def get_plan(objects: set, init: set, goal: set) -> list[str]:\n"
        "    return [str(f.annotations.optional[:2])]\n"
    )
    assert solve(set(), set(), set()) == ["(3, 7)"]


LIBRARY_FLAGS = {
    "typing.final": ("typing.final(statistics.mean)", statistics.mean, "__final__"),
    "typing.no_type_check": (
        "typing.no_type_check(statistics.median)",
        statistics.median,
        "__no_type_check__",
    ),
    "typing.runtime_checkable": (
        "typing.runtime_checkable(typing.Protocol)",
        typing.Protocol,
        "_is_runtime_protocol",
    ),
}


@pytest.mark.parametrize("label", list(LIBRARY_FLAGS))
def test_decorators_that_set_attributes_apply_to_the_programs_own_objects_only(label: str) -> None:
    """``setattr``-like helpers: a decorator that writes a (dunder) attribute on what it is given
    writes it on the program's own functions and classes, never on a library's."""
    call, target, attribute = LIBRARY_FLAGS[label]
    before = vars(target).get(attribute, "absent")
    source = f"import typing, statistics\ndef get_plan(objects, init, goal):\n    {call}\n    return []\n"
    with pytest.raises(TypeError, match="program's own"):
        load_trusted(source)(set(), set(), set())
    assert vars(target).get(attribute, "absent") == before


def test_the_decorators_still_work_on_the_programs_own() -> None:
    solve = load_trusted(
        "import typing, functools\n"
        "@functools.total_ordering\n"
        "class Cost:\n"
        "    def __init__(self, value):\n"
        "        self.value = value\n"
        "    def __eq__(self, other):\n"
        "        return self.value == other.value\n"
        "    def __lt__(self, other):\n"
        "        return self.value < other.value\n"
        "@typing.final\n"
        "class Leaf:\n"
        "    pass\n"
        "@typing.final\n"
        "def helper():\n"
        "    return 1\n"
        "@typing.runtime_checkable\n"
        "class Sized(typing.Protocol):\n"
        "    def size(self) -> int: ...\n"
        "class Methods:\n"
        "    @typing.final\n"
        "    @staticmethod\n"
        "    def one():\n"
        "        return 1\n"
        "    @typing.final\n"
        "    @property\n"
        "    def two(self):\n"
        "        return 2\n"
        "    @typing.final\n"
        "    @functools.lru_cache(maxsize=None)\n"
        "    def three(self):\n"
        "        return 3\n"
        "def get_plan(objects, init, goal):\n"
        "    methods = Methods()\n"
        "    return [str(Cost(2) >= Cost(1)), str(helper()), str(isinstance(Leaf(), Sized)),\n"
        "            str(Methods.one() + methods.two + methods.three())]\n"
    )
    assert solve(set(), set(), set()) == ["True", "1", "False", "6"]


# -- ownership: what the program created -----------------------------------------------------


def test_a_class_with_the_programs_module_name_is_not_thereby_its_own() -> None:
    _, scope = new_program()
    forged = type("Forged", (), {"__module__": scope.name})
    assert not scope.owns_class(forged)
    with pytest.raises(TypeError):
        scope.vars(forged())
    with pytest.raises(TypeError):
        scope.dataclass(forged)


def test_vars_refuses_a_module_whatever_its_class() -> None:
    """Should a class swap ever get through again, ``vars()`` still does not take the swapped
    object for the program's own: a module is never an object the program created."""
    module, scope = new_program()
    exec(compile("import math\nclass M(type(math)):\n    pass\n", "<test>", "exec"), module.__dict__)
    swapped = type(sys)("swapped")
    swapped.__dict__["__builtins__"] = {"__import__": __import__}
    swapped.__class__ = module.__dict__["M"]
    with pytest.raises(TypeError, match="module"):
        scope.vars(swapped)


def test_the_programs_own_classes_stay_its_own() -> None:
    solve = load_trusted(
        "import collections, dataclasses, enum, typing\n"
        "Pair = collections.namedtuple('Pair', 'left right')\n"
        "Step = typing.NamedTuple('Step', [('action', str), ('cost', int)])\n"
        "class Point(typing.NamedTuple):\n"
        "    x: int\n"
        "@dataclasses.dataclass(slots=True)\n"
        "class Node:\n"
        "    _cost: int = 0\n"
        "class Mode(enum.Enum):\n"
        "    ON = 1\n"
        "class Row(typing.TypedDict):\n"
        "    name: str\n"
        "def get_plan(objects, init, goal):\n"
        "    node = Node(3)\n"
        "    node._cost += 1\n"
        "    return [\n"
        "        str(Pair(1, 2)._replace(left=0)), str(Step('a', 1)._replace(cost=2)), str(Point(1)._asdict()),\n"
        "        str(node._cost), str('_name_' in vars(Mode.ON)), str(Row(name='x')),\n"
        "    ]\n"
    )
    assert solve(set(), set(), set()) == [
        "Pair(left=0, right=2)",
        "Step(action='a', cost=2)",
        "{'x': 1}",
        "4",
        "True",
        "{'name': 'x'}",
    ]


def test_math_is_still_a_module_the_program_may_use() -> None:
    solve = load_trusted("import math\ndef get_plan(objects, init, goal):\n    return [str(math.sqrt(4))]\n")
    assert solve(set(), set(), set()) == [str(math.sqrt(4))]


# -- every module a program can import is a view ----------------------------------------------

DANGEROUS_BUILTINS = (
    "getattr", "setattr", "delattr", "hasattr", "vars", "type", "eval", "exec", "compile", "open",
    "globals", "locals", "__import__", "breakpoint", "input", "memoryview", "__build_class__",
)  # fmt: skip
"""Real builtins a program never holds (the guarded ones are its own versions)."""


def _real_module(obj: object) -> bool:
    if not isinstance(obj, types.ModuleType):
        return False
    namespace = vars(obj)
    return (
        sys.modules.get(obj.__name__) is obj
        or any(name in namespace for name in ("__builtins__", "__file__", "__path__", "__cached__"))
        or namespace.get("__spec__") is not None
        or namespace.get("__loader__") is not None
    )


def _builtins_dict(obj: object) -> bool:
    return obj is builtins.__dict__ or (
        isinstance(obj, dict) and ("__builtins__" in obj or obj.get("__import__") is builtins.__import__)
    )


def _unguarded_enum_base(obj: object) -> bool:
    """Whether ``obj`` is an enum class without members whose functional API (``E('F', names)``)
    is ``enum``'s own, unchecked ``_create_``."""
    return (
        isinstance(obj, type)
        and issubclass(obj, enum.Enum)
        and not obj.__members__
        and not any("_create_" in vars(klass) for klass in obj.__mro__)
    )


def _readable(obj: object) -> list[tuple[str, object]]:
    """What a program can read of ``obj`` in one step: attributes the policy lets it name on a
    library object (public names and the allowed dunders), the items of containers, its type."""
    found: list[tuple[str, object]] = []
    try:
        names = dir(obj)
    except Exception:
        names = []
    for name in names:
        if not attribute_is_allowed(name) or needs_owner(name) or is_private(name):
            continue
        try:
            found.append((f".{name}", getattr(obj, name)))
        except Exception:
            continue
    if isinstance(obj, (list, tuple, set, frozenset)):
        found += [(f"[{index}]", item) for index, item in enumerate(list(obj)[:50])]
    if isinstance(obj, dict):
        found += [(f"[{key!r}]", item) for key, item in list(obj.items())[:50]]
    with contextlib.suppress(TypeError):  # a metaclass: the program never gets it
        found.append((".__class__", SafeType(obj)))
    return found


def test_no_module_a_program_may_import_hands_out_a_real_module_or_builtins() -> None:
    """Every module the policy allows (``__future__`` included), as the program's ``import``
    gives it, walked three steps deep through what the program may read: no real module, no
    builtins dict, no real builtin a guard stands for, no enum base that builds classes from
    unchecked names."""
    module, _ = new_program()
    program_import = module.__dict__["__builtins__"]["__import__"]
    dangerous = {id(getattr(builtins, name)) for name in DANGEROUS_BUILTINS}
    frontier: list[tuple[str, object]] = []
    for name in sorted(ALLOWED_MODULES | {"__future__"}):
        frontier.append((name, program_import(name, None, None, ("x",), 0)))
        frontier.append((f"import {name}", program_import(name, None, None, (), 0)))
    seen: set[int] = set()
    problems = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # typing.io, typing.re
        for _ in range(4):
            following: list[tuple[str, object]] = []
            for path, obj in frontier:
                if id(obj) in seen:
                    continue
                seen.add(id(obj))
                if _real_module(obj):
                    problems.append(f"{path} is the real module {obj!r}")
                if _builtins_dict(obj):
                    problems.append(f"{path} is a builtins dict")
                if id(obj) in dangerous:
                    problems.append(f"{path} is the real builtin {obj!r}")
                if _unguarded_enum_base(obj):
                    problems.append(f"{path} builds enums from unchecked names: {obj!r}")
                following += [(path + step, value) for step, value in _readable(obj)]
            frontier = following
    assert len(seen) > 5000  # the walk went somewhere
    assert not problems, problems[:20]
