"""genplan: generalized planning in PDDL domains with language models.

After Silver et al., "Generalized Planning in PDDL Domains with Pretrained Large Language
Models" (AAAI 2024).
"""

from __future__ import annotations

__version__ = "0.1.0"


from genplan.approaches.generalized_plan.solver import load_solver

__all__ = ["__version__", "load_solver"]
