"""What genplan models, in unified-planning's words: the engine's ``ProblemKind``.

genplan models one fragment of PDDL, declared once in :data:`genplan.pddl.fragment.CONSTRUCTS`.
:data:`UP_FEATURES` gives, for each construct the table marks *modelled*, the UP problem-kind
features that stand for it; :func:`supported_kind` is their union, so the engine declares
exactly the table's modelled rows and nothing else. A modelled construct added to the table
without an entry here makes :func:`supported_kind` raise, so the two cannot drift apart.

Two places where UP's kinds are coarser than the table, and what the engine does about them:
UP counts a negated goal as a ``NEGATIVE_CONDITIONS`` feature, as it does a negated precondition,
and a negative action cost as ``INT_NUMBERS_IN_ACTIONS_COST``; genplan refuses both
(``negative-goals``, and costs below 0), so a problem of a supported kind can still be refused
when it is written to PDDL and loaded; the engine then answers ``UNSUPPORTED_PROBLEM`` and
names the construct (:mod:`genplan.up.engine`).
"""

from __future__ import annotations

from unified_planning.model import ProblemKind

from genplan.pddl.fragment import CONSTRUCTS

KIND_VERSION = 2
"""The ``ProblemKind`` version the features below are named in (Fast Downward's engine uses it too)."""

UP_FEATURES: dict[str, tuple[str, ...]] = {
    "strips": ("ACTION_BASED",),
    "typing": ("FLAT_TYPING", "HIERARCHICAL_TYPING"),
    "negative-preconditions": ("NEGATIVE_CONDITIONS",),
    "equality": ("EQUALITIES",),
    "constants": (),  # UP has objects only; the PDDL writer makes those actions name constants
    "action-costs": (
        "ACTIONS_COST",
        "STATIC_FLUENTS_IN_ACTIONS_COST",
        "INT_NUMBERS_IN_ACTIONS_COST",
        "REAL_NUMBERS_IN_ACTIONS_COST",
        "UNDEFINED_INITIAL_NUMERIC",  # a cost function with values for some arguments only
        "PLAN_LENGTH",  # UP's writer gives every action (increase (total-cost) 1)
    ),
}
"""Each modelled construct of :data:`~genplan.pddl.fragment.CONSTRUCTS` (by key) and the UP
problem-kind features it covers."""


def supported_kind() -> ProblemKind:
    """The problem kind genplan's engine accepts: the features of every modelled construct.

    Raises:
        KeyError: a construct the table marks modelled has no entry in :data:`UP_FEATURES`,
            or an entry names a construct the table does not model (a programming error).
    """
    modelled = {construct.key for construct in CONSTRUCTS if construct.modelled}
    if modelled != set(UP_FEATURES):
        raise KeyError(
            f"genplan.up.kind.UP_FEATURES does not match the PDDL table: missing "
            f"{sorted(modelled - set(UP_FEATURES))}, not modelled {sorted(set(UP_FEATURES) - modelled)}"
        )
    return ProblemKind(
        [feature for key in sorted(modelled) for feature in UP_FEATURES[key]], version=KIND_VERSION
    )
