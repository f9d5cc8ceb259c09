"""The sandbox's channels: length-prefixed JSON frames with a size cap and a deadline.

genplan and its sandbox worker, and the worker and each child it forks, talk through pipes in
frames: an 8-byte big-endian length, then that many bytes of UTF-8 JSON. Nothing else crosses:
no pickles, so reading a frame never runs code of the sender's choosing. A reader refuses a
frame longer than its cap before reading the body, stops at its deadline, and turns every
malformed frame into a :class:`ChannelError` that says what was wrong; :func:`json_copy`
checks, on the sending side, that a value holds only exact JSON types.
"""

from __future__ import annotations

import json
import math
import os
import re
import select
import struct
import time
from enum import Enum
from typing import Any

HEADER = struct.Struct(">Q")
"""A frame's length prefix."""

MAX_DEPTH = 64
"""How deeply JSON values may nest."""

MAX_VALUES = 2_000_000
"""How many JSON values (strings, numbers, lists, objects, ...) one frame may hold: a result of
millions of tiny strings would cost the reader a gigabyte however few bytes it took."""

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class ChannelFault(str, Enum):
    """What was wrong with a frame."""

    CLOSED = "closed"
    """The sender closed the pipe before a whole frame arrived."""
    OVERSIZED = "oversized"
    """The frame was longer than the reader's cap."""
    LATE = "late"
    """The deadline passed before a whole frame arrived."""
    MALFORMED = "malformed"
    """The bytes were not JSON of the expected shape."""


class ChannelError(Exception):
    """A frame could not be read.

    Attributes:
        fault: what was wrong (:class:`ChannelFault`).
        detail: a person-readable account.
    """

    def __init__(self, fault: ChannelFault, detail: str):
        super().__init__(detail)
        self.fault = fault
        self.detail = detail


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999 reads as infinity
        raise ValueError(f"{text[:40]} is not a finite number")
    return number


def json_copy(value: object, *, max_depth: int = MAX_DEPTH) -> Any:
    """A copy of ``value`` made of exact JSON types only, or ``TypeError`` naming what is not.

    Accepted: ``None``, ``bool``, ``int``, finite ``float``, ``str``, ``list`` and ``dict``
    with ``str`` keys, each of exactly that type (``type(x) is str``: a subclass is refused,
    so no method of the sender's runs while the copy is encoded or read).
    """
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is float:
        if not math.isfinite(value):  # type: ignore[arg-type]
            raise TypeError("a JSON number must be finite")
        return value
    if max_depth <= 0:
        raise TypeError(f"the value nests more than {MAX_DEPTH} levels deep")
    if kind is list:
        return [json_copy(item, max_depth=max_depth - 1) for item in value]  # type: ignore[attr-defined]
    if kind is dict:
        copy = {}
        for key, item in value.items():  # type: ignore[attr-defined]
            if type(key) is not str:
                raise TypeError(f"a JSON object key must be a str, not {type(key).__name__}")
            copy[key] = json_copy(item, max_depth=max_depth - 1)
        return copy
    raise TypeError(f"{kind.__name__} is not a JSON type")


def encode(value: Any) -> bytes:
    """One frame holding ``value`` (which must be JSON of exact types)."""
    body = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    return HEADER.pack(len(body)) + body


def check_shape(text: str, *, max_values: int = MAX_VALUES, max_depth: int = MAX_DEPTH) -> None:
    """Count ``text``'s JSON values and measure its nesting *before* it is decoded.

    Strings are skipped by one regular expression (so brackets and commas inside them do not
    count); what is left is counted in C (``str.count``), and the nesting is measured by
    removing innermost bracket pairs ``max_depth`` times. The count is an upper bound: every
    value but the first follows a comma or opens a list or object.

    Raises:
        ChannelError: ``OVERSIZED`` for more than ``max_values`` values, ``MALFORMED`` for
            nesting deeper than ``max_depth``.
    """
    skeleton = _STRING.sub('"', text)
    values = 1 + skeleton.count(",") + skeleton.count("[") + skeleton.count("{")
    if values > max_values:
        raise ChannelError(
            ChannelFault.OVERSIZED,
            f"the message holds about {values:,} values, over the limit of {max_values:,}",
        )
    brackets = _NOT_BRACKET.sub("", skeleton)
    del skeleton
    for _ in range(max_depth):
        if not brackets:
            return
        shorter = brackets.replace("[]", "").replace("{}", "")
        if len(shorter) == len(brackets):
            return  # unbalanced: json.loads will say so
        brackets = shorter
    if brackets:
        raise ChannelError(ChannelFault.MALFORMED, f"the message nests more than {max_depth} levels deep")


