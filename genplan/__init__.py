"""genplan: generalized planning in PDDL domains with language models.

After Silver et al., "Generalized Planning in PDDL Domains with Pretrained Large Language
Models" (AAAI 2024). ``from genplan import load_solver`` is resolved on first use, so importing
``genplan`` (and starting the ``genplan`` command) loads nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from genplan.approaches.generalized_plan.solver import load_solver

__all__ = ["__version__", "load_solver"]


def __getattr__(name: str) -> Any:
    if name == "load_solver":
        from genplan.approaches.generalized_plan.solver import load_solver

        return load_solver
    raise AttributeError(f"module 'genplan' has no attribute {name!r}")
