"""Programs compiled once: the policy's code objects kept by the source's digest.

Compiling under the policy (:func:`genplan.sandbox.policy.compile_program`: a parse, the
RestrictedPython transformer and genplan's passes) costs 6-10x a plain ``compile()``, 8-40 ms
for a model's program, and an evaluation runs one program on dozens of problems. The sandbox
worker and trusted mode therefore compile each program once and keep the code object.

Compiling runs none of the program's code: the source is parsed and transformed as data by
genplan's own code, and the result is an immutable code object. The worker compiles before it
forks; every call's child runs the program's top level itself, in a fresh module, so isolation
per call is what it was (state a call leaves behind dies with its child). The worker keeps the
code of one program only, the one it is running: when another program comes, the old code
object and whatever compiling left behind are freed before the fork, so nothing of an earlier
program is alive in a later program's child (``tests/sandbox/test_os_layer.py``). A source that does
not compile is not kept: its call's child compiles it again, confined, and reports the error as
it always has. Sources over :data:`MAX_PRECOMPILED_CHARS` are not compiled ahead either, so the
worker's own memory and time spent on a hostile source stay bounded; the worker charges the
time it spent compiling to the call, as when the child compiled.
"""

from __future__ import annotations

import gc
import hashlib
import threading
import types
from collections import OrderedDict

from genplan.sandbox.policy import compile_program

MAX_PRECOMPILED_CHARS = 64 * 1024
"""The longest source compiled ahead: a model's program is a few thousand characters, and
compiling under the policy takes about 22 microseconds a character (64 KiB: about 1.4 s)."""

KEPT_PROGRAMS = 64
"""Code objects kept in trusted mode; the least recently used goes first."""


def source_digest(source: str) -> str:
    """The SHA-256 of ``source`` as UTF-8 (surrogates escaped), hex: the key of its code object."""
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()


class CompiledPrograms:
    """Code objects of programs compiled under the policy, by source digest (an LRU cache; safe
    to share between threads).

    Args:
        capacity: the most code objects kept.
        collect_garbage: after each compilation (and the evictions it makes), collect the garbage
            left, so that nothing of a program no longer kept is alive (the sandbox worker).
    """

    def __init__(self, capacity: int = KEPT_PROGRAMS, *, collect_garbage: bool = False):
        self.capacity = capacity
        self.collect_garbage = collect_garbage
        self._codes: OrderedDict[str, types.CodeType] = OrderedDict()
        self._lock = threading.Lock()
        self.compiled = 0
        """Compilations done (tests and benchmarks read it)."""

    def code(self, source: str) -> types.CodeType | None:
        """``source`` compiled under the policy, from the cache when it was compiled before.

        Returns:
            The code object, or ``None`` when the source is over :data:`MAX_PRECOMPILED_CHARS`
            (every code object kept is then dropped, as a new program's compilation would) or
            does not compile (a syntax error, a policy violation, or anything else the
            compiler raises): the caller compiles it where errors are reported. Never raises.
        """
        if len(source) > MAX_PRECOMPILED_CHARS:
            self.forget()  # the earlier programs' code must not outlive them in any case
            return None
        try:
            return self.compile(source)
        except Exception:  # SyntaxError, PolicyViolation, RecursionError, MemoryError, ValueError
            return None

    def forget(self) -> None:
        """Drop every code object kept (and, with ``collect_garbage``, what they left behind)."""
        with self._lock:
            self._codes.clear()
        if self.collect_garbage:
            gc.collect()

    def compile(self, source: str) -> types.CodeType:
        """``source`` compiled under the policy, from the cache when it was compiled before (a
        source that does not compile is compiled again on each call, and raises again).

        Raises:
            SyntaxError, PolicyViolation: as :func:`~genplan.sandbox.policy.compile_program`.
        """
        key = source_digest(source)
        with self._lock:
            code = self._codes.get(key)
            if code is not None:
                self._codes.move_to_end(key)
                return code
            self.compiled += 1
            while len(self._codes) >= self.capacity:
                self._codes.popitem(last=False)
        try:
            code = compile_program(source)
        finally:
            if self.collect_garbage:
                gc.collect()
        with self._lock:
            self._codes[key] = code
            self._codes.move_to_end(key)
            while len(self._codes) > self.capacity:
                self._codes.popitem(last=False)
        return code
