"""Attacks on ``run_program``, one test per kind of attack in issue 11; each is contained.

Most attacks need a way out of the static policy first. ``ESCAPE`` is one that worked before
the policy was tightened (a ``typing`` forward reference evaluated with real builtins); the
attacks that use it check that *something* stops them: the policy now, and the operating-system
layers when the policy has a hole (those layers are also tested alone, with the policy out of
the way, in ``test_isolation.py``).
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from genplan.sandbox import Limits, RunOutcome, RunStatus, run_program

SECRET = f"sk-{uuid.uuid4().hex}"
"""A stand-in for an API key held in the memory of the process that runs programs."""

PARENT_MARKER = Path("/tmp/genplan-test-parent-marker")
SHM_MARKER = Path("/dev/shm/genplan-test-marker")
TMP_MARKER = Path("/tmp/genplan-test-escape-marker")

ESCAPE = """
import typing

def _real(name):
    box = []
    ref = typing.get_args(typing.List['x'])[0]
    code = type(ref)("box.append(__import__(name)) or int")
    code._evaluate({'box': box, 'name': name}, None, frozenset())
    return box[0]
"""
"""Defines ``_real(module_name)``: the real module, with real builtins (a policy escape)."""

LIMITS = Limits(grace_seconds=1.0)


def _run(source: str, objects: set[str] | None = None, timeout: float = 3.0, **kw: object) -> RunOutcome:
    return run_program(
        source, objects or {"a"}, set(), set(), timeout=timeout, limits=kw.pop("limits", LIMITS)
    )


def _everything(outcome: RunOutcome) -> str:
    return repr(outcome.to_json())


def _not_escaped(outcome: RunOutcome, evidence: str = "escaped") -> None:
    assert not (outcome.status is RunStatus.SUCCESS and outcome.plan and evidence in outcome.plan[0]), outcome


@pytest.fixture(autouse=True)
def _clean_markers() -> Iterator[None]:
    for marker in (PARENT_MARKER, SHM_MARKER, TMP_MARKER):
        marker.unlink(missing_ok=True)
    yield
    for marker in (PARENT_MARKER, SHM_MARKER, TMP_MARKER):
        marker.unlink(missing_ok=True)


# -- code execution in the child through what allowed modules hand out -----------------------

CODE_EXECUTION = {
    "attrgetter type": """
import operator, random
def get_plan(objects, init, goal):
    getter = type(operator.attrgetter('x'))('__globals__')
    os = getter(random.Random.seed)['_os']
    return ['escaped ' + str(os.getpid())]
""",
    "methodcaller type": """
import operator, random
def get_plan(objects, init, goal):
    caller = type(operator.methodcaller('x'))('__getattribute__', '__globals__')
    os = caller(random.Random.seed)['_os']
    return ['escaped ' + str(os.getpid())]
""",
    "typing forward reference": ESCAPE
    + """
def get_plan(objects, init, goal):
    return ['escaped ' + str(_real('os').getpid())]
""",
    "update_wrapper copies __globals__": """
import functools, random
def helper():
    pass
def get_plan(objects, init, goal):
    functools.update_wrapper(helper, random.Random.seed, assigned=(), updated=('__globals__',))
    return ['escaped ' + str(_os.getpid())]
""",
    "wraps forges a module": """
import functools, random, dataclasses
def get_plan(objects, init, goal):
    class D:
        x: int = 1
    functools.update_wrapper(D, random.Random.seed, updated=())
    return ['escaped ' + repr(D)]
""",
    "dataclass with a forged field name and module": """
import dataclasses
def get_plan(objects, init, goal):
    name = "a if 0 else __import__('os').getpid()"
    D = type('D', (), {'__annotations__': {name: int}, '__module__': 'no_such_module', '__doc__': 'd'})
    D = dataclasses.dataclass(init=False, eq=False)(D)
    return ['escaped ' + repr(D())]
""",
    "enum.global_enum writes into another module": """
import enum, random
def get_plan(objects, init, goal):
    E = enum.Enum('E', {'shuffle': 1}, module='random')
    enum.global_enum(E)
    return ['escaped ' + str(random.shuffle)]
""",
    "assigning __name__": """
import dataclasses
def get_plan(objects, init, goal):
    class D:
        x: int = 1
    D.__name__ = 'other'
    return ['escaped ' + D.__name__]
