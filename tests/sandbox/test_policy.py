"""The sandbox policy, item by item: what it must reject and what it must accept."""

from __future__ import annotations

import pytest

from genplan.sandbox import PolicyViolation, compile_program, load_trusted

REJECTED = {
    "import os": "import os\ndef get_plan(o, i, g):\n    return []",
    "import subprocess": "import subprocess",
    "from os import path": "from os import path",
    "sys.modules": "from sys import modules",
    "time.sleep": "from time import sleep",
    "import importlib": "import importlib",
    "import socket": "import socket",
    "open": "def get_plan(o, i, g):\n    return open('/etc/passwd').read().split()",
    "eval": "x = eval('1 + 1')",
    "exec": "exec('x = 1')",
    "compile": "c = compile('1', 'f', 'eval')",
    "globals": "g = globals()",
    "vars": "v = vars()",
    "__import__": "os = __import__('os')",
    "__class__": "class A:\n    pass\nx = A()\nx.__class__ = int",
    "__subclasses__": "x = object.__subclasses__()",
    "__globals__": "def f():\n    pass\nx = f.__globals__",
    "__builtins__": "x = __builtins__",
    "__dict__": "class A:\n    pass\nx = A.__dict__",
    "__code__": "def f():\n    pass\nx = f.__code__",
    "__base__": "x = int.__base__",
    "gi_frame": "def g():\n    yield 1\nx = g().gi_frame",
    "f_globals": "def f(frame):\n    return frame.f_globals",
    "f_back": "def f(frame):\n    return frame.f_back",
    "tb_frame": "def f(tb):\n    return tb.tb_frame",
    "metaclass": "class A(metaclass=type):\n    pass",
    "relative import": "from . import x",
    "star import": "from math import *",
    "async": "async def f():\n    pass",
    "module private": "import random\nx = random._os",
    "private the program never defines": "def f(ref):\n    return ref._evaluate(None, None, frozenset())",
    "assigning __name__": "class A:\n    pass\nA.__name__ = 'random'",
    "assigning the module's __name__": "__name__ = 'random'",
    "__module__ in a class body": "class A:\n    __module__ = 'random'",
    "three-argument type": "A = type('A', (), {'__module__': 'random'})",
    "type with keywords": "A = type('A', (), {}, x=1)",
}

