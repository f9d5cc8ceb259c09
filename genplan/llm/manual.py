"""The ``manual`` backend: the paper's own protocol (copy the prompt into a chat window, paste the answer back)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from genplan.llm.base import Completion, LLMError, Message, Usage
from genplan.llm.files import transcript


class ManualModel:
    """Prints each prompt and reads the pasted answer until a line equal to ``end_marker``."""

    name = "manual"

    def __init__(
        self,
        input_stream: TextIO | None = None,
        output_stream: TextIO | None = None,
        end_marker: str = "END",
        model: str = "unknown",
    ):
        self.input_stream = input_stream or sys.stdin
        self.output_stream = output_stream or sys.stderr
        self.end_marker = end_marker
        self.model = model

    def complete(self, messages: Sequence[Message], *, sample: int = 0) -> Completion:
        """Show the newest message (the whole transcript for the first) and read the answer.

        Raises:
            LLMError: the input ended before any answer text.
        """
        shown = transcript(messages if len(messages) <= 1 else messages[-1:])
        self.output_stream.write(
            f"\n===== prompt {len(messages) // 2 + 1}{f' (sample {sample})' if sample else ''} =====\n{shown}\n"
            f"===== paste the answer, then a line with {self.end_marker} =====\n"
        )
        self.output_stream.flush()
        lines: list[str] = []
        for line in self.input_stream:
            if line.rstrip("\r\n") == self.end_marker:
                break
            lines.append(line)
        text = "".join(lines).strip("\n")
        if not text:
            raise LLMError(f"no answer was pasted (input ended before a line {self.end_marker})")
        return Completion(text + "\n", Usage(None, None), self.model)
