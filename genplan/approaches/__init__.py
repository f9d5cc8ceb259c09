"""Stage 4, approaches: each way a language model helps solve a PDDL domain, one folder each.

An approach uses the lower stages (:mod:`genplan.pddl`, :mod:`genplan.plans`,
:mod:`genplan.sandbox`, :mod:`genplan.llm`) and never another approach. The interface they
share is :mod:`genplan.approaches.base`. :data:`REGISTRY` names every approach; its entries
are import paths, loaded on first use, so listing approaches (the command line's choices)
imports none of them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from genplan.errors import ConfigurationError

if TYPE_CHECKING:  # listing the names imports no approach and not the seam either
    from genplan.approaches.base import Approach

REGISTRY: dict[str, str] = {
    "generalized-plan": "genplan.approaches.generalized_plan.approach:GeneralizedPlan",
    "autotos": "genplan.approaches.autotos.approach:AutoToS",
    "io": "genplan.approaches.planners.approach:IO",
    "io-cot": "genplan.approaches.planners.approach:IOCoT",
    "react": "genplan.approaches.planners.approach:ReAct",
    "react-select": "genplan.approaches.planners.approach:ReActSelect",
    "toi-bfs": "genplan.approaches.planners.approach:ToIBFS",
    "toi-dfs": "genplan.approaches.planners.approach:ToIDFS",
    "boomerang": "genplan.approaches.planners.approach:Boomerang",
    "symplanner": "genplan.approaches.planners.approach:SymPlanner",
    "asp": "genplan.approaches.asp.approach:AspApproach",
    "pg3": "genplan.approaches.pg3.approach:PG3",
    "pe": "genplan.approaches.pg3.approach:PE",
    "pc": "genplan.approaches.pg3.approach:PC",
}
"""Approach name -> ``module:Class`` of its :class:`~genplan.approaches.base.Approach`."""

EVALUATIONS: dict[str, str] = {
    "evaluate-program": "genplan.approaches.generalized_plan.given:GivenProgram",
    "evaluate-policy": "genplan.approaches.pg3.given:GivenPolicy",
}
"""Evaluations of a given program or policy (``genplan evaluate``): approaches on the same seam,
composed like any run, but not among :func:`approach_names` (nothing to learn: ``genplan run``
does not offer them)."""


def approach_names() -> list[str]:
    """Registered approach names, in registration order (:data:`EVALUATIONS` are not among them)."""
    return list(REGISTRY)


def get_approach(name: str) -> Approach:
    """The approach registered as ``name`` (in :data:`REGISTRY` or :data:`EVALUATIONS`), ready to run.

    Raises:
        ConfigurationError: no approach has that name; the message lists the known ones.
    """
    target = REGISTRY.get(name) or EVALUATIONS.get(name)
    if target is None:
        raise ConfigurationError(f"unknown approach {name!r}; known approaches: {', '.join(REGISTRY)}")
    module_name, class_name = target.split(":")
    approach: Approach = getattr(importlib.import_module(module_name), class_name)()
    return approach
