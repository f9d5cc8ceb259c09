"""The ``files:DIR`` backend: any person or external agent answers prompts through files.

For each request genplan writes ``DIR/NNNN.prompt.md`` (a readable transcript: every message
under a heading naming its role) and ``DIR/NNNN.prompt.json`` (the same messages as JSON), then
waits for ``DIR/NNNN.response.md`` (UTF-8 text). The answer is read once the file has stopped
changing for one poll interval, so a half-written file is not taken; an answer file that stays
empty is an error rather than a wait until the time-out. A request whose prompt is already in
DIR with a response is answered from it (runs resume). Requests may come from several threads
or processes at once (each gets its own number: the prompt file is created exclusively); a request for sample ``k > 0`` of the same messages gets a
prompt of its own, its JSON then ``{"sample": k, "messages": [...]}``. While it waits, the
backend says which file it waits for (on standard error, like the ``manual`` backend's prompts).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from genplan.llm.base import Completion, LLMError, Message, Usage


def transcript(messages: Sequence[Message]) -> str:
    """The Markdown transcript of a conversation: ``## role`` headings, then each message's text."""
    parts = [f"## {message.role}\n\n{message.content.rstrip()}\n" for message in messages]
    return "\n".join(parts)


class FilesModel:
    """Exchange prompts and answers through files in ``directory``.

    Args:
        directory: where prompts are written and answers expected (created if needed).
        timeout: seconds to wait for one answer before giving up.
        poll_interval: seconds between checks for the answer file.
        model: the model name to record for answers (whoever answers).
        empty_grace: seconds an answer file may stay empty (an editor may create it before
            writing) before that is an error.
        output_stream: where the backend says which answer file it waits for (default: standard
            error); a line is written only when it must wait.
    """

    name = "files"

    def __init__(
        self,
        directory: Path,
        timeout: float = 86_400.0,
        poll_interval: float = 1.0,
        model: str = "unknown",
        empty_grace: float = 60.0,
        output_stream: TextIO | None = None,
    ):
        self.directory = Path(directory)
        self.timeout = timeout
        self.poll_interval = poll_interval
        self.model = model
        self.empty_grace = empty_grace
        self.output_stream = output_stream or sys.stderr
        self._lock = threading.Lock()

    def _existing(self, request: object) -> Path | None:
        for prompt_json in sorted(self.directory.glob("*.prompt.json")):
            try:
                if json.loads(prompt_json.read_text(encoding="utf-8")) == request:
                    return prompt_json
            except ValueError:
                continue
        return None

    def _next_number(self) -> int:
        numbers = [
            int(p.name.split(".")[0])
            for p in self.directory.glob("*.prompt.json")
            if p.name.split(".")[0].isdigit()
        ]
        return max(numbers, default=0) + 1

    def _claim(self, request_json: str) -> Path:
        """Write ``request_json`` as the next free ``NNNN.prompt.json`` and return its path.

        The file is created exclusively, so processes sharing the directory (the workers of
        an experiment grid) never take the same number: a process that finds its number
        taken tries the next one.
        """
        number = self._next_number()
        while True:
            path = self.directory / f"{number:04d}.prompt.json"
            try:
                with path.open("x", encoding="utf-8") as stream:
                    stream.write(request_json)
                return path
            except FileExistsError:
                number += 1

    def complete(self, messages: Sequence[Message], *, sample: int = 0) -> Completion:
        """Write the prompt files (unless already there) and wait for the answer.

        Raises:
            LLMError: no answer within ``timeout`` seconds (the prompt stays for a later run), an
                answer file still empty after ``empty_grace`` seconds, or one that is not UTF-8.
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        as_json = [m.to_json() for m in messages]
        request: object = {"sample": sample, "messages": as_json} if sample else as_json
        with self._lock:
            prompt_json = self._existing(request)
            if prompt_json is None:
                prompt_json = self._claim(json.dumps(request, indent=1, ensure_ascii=False))
                stem = prompt_json.name.split(".")[0]
                (self.directory / f"{stem}.prompt.md").write_text(transcript(messages), encoding="utf-8")
        stem = prompt_json.name.split(".")[0]
        response = self.directory / f"{stem}.response.md"
        deadline = time.monotonic() + self.timeout
        last_size = -1
        empty_since: float | None = None
        if not response.is_file():
            prompt_md = self.directory / f"{stem}.prompt.md"
            self.output_stream.write(
                f"genplan: waiting for the answer in {response} (the prompt is {prompt_md}; "
                f"waiting up to {_duration(self.timeout)})\n"
            )
            self.output_stream.flush()
        while time.monotonic() < deadline:
            if response.is_file():
                size = response.stat().st_size
                if size == last_size and size > 0:
                    return Completion(_answer_text(response), Usage(None, None), self.model)
                if size == 0:
                    empty_since = empty_since if empty_since is not None else time.monotonic()
                    if time.monotonic() - empty_since >= self.empty_grace:
                        raise LLMError(
                            f"{response} is empty; write the answer into it (or delete it) and run the same "
                            "command again (answered prompts are not asked again)"
                        )
                else:
                    empty_since = None
                last_size = size
            time.sleep(self.poll_interval)
        raise LLMError(
            f"no answer in {response} after {self.timeout:g} s; write the answer there and run the same command "
            "again (answered prompts are not asked again)"
        )


def _duration(seconds: float) -> str:
    """``86400`` -> ``"24 h"``, ``90`` -> ``"90 s"``: a wait as a person reads it."""
    if seconds >= 3600:
        return f"{seconds / 3600:g} h"
    if seconds >= 600:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"


def _answer_text(response: Path) -> str:
    """The answer file's text.

    Raises:
        LLMError: the file is not UTF-8 text (names the file and line).
    """
    data = response.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise LLMError(
            f"{response}:{line}: the answer is not UTF-8 text (byte 0x{data[error.start]:02x}); save it as UTF-8 "
            "and run the same command again"
        ) from error
