"""Soundness tests of one transition: exact (against the PDDL model) and partial (the paper's kind).

The paper's Step 3 runs a *partial soundness test* on every transition a search generates
(Cao et al., AAAI 2025, Sec. 4.4), written by hand per domain (24 Game: a successor has one
number fewer; BlocksWorld: as many clear blocks as blocks on the table). genplan has the PDDL
model, so :class:`TransitionChecks` offers both:

* the exact test: the successor must be the result of one applicable ground action
  (:class:`~genplan.plans.successors.SuccessorGenerator`), and, for completeness, every such
  result (other than the state itself: a no-op changes nothing a search needs) must be produced;
* a domain-independent partial test, for the paper's protocol: every new atom is a ground atom
  of the domain over the problem's objects, and the static facts (atoms of predicates no action
  adds or deletes) are unchanged. Like the paper's, it catches obviously wrong transitions only.

Trusted code: it runs inside the sandbox child on states the model's code produced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from genplan.approaches.autotos.states import State, atom_text
from genplan.plans.successors import SuccessorGenerator


class TransitionChecks:
    """The tests of one problem's transitions.

    Args:
        generator: the problem's successor generator (the ground truth).
        predicates: every predicate of the domain mapped to its number of arguments.
        static: the predicates no action adds or deletes.
        objects: the problem's object names (constants included).
    """

    def __init__(
        self,
        generator: SuccessorGenerator,
        predicates: Mapping[str, int],
        static: Sequence[str],
        objects: Sequence[str],
    ):
        self.generator = generator
        self.predicates = dict(predicates)
        self.static = frozenset(static)
        self.objects = frozenset(objects)
        self._truth: dict[State, frozenset[State]] = {}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TransitionChecks:
        """From a task as :func:`genplan.approaches.autotos.examples.task_json` writes it.

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not such a task.
        """
        return cls(
            SuccessorGenerator.from_json(data["generator"]),
            {str(k): int(v) for k, v in data["predicates"].items()},
            [str(p) for p in data["static"]],
            [str(o[0]) if isinstance(o, list) else str(o) for o in data["objects"]],
        )

    def successors(self, state: State) -> frozenset[State]:
        """Every state one applicable ground action leads to from ``state`` (cached)."""
        known = self._truth.get(state)
        if known is None:
            known = frozenset(successor for _, successor in self.generator.successors(state))
            if len(self._truth) < 100_000:
                self._truth[state] = known
        return known

    def exact_soundness(self, state: State, successor: State) -> bool:
        """Whether ``successor`` is the result of one applicable ground action in ``state``."""
        return successor in self.successors(state)

    def missing(self, state: State, produced: set[State]) -> list[State]:
        """Successors of ``state`` (other than ``state`` itself) not in ``produced``."""
        return [s for s in self.successors(state) if s != state and s not in produced]

    def partial_soundness(self, state: State, successor: State) -> str | None:
        """Why the transition fails the partial test, or ``None`` when it passes."""
        for atom in sorted(successor - state):
            reason = self._malformed(atom)
            if reason is not None:
                return (
                    f"Invalid transition: the successor state contains {atom_text(atom)}, which is not a "
                    f"ground atom of this problem ({reason})."
                )
        lost = sorted(a for a in state - successor if a[0] in self.static)
        gained = sorted(a for a in successor - state if a[0] in self.static)
        if lost or gained:
            changes = []
            if lost:
                changes.append("lost " + ", ".join(atom_text(a) for a in lost[:5]))
            if gained:
                changes.append("gained " + ", ".join(atom_text(a) for a in gained[:5]))
            names = ", ".join(sorted(self.static))
            return (
                f"Invalid transition: static facts changed. No action adds or deletes atoms of the "
                f"predicates {names}, but the successor state {' and '.join(changes)}."
            )
        return None

    def _malformed(self, atom: tuple[str, ...]) -> str | None:
        arity = self.predicates.get(atom[0])
        if arity is None:
            return f"the domain has no predicate {atom[0]!r}"
        if len(atom) - 1 != arity:
            return f"predicate {atom[0]!r} takes {arity} arguments, not {len(atom) - 1}"
        for argument in atom[1:]:
            if argument not in self.objects:
                return f"{argument!r} is not an object of the problem"
        return None
