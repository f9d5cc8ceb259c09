"""Idioms models write that the policy used to refuse, now accepted (issue 23), each beside the
attacks on the opening it makes: ``self.__class__.__name__``, ``import time`` (its clocks),
``import sys`` (``maxsize`` and the recursion limit), ``__new__``, ``__getattr__`` and
``vars(obj)``. Accepted programs give the plan plain CPython gives; attacks end in a refusal."""

from __future__ import annotations

import sys

import pytest

from genplan.sandbox import Limits, PolicyViolation, RunStatus, compile_program, load_trusted, run_program


def _get_plan(body: str) -> str:
    indented = "\n".join("    " + line for line in body.strip("\n").splitlines())
    return f"def get_plan(objects, init, goal):\n{indented}\n"


ACCEPTED: dict[str, tuple[str, list[str]]] = {
    "self.__class__.__name__": (
        """
class Node:
    def __init__(self, name):
        self.name = name
    def __repr__(self):
        return f"{self.__class__.__name__}({self.name})"
    def copy(self):
        return self.__class__(self.name)
    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.name == other.name
class Leaf(Node):
    pass
"""
        + _get_plan(
            "leaf = Leaf('a')\n"
            "return [repr(leaf), str(leaf.copy() == leaf), type(leaf).__name__, type(3).__name__, (1).__class__.__name__]"
        ),
        ["Leaf(a)", "True", "Leaf", "int", "int"],
    ),
    "import time": (
        "import time\nfrom time import perf_counter, monotonic\n"
        + _get_plan(
            "start = time.perf_counter()\n"
            "deadline = time.monotonic() + 10\n"
            "stamps = [time.time(), time.time_ns(), time.process_time(), perf_counter(), monotonic()]\n"
            "fast = time.perf_counter() - start < 10 and time.monotonic() < deadline\n"
            "return [str(fast), str(all(stamp > 0 for stamp in stamps))]"
        ),
        ["True", "True"],
    ),
    "import sys": (
        "import sys\nfrom sys import maxsize\nsys.setrecursionlimit(10**6)\n"
        "def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\n"
        + _get_plan(
            "best = sys.maxsize\n"
            "return [str(best == maxsize and best > 2**31), str(sys.getrecursionlimit()), str(depth(15000))]"
        ),
        ["True", "1000000", "15000"],
    ),
    "__new__": (
        """
class Registry:
    _instance = None
    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.items = []
        return cls._instance
class Point(tuple):
    def __new__(cls, x, y):
        return tuple.__new__(cls, (x, y))
class State:
    def __init__(self, facts):
        self.facts = facts
    def copy(self):
        new = self.__class__.__new__(self.__class__)
        new.facts = set(self.facts)
        return new
"""
        + _get_plan(
            "Registry().items.append('x')\n"
            "copied = State({'a'}).copy()\n"
            "return [str(Registry() is Registry()), str(Registry().items), str(Point(1, 2)), str(copied.facts), "
            "str(object.__new__(State).__class__.__name__)]"
        ),
        ["True", "['x']", "(1, 2)", "{'a'}", "State"],
    ),
    "__getattr__": (
        """
class Facts:
    def __init__(self, values):
        self.values = values
    def __getattr__(self, name):
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None
class Wrapper:
    def __init__(self, inner):
        self._inner = inner
    def __getattr__(self, name):
        return getattr(self._inner, name)
"""
        + _get_plan(
            "facts = Facts({'at': 'rooma'})\n"
            "wrapped = Wrapper(facts)\n"
            "return [facts.at, wrapped.at, str(hasattr(facts, 'missing')), getattr(facts, 'at'), "
            "str(facts.__getattr__('at'))]"
        ),
        ["rooma", "rooma", "False", "rooma", "rooma"],
    ),
    "vars(obj)": (
        """
class Config:
    limit = 3
    def __init__(self, **options):
        vars(self).update(options)
    def __eq__(self, other):
        return vars(self) == vars(other)
    def __hash__(self):
        return hash(tuple(sorted(vars(self).items())))
"""
        + _get_plan(
            "a, b = Config(x=1, y=2), Config(y=2, x=1)\n"
            "return [str(sorted(vars(a))), str(a == b), str(len({a, b})), str('limit' in vars(Config))]"
        ),
        ["['x', 'y']", "True", "1", "True"],
    ),
}


@pytest.mark.parametrize("label", list(ACCEPTED))
def test_accepted_in_trusted_mode_as_in_cpython(label: str) -> None:
    source, expected = ACCEPTED[label]
    limit = sys.getrecursionlimit()
    assert load_trusted(source)(set(), set(), set()) == expected
    assert sys.getrecursionlimit() == limit  # a program's own limit holds only while it runs


