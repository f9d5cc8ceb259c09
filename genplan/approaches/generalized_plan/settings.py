"""The generalized-plan approach's settings: the paper's protocol and the mechanisms beyond it.

One frozen dataclass (every field a flag of ``genplan run --approach generalized-plan`` and of
``genplan synthesize``, with the paper's value as default, its short name in labels where it has
one, and in ``metadata["flags"]`` the paper's spellings, ``--no-cot`` and ``--no-debug``) and the
run label.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from genplan.approaches.generalized_plan.variants import Variant
from genplan.runs.settings import settings_label

QUALITY_BUDGET_SECONDS = 300.0
"""Wall-clock seconds for the optimal costs of one training set (``quality_budget``): A* runs in
parallel across the cores, smallest problems first; 99 IPC training problems took 31 minutes one
after another, most of them A* runs that never finished in their 60 s."""


@dataclass(frozen=True)
class SynthesisSettings:
    """Settings of the generalized-plan approach; the defaults are the paper's main approach.

    The paper's (Silver et al., AAAI 2024):

    Attributes:
        chain_of_thought: ask for a domain summary and a strategy before the code (Sec. 4.1);
            off is the "No CoT" ablation (Sec. 5.1).
        debugging: give feedback and ask for repairs (Sec. 4.2); off is "No Debug".
        names: show the domain's own names; off is "No Names" (every name obfuscated).
        feedback_rounds: feedback messages at most (the paper's 4).
        timeout: seconds per training run of the program (the paper's 30).
        prompt_problems: training problems shown in the first prompt (the paper's 2).

    Beyond the paper, each off by default, so each is an ablation of the paper's protocol:

    Attributes:
        scaling_feedback: after the program solves every training problem, time it, fit its
            growth and send scaling feedback when the projection to the largest evaluation
            problem exceeds the evaluation budget (:mod:`.scaling`).
        candidates: independent conversations (sample ``k`` for candidate ``k``), each with its
            own debugging budget; the program that solves the most held-out validation
            problems is kept, ties broken by runtime (:mod:`.candidates`).
        check_strategy: the model follows its strategy by hand on a training problem before
            any code, and revises it while VAL rejects the plan (:mod:`.strategy`); needs
            ``chain_of_thought``.
        strategy_rounds: strategy revisions at most with ``check_strategy``.
        reflect: each repair request asks first why the program failed, then for the fix.
        quality_feedback: after the program solves every training problem, compare its plan
            costs with optimal costs and send plan-quality feedback when the mean ratio exceeds
            ``quality_threshold`` (:mod:`.plan_quality`).
        quality_threshold: the largest mean ratio plan cost / optimal cost accepted (>= 1);
            the worst tenth of the problems may reach twice its margin (1.10 for 1.05).
        quality_budget: wall-clock seconds for the optimal costs of the training problems
            (A* in parallel, smallest first); problems without one are listed and left out.
        shuffles: evaluate every problem this many more times with objects and atoms in other
            orders and other hash seeds; solved only if every run is valid (:mod:`.robustness`).

    Raises:
        ValueError: a negative count, fewer than one candidate, or ``check_strategy`` without
            ``chain_of_thought`` (there is no strategy to check).
    """

    chain_of_thought: bool = field(
        default=True,
        metadata={
            "help": "summary and strategy prompts before the code (off: No CoT)",
            "label": "cot",
            "flags": ("--cot",),
        },
    )
    debugging: bool = field(
        default=True,
        metadata={"help": "automated debugging (off: No Debug)", "label": "debug", "flags": ("--debug",)},
    )
    names: bool = field(default=True, metadata={"help": "the domain's own names (off: No Names)"})
    feedback_rounds: int = field(default=4, metadata={"help": "feedback messages at most"})
    timeout: float = field(
        default=30.0, metadata={"help": "seconds per training run of the program", "positive": True}
    )
    prompt_problems: int = field(default=2, metadata={"help": "training problems shown in the first prompt"})
    scaling_feedback: bool = field(
        default=False,
        metadata={
            "help": "beyond the paper: time the program on the training problems, extrapolate to the largest "
            "evaluation problem's size, and send scaling feedback when it would exceed the evaluation budget",
            "label": "scaling",
        },
    )
    quality_feedback: bool = field(
        default=False,
        metadata={
            "help": "beyond the paper: once the program solves every training problem, compare its plan costs "
            "with optimal ones (A* LM-cut) and ask for cheaper plans when the mean ratio exceeds "
            "--quality-threshold; a revision that solves fewer training problems or is not cheaper is not kept",
            "label": "quality",
        },
    )
    quality_threshold: float = field(
        default=1.05,
        metadata={
            "help": "with --quality-feedback: the largest mean ratio plan cost / optimal cost accepted"
        },
    )
    quality_budget: float = field(
        default=QUALITY_BUDGET_SECONDS,
        metadata={
            "help": "with --quality-feedback: wall-clock seconds for the optimal costs of the training problems "
            f"(A* in parallel, smallest first; default {QUALITY_BUDGET_SECONDS:g}); problems left without one are "
            "listed and left out of the ratios"
        },
    )
    candidates: int = field(
        default=1,
        metadata={
            "help": "beyond the paper: independent conversations (programs); the one that solves the most "
            "held-out validation problems is kept, ties broken by runtime",
            "label": "candidates{}",
        },
    )
    check_strategy: bool = field(
        default=False,
        metadata={
            "help": "beyond the paper: before any code, the model follows its strategy on a training problem and "
            "revises it while VAL rejects the plan"
        },
    )
    strategy_rounds: int = field(
        default=2, metadata={"help": "strategy revisions at most with --check-strategy"}
    )
    reflect: bool = field(
        default=False,
        metadata={
            "help": "beyond the paper: each repair request asks first why the program failed, then the fix"
        },
    )
    shuffles: int = field(
        default=0,
        metadata={
            "help": "beyond the paper: run each evaluation problem this many more times with objects and atoms "
            "in other orders and hash seeds; solved only if every run is valid",
            "label": "shuffles{}",
        },
    )

    def __post_init__(self) -> None:
        for name in ("feedback_rounds", "prompt_problems", "strategy_rounds", "shuffles"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be at least 0, not {getattr(self, name)}")
        if self.quality_threshold < 1:
            raise ValueError(f"quality_threshold must be at least 1, not {self.quality_threshold}")
        if not self.quality_budget > 0:
            raise ValueError(f"quality_budget must be more than 0 seconds, not {self.quality_budget}")
        if self.candidates < 1:
            raise ValueError(f"candidates must be at least 1, not {self.candidates}")
        if self.check_strategy and not self.chain_of_thought:
            raise ValueError(
                "check_strategy needs chain_of_thought: without it there is no strategy to check"
            )

    @property
    def variant(self) -> Variant:
        """Which of the paper's ablations these settings are (Sec. 5.1)."""
        return Variant(self.chain_of_thought, self.debugging, self.names)

    @property
    def label(self) -> str:
        """The run's name: every setting that differs from the paper's, in field order, joined by
        ``+`` (:func:`~genplan.runs.settings.settings_label`): the paper's variants first (``main``,
        ``no-cot``, ``no-cot+no-names``), then the rest (``candidates3+check-strategy+reflect``,
        ``no-cot+scaling``, ``shuffles4``, ``feedback-rounds-2``); settings at the paper's values
        give the paper's names, so saved runs keep theirs."""
        return settings_label(self, None)
