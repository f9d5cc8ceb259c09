"""genplan inside the unified-planning library (UP): a saved generalized plan as a planning engine.

``import genplan.up`` registers the engine with UP's factory, so ``OneshotPlanner(name="genplan",
params={"program": "gripper"})`` answers UP problems with a saved program's checked plans
(:mod:`genplan.up.engine`). UP problems reach the rest of genplan as PDDL written by UP's own
writer: :func:`load_up_problem` gives genplan's problem of one, :func:`write_problem_set` a folder
``genplan synthesize``/``run``/``evaluate --domain`` take, and :func:`read_up_plan` a saved plan in
the UP problem's own names. Needs the ``up`` extra: ``pip install "genplan[up]"``.
"""

from __future__ import annotations

try:
    import unified_planning  # noqa: F401
except ImportError as error:  # pragma: no cover - the extra is installed wherever tests run
    raise ImportError('genplan.up needs unified-planning: pip install "genplan[up]"') from error

from genplan.up.engine import ENGINE_NAME, GenplanEngine, register
from genplan.up.errors import EngineSettingError, UnsupportedUpProblem
from genplan.up.kind import supported_kind
from genplan.up.pddl import LoadedProblem, load_up_problem, read_up_plan, up_plan
from genplan.up.problem_sets import WrittenProblemSet, write_problem_set

register()

__all__ = [
    "ENGINE_NAME",
    "EngineSettingError",
    "GenplanEngine",
    "LoadedProblem",
    "UnsupportedUpProblem",
    "WrittenProblemSet",
    "load_up_problem",
    "read_up_plan",
    "register",
    "supported_kind",
    "up_plan",
    "write_problem_set",
]
