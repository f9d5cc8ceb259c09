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
import select
import struct
import time
from enum import Enum
from typing import Any

HEADER = struct.Struct(">Q")
"""A frame's length prefix."""

MAX_DEPTH = 64
"""How deeply JSON values may nest."""


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


def decode(body: bytes) -> Any:
    """The JSON value of a frame body.

    ``json.loads`` builds exact types only (``dict``, ``list``, ``str``, ``int``, ``float``,
    ``bool``, ``None``), so the value is plain data whatever the sender was.

    Raises:
        ChannelError: ``MALFORMED`` for anything that is not UTF-8 JSON (``NaN`` and
            ``Infinity`` are refused, and so is nesting past the recursion limit).
    """
    try:
        return json.loads(body.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:
        raise ChannelError(ChannelFault.MALFORMED, f"the message is not valid JSON ({error})") from None


def write_frame(fd: int, value: Any) -> None:
    """Write one frame holding ``value`` to ``fd`` (blocking until it is all written)."""
    view = memoryview(encode(value))
    while view:
        written = os.write(fd, view)
        view = view[written:]


class FrameReader:
    """Reads one frame from ``fd`` in pieces, so a caller can watch other things meanwhile.

    Args:
        fd: the pipe to read.
        cap: the largest body accepted, in bytes.
    """

    def __init__(self, fd: int, cap: int):
        self.fd = fd
        self.cap = cap
        self._header = b""
        self._length: int | None = None
        self._parts: list[bytes] = []
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
            return
        chunk = os.read(self.fd, min(self._length - self._size, 1 << 20))
        if not chunk:
            raise ChannelError(ChannelFault.CLOSED, "the pipe closed before a whole message arrived")
        self._parts.append(chunk)
        self._size += len(chunk)

    def value(self) -> Any:
        """The frame's JSON value (once :attr:`done`); ``ChannelError`` if malformed."""
        return decode(b"".join(self._parts))


def read_frame(fd: int, cap: int, deadline: float | None) -> Any:
    """Read one frame from ``fd`` by ``deadline`` (a ``time.monotonic()`` value, or ``None``).

    Raises:
        ChannelError: the frame was late, oversized, malformed, or the pipe closed first.
    """
    reader = FrameReader(fd, cap)
    while not reader.done:
        timeout = None if deadline is None else deadline - time.monotonic()
        if timeout is not None and timeout <= 0:
            raise ChannelError(ChannelFault.LATE, "no whole message arrived in time")
        readable, _, _ = select.select([fd], [], [], timeout)
        if readable:
            reader.feed()
    return reader.value()