ACCEPTED = {
    "subscript augmented assignment": "d = {'k': 0}\nd['k'] += 1\nRESULT = d['k']",
    "attribute augmented assignment": "class C:\n    n = 0\nc = C()\nc.n += 1\nRESULT = c.n",
    "annotated assignment": "x: int = 3\ny: list[str]\nRESULT = x",
    "dataclass": "from dataclasses import dataclass, field\n@dataclass\nclass P:\n    name: str\n    n: int = 0\n    tags: list = field(default_factory=list)\nRESULT = P('a').n",
    "single underscore names": "def _helper(_x):\n    _y = _x + 1\n    return _y\nRESULT = _helper(1)",
    "special methods": (
        "class W:\n    def __init__(self, w):\n        self.w = w\n    def __repr__(self):\n        return f'W({self.w})'\n"
        "    def __eq__(self, o):\n        return self.w == o.w\n    def __lt__(self, o):\n        return self.w < o.w\n"
        "    def __hash__(self):\n        return hash(self.w)\nRESULT = repr(min(W(2), W(1)))"
    ),
    "super": "class A:\n    def __init__(self):\n        self.a = 1\nclass B(A):\n    def __init__(self):\n        super().__init__()\nRESULT = B().a",
    "nonlocal": "def f():\n    n = 0\n    def g():\n        nonlocal n\n        n += 1\n    g()\n    return n\nRESULT = f()",
    "global": "N = 0\ndef f():\n    global N\n    N += 1\nf()\nRESULT = N",
    "match": "x = (1, 2)\nmatch x:\n    case (1, y):\n        RESULT = y\n    case _:\n        RESULT = 0",
    "f-strings": "n = 3\nRESULT = f'{n:02d}-{n!r}'",
    "generators": "def g():\n    yield from range(3)\nRESULT = sum(g())",
    "lambda and sorted key": "RESULT = sorted([3, 1, 2], key=lambda v: -v)[0]",
    "comprehensions": "RESULT = len({k: v for k, v in zip('ab', [1, 2])} | {'c': 3})",
    "tuple unpacking": "a, (b, *c) = 1, (2, 3, 4)\nRESULT = a + b + sum(c)",
    "try except finally": "try:\n    1 / 0\nexcept ZeroDivisionError as error:\n    RESULT = type(error).__name__\nfinally:\n    pass",
    "allowed imports": (
        "import collections, itertools, heapq, math, functools, re, copy, bisect, operator, string, typing\n"
        "import dataclasses, random, enum, statistics, fractions\nfrom collections import defaultdict, deque\n"
        "from collections.abc import Iterable\nfrom typing import Dict, List, Set, Tuple\nRESULT = heapq.nsmallest(1, [2, 1])[0]"
    ),
    "operator.itemgetter and attrgetter": "import operator\nRESULT = operator.itemgetter(1)((0, 1))",
    "print": "print('hello')\nRESULT = 1",
    "main guard": "if __name__ == '__main__':\n    RESULT = 0\nelse:\n    RESULT = 1",
    "getattr on ordinary names": "class A:\n    x = 1\nRESULT = getattr(A(), 'x') + hasattr(A, 'y')",
    "isinstance and type": "RESULT = int(isinstance(1, int) and type('a') is str)",
    "walrus": "RESULT = (n := 1)",
    "enum": "from enum import Enum\nclass C(Enum):\n    A = 1\nRESULT = C.A.value",
    "with": "class M:\n    def __enter__(self):\n        return 1\n    def __exit__(self, *a):\n        return False\nwith M() as m:\n    RESULT = m",
    "import queue": "import queue\nq = queue.Queue()\nq.put(2)\nd = queue.deque([1])\nRESULT = q.get() + d[0]",
    "own private attributes": (
        "class C:\n    _count = 0\n    def __init__(self):\n        self._cache = {}\n    def _key(self, x):\n        return x * 2\n"
        "    def get(self, x):\n        if x not in self._cache:\n            self._cache[x] = self._key(x)\n            C._count += 1\n"
        "        return self._cache[x]\nc = C()\nc.get(2)\nc._cache[3] = 1\ndel c._cache[3]\nRESULT = c.get(2) + C._count + getattr(c, '_count')"
    ),
    "class-private attributes": (
        "class C:\n    def __init__(self):\n        self.__x = 1\n        self.__y = [2]\n    def get(self):\n"
        "        self.__y.append(3)\n        return self.__x + sum(self.__y) + len([n for n in [self.__x]])\n"
        "class D(C):\n    def __init__(self):\n        super().__init__()\n        self.__x = 10\nRESULT = D().get()"
    ),
    "private dataclass field": "from dataclasses import dataclass\n@dataclass(order=True, frozen=True)\nclass S:\n    _g: int\n    name: str = 'x'\nRESULT = sorted([S(2), S(1)])[0]._g",
    "slots dataclass": "from dataclasses import dataclass\n@dataclass(slots=True)\nclass S:\n    _g: int\nRESULT = S(3)._g",
    "function attribute": "def f():\n    f._calls += 1\n    return f._calls\nf._calls = 0\nf()\nRESULT = f()",
    "namedtuple API": "from collections import namedtuple\nP = namedtuple('P', 'x y')\np = P(1, 2)._replace(x=3)\nRESULT = p._asdict()['x'] + len(P._fields) + P._make([1, 1]).x",
    "typing.NamedTuple": "from typing import NamedTuple\nclass P(NamedTuple):\n    x: int\n    y: int = 0\nRESULT = P(1)._replace(y=2).y",
    "functools.wraps in a decorator": (
        "import functools\ndef memo(f):\n    cache = {}\n    @functools.wraps(f)\n    def inner(*a):\n        if a not in cache:\n"
        "            cache[a] = f(*a)\n        return cache[a]\n    return inner\n@memo\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
        "RESULT = fib(30) + len(fib.__name__)"
    ),
    "lru_cache and cmp_to_key": (
        "from functools import lru_cache, cmp_to_key, reduce, partial\n@lru_cache(maxsize=None)\ndef sq(n):\n    return n * n\n"
        "RESULT = sorted([3, 1, 2], key=cmp_to_key(lambda a, b: b - a))[0] + sq(3) + reduce(lambda a, b: a + b, [1, 2]) + partial(pow, 2)(3)"
    ),
    "type checks": "class A:\n    pass\nRESULT = int(type(1) is int and type(A()) is A and isinstance(A, type) and type(A) is type and type('x') == str)",
    "str.format and format_map": "RESULT = '{0}-{1[k]}-{x:>3}'.format(1, {'k': 2}, x=3) + '{a}'.format_map({'a': 1}) + str.format('{}', 2)",
    "enum auto and unique": "import enum\n@enum.unique\nclass C(enum.Enum):\n    A = enum.auto()\n    B = enum.auto()\nRESULT = C.B.value + len(list(C))",
    "heapq with own ordering": (
        "import heapq, itertools\nclass N:\n    def __init__(self, f):\n        self.f = f\n    def __lt__(self, other):\n        return self.f < other.f\n"
        "h = []\ncounter = itertools.count()\nfor f in (3, 1, 2):\n    heapq.heappush(h, (f, next(counter), N(f)))\nRESULT = heapq.heappop(h)[2].f"
    ),
}