def decode(body: bytes | bytearray, *, max_values: int = MAX_VALUES) -> Any:
    """The JSON value of a frame body, its size checked before it is built.

    ``json.loads`` builds exact types only (``dict``, ``list``, ``str``, ``int``, ``float``,
    ``bool``, ``None``), so the value is plain data whatever the sender was. Before it runs,
    :func:`check_shape` bounds the number of values and the nesting.

    Raises:
        ChannelError: ``MALFORMED`` for anything that is not UTF-8 JSON (``NaN`` and
            ``Infinity`` are refused, and so are numbers too large to be finite and lone
            surrogates, and nesting deeper than :data:`MAX_DEPTH`); ``OVERSIZED`` for too
            many values.
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ChannelError(ChannelFault.MALFORMED, f"the message is not UTF-8 ({error})") from None
    return decode_text(text, max_values=max_values)


def decode_text(text: str, *, max_values: int = MAX_VALUES) -> Any:
    """:func:`decode` for a body already read as text."""
    check_shape(text, max_values=max_values)
    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except (ValueError, RecursionError) as error:
        raise ChannelError(ChannelFault.MALFORMED, f"the message is not valid JSON ({error})") from None
    if "\\ud" in text or "\\uD" in text:
        _reject_surrogates(value)
    return value


def _reject_surrogates(value: Any) -> None:
    """Lone surrogates (``"\\ud800"``) decode to strings that cannot be encoded again."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is str:
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ChannelError(ChannelFault.MALFORMED, "the message holds a lone surrogate") from None
        elif type(item) is list:
            stack.extend(item)
        elif type(item) is dict:
            stack.extend(item.keys())
            stack.extend(item.values())


def write_frame(fd: int, value: Any) -> None:
    """Write one frame holding ``value`` to ``fd`` (blocking until it is all written)."""
    write_body(fd, encode(value))


def write_body(fd: int, frame: bytes) -> None:
    """Write an encoded frame (:func:`encode`) to ``fd`` (blocking until it is all written)."""
    view = memoryview(frame)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class FrameReader:
    """Reads one frame from ``fd`` in pieces, so a caller can watch other things meanwhile.

    Args:
        fd: the pipe to read.
        cap: the largest body accepted, in bytes.
    """

    def __init__(self, fd: int, cap: int, max_values: int = MAX_VALUES):
        self.fd = fd
        self.cap = cap
        self.max_values = max_values
        self._header = b""
        self._length: int | None = None
        self._buffer: bytearray | None = None
        self._size = 0

    @property
    def done(self) -> bool:
        """Whether a whole frame has been read."""
        return self._length is not None and self._size == self._length

    @property
    def started(self) -> bool:
        """Whether any byte has arrived."""
        return bool(self._header)

    def feed(self) -> None:
        """Read what is available now (call when ``fd`` is readable).

        The body is read into one buffer of the announced length (no list of pieces joined at
        the end), so a frame costs its length once while it is read.

        Raises:
            ChannelError: ``CLOSED`` at end of file before a whole frame, ``OVERSIZED`` for a
                frame over the cap.
        """
        if self._length is None:
            chunk = os.read(self.fd, HEADER.size - len(self._header))
            if not chunk:
                raise ChannelError(ChannelFault.CLOSED, "the pipe closed before a whole message arrived")
            self._header += chunk
            if len(self._header) == HEADER.size:
                (length,) = HEADER.unpack(self._header)
                if length > self.cap:
                    raise ChannelError(
                        ChannelFault.OVERSIZED,
                        f"the message has {length} bytes, over the cap of {self.cap} bytes",
                    )
                self._length = length
                self._buffer = bytearray(length)
            return
        assert self._buffer is not None
        end = min(self._length, self._size + (1 << 20))
        with memoryview(self._buffer) as view:
            count = os.readv(self.fd, [view[self._size : end]])
        if not count:
            raise ChannelError(ChannelFault.CLOSED, "the pipe closed before a whole message arrived")
        self._size += count

    def value(self) -> Any:
        """The frame's JSON value (once :attr:`done`); ``ChannelError`` if malformed or too
        many values. The raw bytes are released before the value is built."""
        buffer, self._buffer = self._buffer or bytearray(), None
        try:
            text = buffer.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ChannelError(ChannelFault.MALFORMED, f"the message is not UTF-8 ({error})") from None
        del buffer
        return decode_text(text, max_values=self.max_values)


def read_frame(fd: int, cap: int, deadline: float | None, max_values: int = MAX_VALUES) -> Any:
    """Read one frame from ``fd`` by ``deadline`` (a ``time.monotonic()`` value, or ``None``).

    Raises:
        ChannelError: the frame was late, oversized (bytes, values or nesting), malformed, or
            the pipe closed first.
    """
    reader = FrameReader(fd, cap, max_values)
    while not reader.done:
        timeout = None if deadline is None else deadline - time.monotonic()
        if timeout is not None and timeout <= 0:
            raise ChannelError(ChannelFault.LATE, "no whole message arrived in time")
        readable, _, _ = select.select([fd], [], [], timeout)
        if readable:
            reader.feed()
    return reader.value()