""",
    "three-argument type": """
def get_plan(objects, init, goal):
    D = type('D', (), {'__module__': 'random'})
    return ['escaped ' + D.__name__]
""",
    "singledispatch evaluates annotations": """
import functools
box = []
def get_plan(objects, init, goal):
    @functools.singledispatch
    def f(x):
        return x
    def g(x: "box.append(().__class__.__base__) or int"):
        return x
    f.register(g)
    return ['escaped ' + str(box[0])]
""",
}


@pytest.mark.parametrize("label", sorted(CODE_EXECUTION))
def test_code_execution_through_allowed_modules_is_stopped(label: str) -> None:
    outcome = _run(CODE_EXECUTION[label])
    _not_escaped(outcome)
    assert outcome.status is RunStatus.RAISED, outcome


# -- secrets out -----------------------------------------------------------------------------

SECRETS = {
    "str.format walks dunders": """
import random
def get_plan(objects, init, goal):
    return ['{0.__globals__[_os].environ}'.format(random.Random.seed)]
""",
    "str.format on the class": """
import random
def get_plan(objects, init, goal):
    return [str.format('{0.__globals__[_os].environ}', random.Random.seed)]
""",
    "format_map walks dunders": """
import random
def get_plan(objects, init, goal):
    return ['{f.__globals__[_os].environ}'.format_map({'f': random.Random.seed})]
""",
    "format held as a bound method": """
import random
def get_plan(objects, init, goal):
    template = '{0.__globals__[_os].environ}'
    render = getattr(template, 'format')
    return [render(random.Random.seed)]
""",
    "environment through an escape": ESCAPE
    + """
def get_plan(objects, init, goal):
    return [str(dict(_real('os').environ))]
""",
    "memory of the parent through gc": ESCAPE
    + """
def get_plan(objects, init, goal):
    found = [o for o in _real('gc').get_objects() if type(o) is str and o.startswith('sk-') and len(o) == 35]
    return found or ['nothing']
""",
}


@pytest.mark.parametrize("label", sorted(SECRETS))
def test_secrets_stay_in(label: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENPLAN_TEST_API_KEY", SECRET)
    outcome = _run(SECRETS[label])
    assert SECRET not in _everything(outcome)
    assert "GENPLAN_TEST_API_KEY" not in _everything(outcome)
    assert outcome.status is not RunStatus.SUCCESS, outcome


def test_the_program_sees_no_environment_of_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENPLAN_TEST_API_KEY", SECRET)
    outcome = _run(ESCAPE + "def get_plan(objects, init, goal):\n    return sorted(_real('os').environ)\n")
    assert "GENPLAN_TEST_API_KEY" not in _everything(outcome)


# -- no operating-system boundary --------------------------------------------------------------


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.5)
    yield server
    server.close()


def test_no_network(listener: socket.socket) -> None:
    port = listener.getsockname()[1]
    outcome = _run(
        ESCAPE + f"def get_plan(objects, init, goal):\n"
        f"    _real('socket').create_connection(('127.0.0.1', {port}), timeout=1)\n"
        f"    return ['escaped']\n"
    )
    _not_escaped(outcome)
    with pytest.raises(OSError):
        listener.accept()


@pytest.mark.parametrize("path", ["/dev/shm/genplan-test-marker", "/proc/self/comm", str(TMP_MARKER)])
def test_no_writes(path: str) -> None:
    outcome = _run(
        ESCAPE + f"def get_plan(objects, init, goal):\n"
        f"    _real('builtins').open({path!r}, 'w').write('x')\n"
        f"    return ['escaped']\n"
    )
    _not_escaped(outcome)
    assert not SHM_MARKER.exists() and not TMP_MARKER.exists()


def test_no_grandchild_outlives_the_run() -> None:
    marker = TMP_MARKER
    started = time.perf_counter()
    outcome = _run(
        ESCAPE + "def get_plan(objects, init, goal):\n"
        "    os = _real('os')\n"
        "    if os.fork() == 0:\n"
        "        _real('time').sleep(2)\n"
        f"        _real('builtins').open({str(marker)!r}, 'w').close()\n"
        "        os._exit(0)\n"
        "    return ['escaped']\n",
        timeout=1.0,
    )
    assert time.perf_counter() - started < 1.9  # nothing waited for a grandchild
    _not_escaped(outcome)
    time.sleep(2.5)
    assert not marker.exists()


@pytest.fixture
def bystander() -> Iterator[subprocess.Popen]:
    process = subprocess.Popen(["sleep", "60"])
    yield process
    process.kill()
    process.wait()


def test_no_signals_to_other_processes(bystander: subprocess.Popen) -> None:
    outcome = _run(
        ESCAPE + "def get_plan(objects, init, goal):\n"
        f"    _real('os').kill({bystander.pid}, 9)\n"
        f"    _real('os').kill({os.getpid()}, 0)\n"
        "    return ['escaped']\n"
    )
    _not_escaped(outcome)
    assert bystander.poll() is None


# -- the parent itself ---------------------------------------------------------------------------

SUBCLASS_PLANS = {
    "str subclass": """