@pytest.mark.parametrize("label", ["self.__class__.__name__", "import time", "import sys", "vars(obj)"])
def test_accepted_in_the_sandbox(label: str) -> None:
    source, expected = ACCEPTED[label]
    outcome = run_program(source, set(), set(), set(), timeout=20)
    assert outcome.status is RunStatus.SUCCESS, outcome.traceback or outcome.reason
    assert outcome.plan == expected


COMPILE_TIME: dict[str, str] = {
    "assigning __class__": "class A:\n    pass\nclass B:\n    pass\na = A()\na.__class__ = B",
    "deleting __class__": "class A:\n    pass\ndel A().__class__",
    "__class__ in a class pattern": "match 1:\n    case object(__class__=kind):\n        pass",
    "__class__ then a base": "x = ().__class__.__base__",
    "from time import sleep": "from time import sleep",
    "from time import a clock of the OS": "from time import localtime",
    "from sys import modules": "from sys import modules",
    "from sys import a private": "from sys import _getframe",
    "sys private the program never defines": "import sys\nframe = sys._getframe()",
    "vars() of the caller": "v = vars()",
    "__getattr__ in a class pattern": "match 1:\n    case object(__getattr__=hook):\n        pass",
    "module renamed by a capture pattern": "match 'random':\n    case __name__:\n        pass",
    "annotations replaced by a capture pattern": "class C:\n    match {}:\n        case __annotations__:\n            pass",
    "dunder bound by a star pattern": "match [1]:\n    case [*__builtins__]:\n        pass",
    "dunder bound by a mapping rest": "match {}:\n    case {**__globals__}:\n        pass",
    "a module-level __getattr__": "def __getattr__(name):\n    return name",
    "a module-level __getattr__ by assignment": "__getattr__ = str",
    "a module-level __getattr__ by import": "from operator import itemgetter as __getattr__",
    "a nested __getattr__ made global": "def f():\n    global __getattr__\n    def __getattr__(name):\n        return name",
    "module renamed by an import alias": "import math as __name__",
    "module renamed by a from-import alias": "from math import pi as __name__",
    "module renamed by a function": "def __name__():\n    pass",
    "module renamed by a class": "class __name__:\n    pass",
    "module renamed by an exception handler": "try:\n    pass\nexcept ValueError as __name__:\n    pass",
}


@pytest.mark.parametrize("label", list(COMPILE_TIME))
def test_the_opening_stays_closed_at_compile_time(label: str) -> None:
    with pytest.raises(PolicyViolation) as caught:
        compile_program(COMPILE_TIME[label])
    assert caught.value.line is not None


