"""genplan's fixed interface between a model-written ASP encoding and the problems it plans for.

The model writes the *dynamics* of a domain as an answer-set program for clingo, in the three
parts of clingo's incremental mode (Gebser et al., *Potassco User Guide*, Sec. 4; the ``incmode``
convention):

* ``#program base.`` — time-independent knowledge (text before any ``#program`` is base too);
* ``#program step(t).`` — the transition from state ``t-1`` to state ``t`` (``t = 1, 2, ...``):
  which actions may occur (``occurs(A,t)``), their preconditions (on state ``t-1``), their
  effects (``holds(F,t)`` for what becomes true, ``deleted(F,t)`` for what becomes false);
* ``#program check(t).`` — optional rules about every state ``t = 0, 1, ...`` (state
  constraints, derived properties).

genplan owns the rest (:data:`FRAME_BASE`, :func:`frame_step`, :data:`FRAME_CHECK`):

* the problem as facts in base: ``object(O)``, ``type(O,T)`` (every type of O, ancestors
  included, ``object`` left out; typed domains only), ``init(F)`` per initial atom, ``goal(F)`` per goal atom;
* ``holds(F,0) :- init(F).`` and inertia, ``holds(F,t) :- holds(F,t-1), not deleted(F,t).``
  (so an atom both deleted and added holds, as in PDDL);
* one action per step, or any non-empty set of actions when the encoding has the fact
  ``parallel.`` (then the actions of one step must be executable in any order: genplan lists
  them in sorted order);
* the goal test at the horizon, and the horizon itself (increased one step at a time, so the
  first plan found has the fewest steps); optionally (:data:`FRAME_DISTINCT`), that no state
  repeats.

PDDL names become ASP constants (:class:`AspNames`: lower case, ``-`` becomes ``_``), a ground
atom ``(at ball-1 rooma)`` is the term ``at(ball_1,rooma)``, and a plan is read back from the
``occurs(A,T)`` atoms of the answer set, in order of ``T``, as PDDL actions ``(pick ball-1 rooma
left)``, so :func:`genplan.plans.validate.check_plan` checks it like every other plan.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from genplan.pddl.domain import ROOT_TYPE, Atom, Domain
from genplan.pddl.problem import Problem

RESERVED = ("object/1", "type/2", "init/1", "goal/1", "holds/2", "occurs/2", "deleted/2", "parallel/0")
"""Predicates with a fixed meaning in the interface (genplan's internal ones start with ``genplan_``)."""

FRAME_BASE = """\
#defined object/1. #defined type/2. #defined init/1. #defined goal/1.
#defined holds/2. #defined occurs/2. #defined deleted/2. #defined parallel/0.
holds(F,0) :- init(F).
"""
"""genplan's part of ``base``: the initial state from the ``init`` facts."""

FRAME_CHECK = """\
#external genplan_query(t).
:- genplan_query(t), goal(F), not holds(F,t).
"""
"""genplan's part of ``check(t)``: the goal test, switched on at the horizon only."""


FRAME_DISTINCT = """\
genplan_time(t).
genplan_differs(S,t) :- genplan_time(S), S < t, holds(F,S), not holds(F,t).
genplan_differs(S,t) :- genplan_time(S), S < t, holds(F,t), not holds(F,S).
:- genplan_time(S), S < t, not genplan_differs(S,t).
"""
"""genplan's optional part of ``check(t)``: no state repeats (a plan with a repeated state is
never a shortest one, so the fewest steps do not change, and clingo proves "no plan up to
horizon H" without walking in circles)."""


def frame_step(*, require_action: bool) -> str:
    """genplan's part of ``step(t)``: inertia and the number of actions per step (at most one,
    any number with ``parallel.``; a step without an action is idle and left out of the plan).

    Args:
        require_action: whether the step must have an action (the successor check).
    """
    text = "holds(F,t) :- holds(F,t-1), not deleted(F,t).\n:- not parallel, #count{ A : occurs(A,t) } > 1.\n"
    if require_action:
        text += "genplan_acted(t) :- occurs(_,t).\n:- not genplan_acted(t).\n"
    return text


_IDENTIFIER = re.compile(r"[a-z][A-Za-z0-9_']*\Z")
_KEYWORDS = frozenset({"not", "inf", "sup"})


def _asp_identifier(name: str) -> str:
    """A PDDL name as an ASP constant: lower case, ``-`` and other characters as ``_``."""
    text = re.sub(r"[^a-z0-9_]", "_", name.lower())
    if not text or not text[0].isalpha() or text in _KEYWORDS:
        text = "n_" + text
    return text


@dataclass(frozen=True)
class AspNames:
    """A bijection between the PDDL names of a domain and its problems and ASP constants.

    Attributes:
        to_asp: PDDL name -> ASP constant (``at-robby`` -> ``at_robby``).
        to_pddl: the inverse.
    """

    to_asp: Mapping[str, str]
    to_pddl: Mapping[str, str]

    @classmethod
    def build(cls, names: Iterable[str]) -> AspNames:
        """Names for ``names`` (sorted first, so the mapping does not depend on their order); a
        clash after the rewrite gets a numeric suffix (``a_b``, ``a_b_2``)."""
        to_asp: dict[str, str] = {}
        taken: set[str] = set()
        for name in sorted(set(names)):
            candidate = base = _asp_identifier(name)
            suffix = 2
            while candidate in taken:
                candidate = f"{base}_{suffix}"
                suffix += 1
            to_asp[name] = candidate
            taken.add(candidate)
        return cls(to_asp, {asp: pddl for pddl, asp in to_asp.items()})

    @classmethod
    def for_problems(cls, domain: Domain, problems: Iterable[Problem] = ()) -> AspNames:
        """Names for the domain's predicates, operators, types and constants and the problems' objects."""
        names = {*domain.predicates, *domain.operators, *domain.types, *domain.constants, ROOT_TYPE}
        for problem in problems:
            names.update(problem.object_types)
        return cls.build(names)

    def extended(self, problem: Problem) -> AspNames:
        """These names plus any object of ``problem`` not named yet (evaluation problems bring
        objects the training problems lacked); existing names keep their constants."""
        missing = [o for o in problem.object_types if o not in self.to_asp]
        if not missing:
            return self
        to_asp = dict(self.to_asp)
        taken = set(self.to_pddl)
        for name in sorted(missing):
            candidate = base = _asp_identifier(name)
            suffix = 2
            while candidate in taken:
                candidate = f"{base}_{suffix}"
                suffix += 1
            to_asp[name] = candidate
            taken.add(candidate)
        return AspNames(to_asp, {asp: pddl for pddl, asp in to_asp.items()})

    def asp(self, name: str) -> str:
        """The ASP constant of PDDL ``name`` (rewritten on the fly when unknown)."""
        return self.to_asp.get(name) or _asp_identifier(name)

    def term(self, atom: Atom) -> str:
        """A ground atom as an ASP term: ``('at', 'ball-1', 'rooma')`` -> ``at(ball_1,rooma)``."""
        head = self.asp(atom[0])
        if len(atom) == 1:
            return head
        return f"{head}({','.join(self.asp(a) for a in atom[1:])})"

    def pddl_atom(self, flat: Sequence[str]) -> Atom:
        """An ASP term read back (``['pick', 'ball_1', 'rooma', 'left']``) as a PDDL atom."""
        return tuple(self.to_pddl.get(part, part) for part in flat)

    def renamed(self) -> list[tuple[str, str]]:
        """``(PDDL name, ASP constant)`` pairs that differ, sorted (shown in prompts)."""
        return sorted((p, a) for p, a in self.to_asp.items() if p != a)


def problem_facts(
    problem: Problem,
    names: AspNames,
    *,
    state: Iterable[Atom] | None = None,
    with_init: bool = True,
    with_goal: bool = True,
) -> str:
    """The problem as the facts genplan adds to ``base``.

    Args:
        problem: the problem (objects and their types; initial state and goal unless replaced).
        names: the PDDL-to-ASP names.
        state: atoms to use as the ``init`` facts instead of the problem's initial state.
        with_init / with_goal: whether to add ``init`` / ``goal`` facts at all.

    Returns:
        One fact per line: ``object(O).``, ``type(O,T).`` (typed domains), ``init(F).``, ``goal(F).``.
    """
    domain = problem.domain
    lines = []
    for obj, type_name in sorted(problem.object_types.items()):
        constant = names.asp(obj)
        lines.append(f"object({constant}).")
        if domain.typed:
            lines.extend(f"type({constant},{names.asp(t)})." for t in type_ancestry(domain, type_name))
    if with_init:
        atoms = problem.init if state is None else state
        lines.extend(f"init({names.term(atom)})." for atom in sorted(atoms))
    if with_goal:
        lines.extend(f"goal({names.term(atom)})." for atom in sorted(problem.goal))
    return "\n".join(lines) + "\n"


def type_ancestry(domain: Domain, type_name: str) -> list[str]:
    """``type_name`` and its ancestors, nearest first, without the root type ``object``."""
    chain: list[str] = []
    current: str | None = type_name
    while current is not None and current != ROOT_TYPE and current not in chain:
        chain.append(current)
        current = domain.types.get(current, ROOT_TYPE)
    return chain


def action_text(atom: Atom) -> str:
    """A PDDL action as a plan line: ``('pick', 'b1', 'r', 'left')`` -> ``(pick b1 r left)``."""
    return "(" + " ".join(atom) + ")"


def is_constant_name(text: str) -> bool:
    """Whether ``text`` is a valid ASP constant (``at_robby``, not ``At`` or ``at-robby``)."""
    return bool(_IDENTIFIER.match(text)) and text not in _KEYWORDS
