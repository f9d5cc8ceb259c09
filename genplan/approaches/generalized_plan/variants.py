"""The approaches of Silver et al. 2024, Sec. 5.1, as one settings record.

The main approach uses chain-of-thought summarization, automated debugging and the domain's
own names; each ablation switches one of them off. The paper's GPT-3.5 versus GPT-4
comparison is a choice of model, not a variant.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    """Which parts of the pipeline are on.

    Attributes:
        chain_of_thought: ask for a domain summary and a strategy before the code (Sec. 4.1);
            off is the paper's "No CoT" ablation.
        debugging: give feedback and ask for repairs, up to ``max_feedback_rounds`` times
            (Sec. 4.2); off is "No Debug": the first program is used.
        names: show the domain's own names; off is "No Names": every name is obfuscated,
            feedback included.
    """

    chain_of_thought: bool = True
    debugging: bool = True
    names: bool = True

    @property
    def name(self) -> str:
        """``main``, or the ablations joined by ``+``, e.g. ``no-cot+no-names``."""
        parts = [
            label
            for label, on in (
                ("no-cot", self.chain_of_thought),
                ("no-debug", self.debugging),
                ("no-names", self.names),
            )
            if not on
        ]
        return "+".join(parts) if parts else "main"

    @classmethod
    def from_name(cls, name: str) -> Variant:
        """Inverse of :attr:`name`.

        Raises:
            ValueError: for a part other than ``main``, ``no-cot``, ``no-debug``, ``no-names``.
        """
        if name == "main":
            return cls()
        parts = set(name.split("+"))
        unknown = parts - {"no-cot", "no-debug", "no-names"}
        if unknown:
            raise ValueError(
                f"unknown variant part(s) {sorted(unknown)}; use main, no-cot, no-debug, no-names"
            )
        return cls("no-cot" not in parts, "no-debug" not in parts, "no-names" not in parts)
