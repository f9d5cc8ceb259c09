"""A corpus of hostile programs: each ends in a clear non-success, changes nothing outside,
and leaves the calling process usable."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from genplan.sandbox import Limits, RunStatus, run_program

MARKER = Path("/tmp/genplan-sandbox-escape-marker")
GOOD = "def get_plan(objects, init, goal):\n    return ['(noop)']\n"


def _wrap(body: str) -> str:
    indented = "\n".join("    " + line for line in body.strip().splitlines())
    return f"def get_plan(objects, init, goal):\n{indented}\n    return []\n"


HOSTILE: dict[str, str] = {
    "read /etc/passwd": _wrap("return open('/etc/passwd').read().splitlines()"),
    "read ~/.ssh": _wrap("return open(os.path.expanduser('~/.ssh/id_rsa')).read().split()"),
    "write a file": _wrap(f"open('{MARKER}', 'w').write('escaped')"),
    "os.system": "import os\n" + _wrap(f"os.system('touch {MARKER}')"),
    "subprocess": "import subprocess\n" + _wrap(f"subprocess.run(['touch', '{MARKER}'])"),
    "os.fork": "import os\n" + _wrap("os.fork()"),
    "socket": "import socket\n" + _wrap("socket.create_connection(('127.0.0.1', 22))"),
    "importlib": "import importlib\n" + _wrap("importlib.import_module('os').system('true')"),
    "__import__": _wrap(f"__import__('os').system('touch {MARKER}')"),
    "builtins module": "import builtins\n" + _wrap("builtins.open('/etc/passwd')"),
    "builtins via dict": _wrap("b = __builtins__['open']"),
    "subclasses escape": _wrap("return [c.__name__ for c in ().__class__.__base__.__subclasses__()]"),
    "mro escape": _wrap("return [str(c) for c in type(()).mro()[1].__subclasses__()]"),
    "getattr escape": _wrap("return getattr(getattr((), '__class__'), '__base__')"),
    "generator frame walk": "def gen():\n    yield 1\n"
    + _wrap("g = gen()\nreturn g.gi_frame.f_back.f_globals"),
    "function globals": "def helper():\n    pass\n" + _wrap("return helper.__globals__['__builtins__']"),
    "traceback frame walk": _wrap(
        "try:\n    1 / 0\nexcept Exception as e:\n    return e.__traceback__.tb_frame.f_globals"
    ),
    "typing.sys": "import typing\n" + _wrap(f"typing.sys.modules['os'].system('touch {MARKER}')"),
    "random._os": "import random\n" + _wrap(f"random._os.system('touch {MARKER}')"),
    "get_type_hints eval": "import typing\n" + _wrap("return typing.get_type_hints(get_plan)"),
    "string.Formatter": "import string\n"
    + _wrap("return string.Formatter().get_field('0.__class__', [()], {})"),
    "attrgetter": "import operator\n" + _wrap("return operator.attrgetter('__class__.__base__')(())"),
    "eval": _wrap("return eval('1')"),
    "exec": _wrap("exec('import os')"),
    "compile": _wrap("return compile('1', 'x', 'eval')"),
    "globals": _wrap("return globals()"),
    "vars": _wrap("return vars()"),
    "sys.exit": "import sys\n" + _wrap("sys.exit(0)"),
    "os._exit": "import os\n" + _wrap("os._exit(0)"),
    "raise SystemExit": _wrap("raise SystemExit(0)"),
    "fork bomb": "import os\n" + _wrap("while True:\n    os.fork()"),
    "memory bomb": _wrap("blocks = []\nwhile True:\n    blocks.append(' ' * 10**9)"),
    "one huge allocation": _wrap("return ['x'] * 10**11"),
    "recursion bomb": "def down(n):\n    return down(n + 1)\n" + _wrap("return down(0)"),
    "endless output": _wrap("while True:\n    print('x' * 10000)"),
    "endless loop": _wrap("while True:\n    pass"),
    "swallows the interrupt": _wrap(
        "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass"
    ),
    "endless C-level call": _wrap("return [str(sum(range(10**12)))]"),
    "huge power": _wrap("return [str(pow(7, 10**10))]"),
    "syntax error": "def get_plan(objects, init, goal)\n    return []\n",
    "no get_plan": "def something_else():\n    return []\n",
    "mutates its inputs": _wrap("init.clear()\nobjects.clear()\nraise ValueError('mutated')"),
}


@pytest.fixture(autouse=True)
def _no_marker():
    MARKER.unlink(missing_ok=True)
    yield
    MARKER.unlink(missing_ok=True)


def test_the_corpus_is_big_enough() -> None:
    assert len(HOSTILE) >= 30


@pytest.mark.parametrize("label", sorted(HOSTILE))
def test_hostile_program(label: str) -> None:
    init = frozenset({("at", "a")})
    objects = {"a", "b"}
    outcome = run_program(
        HOSTILE[label],
        objects,
        set(init),
        set(),
        timeout=1.0,
        limits=Limits(grace_seconds=1.0, max_output_bytes=100_000),
    )
    assert outcome.status is not RunStatus.SUCCESS or outcome.plan == [], (label, outcome)
    assert outcome.status in {RunStatus.RAISED, RunStatus.TIMED_OUT, RunStatus.CRASHED, RunStatus.SUCCESS}
    assert outcome.traceback or outcome.reason, outcome
    assert not MARKER.exists(), "the program changed something outside the sandbox"
    assert objects == {"a", "b"}  # the caller's inputs are untouched
    follow_up = run_program(GOOD, objects, init, set(), timeout=5.0)
    assert follow_up.status is RunStatus.SUCCESS and follow_up.plan == ["(noop)"]


def test_kinds_of_outcome_are_readable() -> None:
    limits = Limits(grace_seconds=1.0, max_output_bytes=100_000)

    def run(label: str):
        return run_program(HOSTILE[label], set(), set(), set(), timeout=1.0, limits=limits)

    assert "memory" in (run("one huge allocation").reason or "")
    assert "recursion" in (run("recursion bomb").reason or "")
    assert "printed more than" in (run("endless output").reason or "")
    swallowed = run("swallows the interrupt")
    assert swallowed.status is RunStatus.TIMED_OUT
    policy = run("os.system")
    assert policy.status is RunStatus.RAISED and 'importing "os" is not allowed' in (policy.traceback or "")
    assert "<file-name-omitted>" in (policy.traceback or "")


def test_the_parent_keeps_its_pid_and_files() -> None:
    pid = os.getpid()
    run_program(HOSTILE["os._exit"], set(), set(), set(), timeout=1.0)
    run_program(HOSTILE["raise SystemExit"], set(), set(), set(), timeout=1.0)
    assert os.getpid() == pid
