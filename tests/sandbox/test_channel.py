"""The result channel carries capped JSON only: frames, a hostile child, a hostile worker."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator

import pytest

import genplan.sandbox.pool as pool_module
import genplan.sandbox.runner as runner_module
from genplan.sandbox import Isolation, Limits, RunStatus, run_program, run_untrusted
from genplan.sandbox.channel import HEADER, ChannelError, ChannelFault, encode, json_copy, read_frame
from genplan.sandbox.pool import WorkerPool


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    read_end, write_end = os.pipe()
    yield read_end, write_end
    for fd in (read_end, write_end):
        with contextlib.suppress(OSError):
            os.close(fd)


def _fault(read_end: int, cap: int = 1000, seconds: float = 0.2) -> ChannelFault:
    with pytest.raises(ChannelError) as caught:
        read_frame(read_end, cap, time.monotonic() + seconds)
    return caught.value.fault


def test_a_frame_round_trips(pipe: tuple[int, int]) -> None:
    os.write(pipe[1], encode({"plan": ["(a)", "é"], "n": 1.5}))
    assert read_frame(pipe[0], 1000, None) == {"plan": ["(a)", "é"], "n": 1.5}


def test_an_oversized_frame_is_refused_before_its_body(pipe: tuple[int, int]) -> None:
    os.write(pipe[1], HEADER.pack(10**9))
    assert _fault(pipe[0]) is ChannelFault.OVERSIZED


def test_a_late_frame_is_not_waited_for(pipe: tuple[int, int]) -> None:
    os.write(pipe[1], HEADER.pack(10) + b"[1,")
    started = time.monotonic()
    assert _fault(pipe[0]) is ChannelFault.LATE
    assert time.monotonic() - started < 1.0


@pytest.mark.parametrize("body", [b"[1,", b"\xff\xfe", b"NaN", b"[" * 5000 + b"]" * 5000, b""])
def test_a_malformed_frame_is_refused(pipe: tuple[int, int], body: bytes) -> None:
    os.write(pipe[1], HEADER.pack(len(body)) + body)
    assert _fault(pipe[0], cap=20_000) is ChannelFault.MALFORMED


def test_a_closed_pipe_is_reported(pipe: tuple[int, int]) -> None:
    os.write(pipe[1], HEADER.pack(5) + b"[1")
    os.close(pipe[1])
    assert _fault(pipe[0]) is ChannelFault.CLOSED


def test_json_copy_takes_exact_types_only() -> None:
    class Text(str):
        pass

    assert json_copy({"a": [1, 2.5, None, True, "x"]}) == {"a": [1, 2.5, None, True, "x"]}
    for bad in ([Text("x")], {1: "a"}, (1, 2), [float("nan")], {"a": {1, 2}}):
        with pytest.raises(TypeError):
            json_copy(bad)


# -- a child that writes whatever it likes where its result goes --------------------------------

PROBE = "genplan.sandbox.probes:probe"


def _raw(data: bytes, then_sleep: float = 0.0, timeout: float = 2.0):
    return run_untrusted(
        "", PROBE, ["raw-frame", data.hex(), then_sleep], timeout=timeout, limits=Limits(grace_seconds=0.5)
    )


def test_a_child_announcing_a_huge_result_is_crashed() -> None:
    outcome = _raw(HEADER.pack(10**12))
    assert outcome.status is RunStatus.CRASHED and "too large" in (outcome.reason or "")


def test_a_child_sending_garbage_is_crashed() -> None:
    outcome = _raw(HEADER.pack(4) + b"{{{{")
    assert outcome.status is RunStatus.CRASHED and "malformed" in (outcome.reason or "")


def test_a_child_claiming_a_status_it_may_not_is_crashed() -> None:
    outcome = _raw(encode({"status": "timed-out", "seconds": -5}))
    assert outcome.status is RunStatus.CRASHED


def test_a_child_claiming_impossible_seconds_is_not_believed() -> None:
    outcome = _raw(encode({"status": "success", "value": [1], "seconds": 1e300, "stdout": 7}))
    assert outcome.status is RunStatus.SUCCESS and outcome.value == [1]
    assert outcome.seconds < 2.0 and outcome.stdout == ""


def test_a_child_that_stops_midway_times_out_on_time() -> None:
    started = time.monotonic()
    outcome = _raw(HEADER.pack(100) + b"[", then_sleep=30, timeout=1.0)
    assert outcome.status is RunStatus.TIMED_OUT
    assert time.monotonic() - started < 4.0


# -- a worker that answers whatever it likes ------------------------------------------------------

HOSTILE_WORKER = """
import os, struct, sys, time
def frame(body):
    os.write(1, struct.pack('>Q', len(body)) + body)
frame(b'{"ready": true}')
answer = bytes.fromhex(sys.argv[1])
while True:
    header = os.read(0, 8)
    if len(header) < 8:
        break
    length, = struct.unpack('>Q', header)
    while length:
        length -= len(os.read(0, min(length, 1 << 16)))
    os.write(1, answer)
    time.sleep(float(sys.argv[2]))
"""


@pytest.fixture
def hostile_worker(monkeypatch: pytest.MonkeyPatch):
    def install(answer: bytes, then_sleep: float = 0.0) -> None:
        command = [sys.executable, "-c", HOSTILE_WORKER, answer.hex(), str(then_sleep)]
        monkeypatch.setattr(pool_module, "worker_command", lambda isolation, config: command)
        monkeypatch.setattr(runner_module, "POOL", pool)

    pool = WorkerPool()
    yield install
    pool.close()


def _run(timeout: float = 1.0):
    limits = Limits(grace_seconds=0.2, isolation=Isolation.NONE)
    return run_program(
        "def get_plan(o, i, g):\n    return []\n", set(), set(), set(), timeout=timeout, limits=limits
    )


@pytest.mark.parametrize(
    "answer",
    [
        encode({"status": "success", "value": {"plan": [1, None], "seconds": 0.1}}),
        encode({"status": "success", "value": {"plan": "(a)", "seconds": 0.1}}),
        encode({"status": "success", "value": {"plan": ["(a)"], "seconds": -1}}),
        encode({"status": "exploded"}),
        encode(["not", "an", "object"]),
        HEADER.pack(3) + b"abc",
        HEADER.pack(10**15),
    ],
    ids=[
        "non-strings",
        "not a list",
        "negative seconds",
        "unknown status",
        "not an object",
        "garbage",
        "huge",
    ],
)
def test_a_hostile_worker_cannot_make_run_program_raise(hostile_worker, answer: bytes) -> None:
    hostile_worker(answer)
    outcome = _run()
    assert outcome.status is RunStatus.CRASHED, outcome
    assert outcome.plan is None and outcome.reason


def test_a_silent_worker_is_not_waited_for_past_the_deadline(hostile_worker, monkeypatch) -> None:
    hostile_worker(HEADER.pack(50) + b"[", then_sleep=600)
    monkeypatch.setattr(runner_module, "ANSWER_SLACK_SECONDS", 0.5)
    started = time.monotonic()
    outcome = _run(timeout=0.5)
    assert outcome.status is RunStatus.CRASHED and "worker" in (outcome.reason or "")
    assert time.monotonic() - started < 3.0


def test_plain_answers_pass_through(hostile_worker) -> None:
    hostile_worker(encode({"status": "success", "value": {"plan": ["(a)"], "seconds": 0.5}, "seconds": 0.25}))
    outcome = _run()
    assert outcome.status is RunStatus.SUCCESS and outcome.plan == ["(a)"] and outcome.seconds == 0.25
    assert json.dumps(outcome.to_json())