RUN_TIME: dict[str, tuple[str, type[Exception], str]] = {
    "a class's __class__ builds no class": (
        "class A:\n    pass\nRESULT = A.__class__('Forged', (), {'__module__': 'random'})",
        TypeError,
        "exactly one argument",
    ),
    "the __class__ of an enum is not its metaclass": (
        "import enum\nclass C(enum.Enum):\n    A = 1\nRESULT = C.__class__",
        TypeError,
        "metaclass",
    ),
    "getattr of __class__": ("RESULT = getattr(1, '__class__')", AttributeError, "__class__"),
    "time.sleep": ("import time\nRESULT = time.sleep(10**9)", AttributeError, "time.sleep"),
    "time.localtime through getattr": (
        "import time\nRESULT = getattr(time, 'localtime')",
        AttributeError,
        "not available",
    ),
    "sys.modules": ("import sys\nRESULT = sys.modules['os']", AttributeError, "sys.modules"),
    "sys.exit": ("import sys\nRESULT = sys.exit(0)", AttributeError, "sys.exit"),
    "sys._getframe with a name the program defines": (
        "import sys\nclass A:\n    _getframe = 0\nRESULT = sys._getframe()",
        AttributeError,
        "_getframe",
    ),
    "the real sys through typing": ("import typing\nRESULT = typing.sys", AttributeError, "sys"),
    "the real sys through dataclasses": (
        "import dataclasses\nRESULT = dataclasses.sys",
        AttributeError,
        "sys",
    ),
    "type.__new__ builds no class": (
        "RESULT = type.__new__(type, 'Forged', (), {'__module__': 'random'})",
        TypeError,
        "exactly one argument",
    ),
    "a metaclass written with __new__": (
        "class Meta(type):\n    def __new__(mcs, name, bases, namespace):\n"
        "        return super().__new__(mcs, name, bases, namespace)\n"
        "RESULT = Meta('Forged', (), {'__module__': 'random'})",
        TypeError,
        "exactly one argument",
    ),
    "__getattr__ proxy to a library private": (
        "import random\nclass Decoy:\n    _randbelow = 0\nclass Proxy:\n    def __getattr__(self, name):\n"
        "        return getattr(random.Random(), name)\nRESULT = Proxy()._randbelow(10)",
        AttributeError,
        "_randbelow",
    ),
    "a library's __getattr__": (
        "import random, typing\nalias = typing.Annotated[random.Random, 0]\n"
        "RESULT = alias.__getattr__('_randbelow')",
        AttributeError,
        "__getattr__",
    ),
    "a library's __getattr__ through getattr": (
        "import random, typing\nRESULT = getattr(typing.Annotated[random.Random, 0], '__getattr__')",
        AttributeError,
        "__getattr__",
    ),
    "setting a library class's __getattr__": (
        "import random\ndef hook(self, name):\n    return name\nrandom.Random.__getattr__ = hook",
        AttributeError,
        "__getattr__",
    ),
    "annotations from an instance's __getattr__": (
        "import dataclasses, functools\nclass Fields(dict):\n    pass\nclass Source:\n"
        "    def __getattr__(self, name):\n        return Fields(x=int) if name == '__annotations__' else 'random'\n"
        "class C:\n    pass\nRESULT = functools.update_wrapper(C, Source())",
        TypeError,
        "own functions",
    ),
    "vars() through another name": ("v = vars\nRESULT = v()", TypeError, "exactly one argument"),
    "vars of a module": ("import random\nRESULT = vars(random)", TypeError, "vars() of"),
    "vars of a library object": ("import random\nRESULT = vars(random.Random())", TypeError, "vars() of"),
    "vars of a library class": (
        "import collections\nRESULT = vars(collections.Counter)",
        TypeError,
        "vars()",
    ),
    "vars of a builtin": ("RESULT = vars(print)", TypeError, "vars() of"),
    "vars of the program's function": (
        "def f():\n    pass\nRESULT = vars(f)",
        TypeError,
        "vars() of",
    ),
    "a module forged through vars and wraps": (
        "import functools\nclass Source:\n    pass\nsource = Source()\nvars(source)['__module__'] = 'random'\n"
        "class C:\n    pass\nRESULT = functools.wraps(source)(C)",
        TypeError,
        "own functions",
    ),
}


@pytest.mark.parametrize("label", list(RUN_TIME))
def test_the_opening_stays_closed_at_run_time(label: str) -> None:
    source, error, words = RUN_TIME[label]
    with pytest.raises(error) as caught:
        load_trusted(source + "\ndef get_plan(objects, init, goal):\n    return []\n")
    assert words in str(caught.value)


def test_a_program_sets_the_recursion_limit_only_while_it_runs() -> None:
    limit = sys.getrecursionlimit()
    solve = load_trusted(
        "import sys\nsys.setrecursionlimit(50_000)\n"
        + _get_plan("before = sys.getrecursionlimit()\nsys.setrecursionlimit(60)\nreturn [str(before)]")
    )
    assert sys.getrecursionlimit() == limit
    assert solve(set(), set(), set()) == ["50000"]
    assert sys.getrecursionlimit() == limit
    assert solve(set(), set(), set()) == ["60"]  # its own last setting, applied again
    assert sys.getrecursionlimit() == limit


@pytest.mark.parametrize(
    "label, body, words",
    [
        ("time.sleep", "import time\ntime.sleep(10**9)", "time.sleep"),
        ("sys.modules", "import sys\nreturn list(sys.modules)", "sys.modules"),
        ("vars of a module", "import random\nreturn list(vars(random))", "vars() of"),
    ],
)
def test_the_sandbox_refuses_at_once(label: str, body: str, words: str) -> None:
    outcome = run_program(_get_plan(body), set(), set(), set(), timeout=5, limits=Limits(grace_seconds=1.0))
    assert outcome.status is RunStatus.RAISED, outcome
    assert words in (outcome.traceback or "")


def test_the_recursion_limit_a_program_sets_is_the_one_reported() -> None:
    source = "import sys\nsys.setrecursionlimit(3000)\ndef down(n):\n    return down(n + 1)\n" + _get_plan(
        "return [str(down(0))]"
    )
    outcome = run_program(source, set(), set(), set(), timeout=10)
    assert outcome.status is RunStatus.CRASHED
    assert "maximum recursion depth (3000)" in (outcome.reason or "")