@pytest.mark.parametrize("label", sorted(REJECTED))
def test_rejected(label: str) -> None:
    with pytest.raises((PolicyViolation, SyntaxError)) as caught:
        compile_program(REJECTED[label])
    if isinstance(caught.value, PolicyViolation):
        assert caught.value.line is not None and "Line" in str(caught.value)


@pytest.mark.parametrize("label", sorted(ACCEPTED))
def test_accepted(label: str) -> None:
    source = ACCEPTED[label] + "\ndef get_plan(objects, init, goal):\n    return [str(RESULT)]\n"
    solve = load_trusted(source)
    assert solve(set(), set(), set()) != ["None"]


RUNTIME_BLOCKED = {
    "typing.sys": "import typing\nRESULT = typing.sys",
    "random._os with a name the program defines": "import random\nclass A:\n    _os = 1\nRESULT = random._os",
    "getattr of a module private": "import random\nRESULT = getattr(random, '_inst')",
    "forward reference with a name the program defines": (
        "import typing\nclass A:\n    def _evaluate(self):\n        pass\nref = typing.get_args(typing.List['x'])[0]\n"
        "RESULT = ref._evaluate(None, None, frozenset())"
    ),
    "private of a library base class": "import random\nclass A:\n    _randbelow = 0\nclass R(random.Random):\n    pass\nRESULT = R()._randbelow",
    "format walks a dunder": "RESULT = '{0.__class__}'.format(1)",
    "format on the class": "RESULT = str.format('{0.__class__}', 1)",
    "format_map walks a private": "import random\nRESULT = '{r._inst}'.format_map({'r': random})",
    "format through getattr": "RESULT = getattr('{0.__class__}', 'format')(1)",
    "format in a nested spec": "RESULT = '{0:{1.__class__}}'.format(1, 2)",
    "three-argument type through a name": "t = type\nRESULT = t('A', (), {})",
    "the metaclass of a class": "import enum\nclass C(enum.Enum):\n    A = 1\nRESULT = type(C)",
    "global_enum": "import enum\nRESULT = enum.global_enum",
    "singledispatch": "import functools\nRESULT = functools.singledispatch",
    "wraps a library function": "import functools, random\ndef f():\n    pass\nRESULT = functools.wraps(random.seed)(f)",
    "update_wrapper with other attributes": "import functools\ndef f():\n    pass\ndef g():\n    pass\nRESULT = functools.update_wrapper(f, g, assigned=('__module__',))",
    "namedtuple in another module": "import collections\nRESULT = collections.namedtuple('P', 'x', module='random')",
    "make_dataclass": "import dataclasses\nRESULT = dataclasses.make_dataclass",
    "setattr __name__": "class A:\n    pass\nsetattr(A, '__name__', 'B')",
    "typing.get_type_hints": "import typing\nRESULT = typing.get_type_hints",
    "string.Formatter": "import string\nRESULT = string.Formatter",
    "getattr dunder": "RESULT = getattr((), '__class__')",
    "attrgetter dunder": "import operator\nRESULT = operator.attrgetter('__class__')(())",
    "methodcaller dunder": "import operator\nRESULT = operator.methodcaller('__subclasses__')(object)",
    "module is read-only": "import math\nsetattr(math, 'pi', 3)",
}


@pytest.mark.parametrize("label", sorted(RUNTIME_BLOCKED))
def test_blocked_at_run_time(label: str) -> None:
    with pytest.raises((AttributeError, TypeError)):
        load_trusted(RUNTIME_BLOCKED[label] + "\ndef get_plan(o, i, g):\n    return []\n")


def test_violation_message_names_line_and_construct() -> None:
    with pytest.raises(PolicyViolation) as caught:
        compile_program("x = 1\n\nimport os\n")
    assert caught.value.line == 3
    assert 'importing "os" is not allowed' in str(caught.value) and "collections" in str(caught.value)


def test_the_hidden_objects_are_found_on_every_python_the_project_supports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``typing.get_overloads`` and ``enum.global_enum`` are new in Python 3.11: on 3.10 the list
    of hidden objects named them outright, so importing the sandbox failed and every run stopped
    with "the sandbox cannot start"."""
    import enum
    import importlib
    import typing

    import genplan.sandbox.views as views

    monkeypatch.delattr(typing, "get_overloads")
    monkeypatch.delattr(enum, "global_enum")
    try:
        reloaded = importlib.reload(views)  # as on Python 3.10
        assert typing.get_type_hints in reloaded.HIDDEN_OBJECTS
        assert len(reloaded.HIDDEN_OBJECTS) == len(set(map(id, reloaded.HIDDEN_OBJECTS)))
    finally:
        monkeypatch.undo()
        importlib.reload(views)
    assert typing.get_overloads in views.HIDDEN_OBJECTS and enum.global_enum in views.HIDDEN_OBJECTS