class S(str):
    def __eq__(self, other):
        return True
    def __hash__(self):
        return 0
def get_plan(objects, init, goal):
    return [S('(noop)')]
""",
    "second iteration differs": """
class L(list):
    def __init__(self):
        self.n = 0
    def __iter__(self):
        self.n += 1
        return iter(['(noop)'] if self.n == 1 else [1, None])
    def __len__(self):
        return 1
def get_plan(objects, init, goal):
    return L()
""",
    "a class in the plan": """
class C:
    pass
class L(list):
    def __init__(self):
        self.n = 0
    def __iter__(self):
        self.n += 1
        return iter(['(noop)'] if self.n == 1 else [C])
def get_plan(objects, init, goal):
    return L()
""",
    "a function in the plan": """
def f():
    return 1
class L(list):
    def __init__(self):
        self.n = 0
    def __iter__(self):
        self.n += 1
        return iter(['(noop)'] if self.n == 1 else [f])
def get_plan(objects, init, goal):
    return L()
""",
    "str subclass that runs code when unpickled": ESCAPE
    + f"""
class S(str):
    pass
def get_plan(objects, init, goal):
    command = ('touch {PARENT_MARKER}',)
    _real('builtins').setattr(S, '__reduce__', lambda self: (_real('os').system, command))
    return [S('(noop)')]
""",
}


@pytest.mark.parametrize("label", sorted(SUBCLASS_PLANS))
def test_the_plan_is_data_only(label: str) -> None:
    outcome = _run(SUBCLASS_PLANS[label])  # never raises
    assert outcome.status in {RunStatus.SUCCESS, RunStatus.BAD_OUTPUT, RunStatus.RAISED}, outcome
    if outcome.status is RunStatus.SUCCESS:
        assert type(outcome.plan) is list and all(type(a) is str for a in outcome.plan)
        assert outcome.plan == ["(noop)"]
    assert not PARENT_MARKER.exists()


def test_a_plan_over_the_cap_is_refused_in_words() -> None:
    outcome = _run(
        "def get_plan(objects, init, goal):\n    return ['(step)' * 1000] * 400\n",
        limits=Limits(grace_seconds=1.0, max_result_bytes=1_000_000),
    )
    assert outcome.status is RunStatus.CRASHED, outcome
    assert "1000000 bytes" in (outcome.reason or "")


def test_a_result_that_never_completes_is_not_waited_for() -> None:
    started = time.perf_counter()
    outcome = _run(
        ESCAPE + "def get_plan(objects, init, goal):\n"
        "    os = _real('os')\n"
        "    for fd in range(3, 64):\n"
        "        try:\n"
        "            os.write(fd, bytes([0, 0, 0, 16, 123]))\n"
        "        except BaseException:\n"
        "            pass\n"
        "    _real('time').sleep(8)\n"
        "    return []\n",
        timeout=1.0,
    )
    assert time.perf_counter() - started < 5
    assert outcome.status is not RunStatus.SUCCESS


# -- misreported outcomes ------------------------------------------------------------------------


def test_a_programs_own_keyboard_interrupt_is_an_exception_not_a_time_out() -> None:
    outcome = _run("def get_plan(objects, init, goal):\n    raise KeyboardInterrupt\n", timeout=5.0)
    assert outcome.status is RunStatus.RAISED, outcome
    assert outcome.seconds < 1.0
    assert (outcome.traceback or "").endswith("KeyboardInterrupt")
    assert 'File "<file-name-omitted>", line 2, in get_plan' in (outcome.traceback or "")
