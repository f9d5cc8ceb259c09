"""``OneshotPlanner(name="genplan")``: a saved generalized plan as a unified-planning engine.

The engine answers a UP problem with the plan a saved ``get_plan`` program (Silver et al. 2024,
Sec. 4.1) returns for it, after genplan's plan checker has found that plan valid:

1. the problem is written to PDDL by UP's writer and loaded by genplan (:mod:`genplan.up.pddl`):
   a construct genplan does not model is ``UNSUPPORTED_PROBLEM``, naming it;
2. the program runs on it, in the sandbox unless ``trusted`` (:mod:`genplan.sandbox`);
3. the plan is checked (:func:`genplan.plans.validate.check_plan`: VAL, or genplan's simulator
   where VAL cannot serve); only a valid plan is answered ``SOLVED_SATISFICING``, as a
   ``SequentialPlan`` over the problem's own actions and objects. A program that fails or returns
   an invalid plan is ``INTERNAL_ERROR`` with no plan, a plan too late is ``TIMEOUT``; the log
   messages give the program's path, the checker's verdict and, on failure, why.

``solve(problem, timeout=T)`` gives the whole call ``T`` seconds (writing, the program, the
check). In the sandbox a program past its budget is stopped; a trusted program runs in-process
and cannot be stopped, so its plan, when it comes too late, is answered ``TIMEOUT``.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import IO, Any

from unified_planning.engines import Credits, Engine, LogLevel, LogMessage
from unified_planning.engines import PlanGenerationResult as Result
from unified_planning.engines import PlanGenerationResultStatus as Status
from unified_planning.engines.mixins import OneshotPlannerMixin
from unified_planning.environment import Environment, get_environment

from genplan.approaches.generalized_plan.solver import SolverError, load_solver, read_program, saved_program
from genplan.errors import ConfigurationError, GenplanError, PddlError, ValidatorError
from genplan.paths import builtin_domain_names
from genplan.pddl.fragment import UnsupportedPddl
from genplan.plans.costs import cost_text
from genplan.plans.failures import FailureKind
from genplan.plans.untrusted_text import shown_block
from genplan.plans.validate import CHECK_SECONDS, CHECKERS, check_plan
from genplan.sandbox import IsolationUnavailable, Limits, RunStatus, isolation_report
from genplan.up import kind
from genplan.up.errors import EngineSettingError, UnsupportedUpProblem
from genplan.up.pddl import load_up_problem, up_plan

ENGINE_NAME = "genplan"
"""The name the engine is registered under in UP's factory."""

_CREDITS = Credits(
    name="genplan",
    author="the genplan authors",
    contact="the genplan authors (CITATION.cff)",
    website="https://doi.org/10.1609/aaai.v38i18.30006",
    license="MIT",
    short_description="A saved generalized plan (a Python program) as a domain solver; every plan checked.",
    long_description=(
        "genplan runs a generalized plan, a get_plan(objects, init, goal) program written by a "
        "language model for a PDDL domain (Silver et al., AAAI 2024), on each problem, in a "
        "sandbox, and answers only plans its checker (VAL, or its STRIPS simulator) finds valid."
    ),
)


def resolve_program(program: str | Path | None) -> Path:
    """The program file the engine's ``program`` parameter names: a file, or a built-in domain
    name whose best saved program is used (:func:`~genplan.approaches.generalized_plan.solver.saved_program`,
    as ``load_solver`` does).

    Raises:
        EngineSettingError: no ``program``, a name that is neither a file nor a built-in domain,
            no saved program for the domain, or a file that is not a Python program.
    """
    if program is None or str(program) == "":
        raise EngineSettingError(
            'the genplan engine needs a program: OneshotPlanner(name="genplan", params={"program": '
            '"path/to/program.py"}), or a built-in domain name ("gripper") for its saved program'
        )
    try:
        path = Path(program)
        if not path.is_file():
            if str(program) not in builtin_domain_names():
                raise EngineSettingError(
                    f"program {str(program)!r} is neither a program file nor a built-in domain "
                    f"({', '.join(builtin_domain_names())})"
                )
            path = saved_program(str(program))
        read_program(path)  # a file that is not Python stops here, not at the first problem
    except EngineSettingError:
        raise
    except ConfigurationError as error:
        raise EngineSettingError(str(error)) from error
    return path


def _flag(value: object, name: str) -> bool:
    """A boolean parameter, given as a bool or as UP configuration files write it ("true")."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise EngineSettingError(f"the genplan engine's {name} must be true or false, not {value!r}")


class GenplanEngine(Engine, OneshotPlannerMixin):  # type: ignore[misc]
    """A UP ``OneshotPlanner`` backed by a saved generalized plan (see the module's description).

    Created by UP's factory: ``OneshotPlanner(name="genplan", params={...})``, the params being
    these arguments.

    Args:
        program: a ``get_plan`` program file, or a built-in domain name (its best saved program).
        trusted: run the program in-process, without the sandbox: fastest, but only for a
            program you have reviewed; a trusted program is not stopped at the timeout.
        checker: who checks each plan: ``"auto"`` (VAL, or genplan's simulator where VAL cannot
            serve), ``"val"`` (VAL only) or ``"simulator"``.
        isolation: the sandbox's isolation, ``"bwrap"`` (bubblewrap) or ``"none"`` (where
            bubblewrap cannot run; the policy and resource limits still apply).
        name_mapping: a No-Names run's ``name_mapping.json``; by default the one beside the
            program, if any.

    Raises:
        EngineSettingError: a parameter that cannot be used (named), or a sandbox that cannot
            start here (the message says how to enable it or to pass ``isolation="none"``).
    """

    def __init__(
        self,
        program: str | Path | None = None,
        trusted: bool | str = False,
        checker: str = "auto",
        isolation: str = "bwrap",
        name_mapping: str | Path | None = None,
    ):
        Engine.__init__(self)
        OneshotPlannerMixin.__init__(self)
        self.program = resolve_program(program)
        self.trusted = _flag(trusted, "trusted")
        if checker not in CHECKERS:
            raise EngineSettingError(
                f"the genplan engine's checker must be one of {', '.join(CHECKERS)}, not {checker!r}"
            )
        self.checker = checker
        try:
            self.limits = Limits(isolation=isolation)  # type: ignore[arg-type]
        except ValueError as error:
            raise EngineSettingError(
                f"the genplan engine's isolation must be bwrap or none, not {isolation!r}"
            ) from error
        self.name_mapping = name_mapping
        if not self.trusted:
            try:
                isolation_report(self.limits.isolation)  # the worker starts now: the first solve is fast
            except IsolationUnavailable as error:
                raise EngineSettingError(
                    f"{error} (or pass isolation='none' to the genplan engine)"
                ) from error

    @property
    def name(self) -> str:
        return ENGINE_NAME

    @staticmethod
    def supported_kind() -> Any:
        """The problem kind genplan models (:func:`genplan.up.kind.supported_kind`)."""
        return kind.supported_kind()

    @staticmethod
    def supports(problem_kind: Any) -> bool:
        """Whether ``problem_kind`` is within :meth:`supported_kind` (UP's ``solve`` raises
        ``UPUsageError`` for any other kind)."""
        return bool(problem_kind <= kind.supported_kind())

    @staticmethod
    def get_credits(**kwargs: Any) -> Credits:
        return _CREDITS

    def _solve(
        self,
        problem: Any,
        heuristic: Any = None,
        timeout: float | None = None,
        output_stream: IO[str] | tuple[IO[str], IO[str]] | None = None,
    ) -> Result:
        if heuristic is not None:
            warnings.warn("the genplan engine ignores the heuristic: its program plans alone", stacklevel=3)
        call = _Call(self, timeout)
        result = call.run(problem)
        if output_stream is not None:
            stream = output_stream[0] if isinstance(output_stream, tuple) else output_stream
            stream.write(
                "".join(f"{message.level.name}: {message.message}\n" for message in result.log_messages)
            )
        return result


class _Call:
    """One ``solve``: its clock, its log and its metrics."""

    def __init__(self, engine: GenplanEngine, timeout: float | None):
        self.engine = engine
        self.timeout = timeout
        self.started = time.monotonic()
        self.logs = [LogMessage(LogLevel.INFO, f"program: {engine.program}")]
        self.metrics: dict[str, str] = {}

    def left(self) -> float | None:
        """Seconds left of the timeout, or ``None`` without one."""
        return None if self.timeout is None else self.timeout - (time.monotonic() - self.started)

    def answer(self, status: Status, plan: Any = None, error: str | None = None) -> Result:
        if error is not None:
            self.logs.append(LogMessage(LogLevel.ERROR, error))
        self.metrics["engine_internal_time"] = f"{time.monotonic() - self.started:.6f}"
        return Result(status, plan, ENGINE_NAME, metrics=self.metrics, log_messages=self.logs)

    def run(self, problem: Any) -> Result:
        try:
            loaded = load_up_problem(problem)
        except (UnsupportedUpProblem, UnsupportedPddl) as error:
            return self.answer(
                Status.UNSUPPORTED_PROBLEM, error=f"genplan does not take this problem: {error}"
            )
        except PddlError as error:
            return self.answer(Status.INTERNAL_ERROR, error=f"UP's PDDL did not load in genplan: {error}")
        left = self.left()
        if left is not None and left <= 0:
            return self.answer(
                Status.TIMEOUT, error=f"the timeout ({self.timeout:g} s) passed while the problem was written"
            )
        engine = self.engine
        try:
            solver = load_solver(
                loaded.problem.domain,
                program=engine.program,
                trusted=engine.trusted,
                limits=engine.limits,
                name_mapping=engine.name_mapping,
            )
        except (GenplanError, SyntaxError) as error:  # a mapping that does not load, a policy violation
            return self.answer(
                Status.INTERNAL_ERROR, error=f"the program cannot run: {shown_block(str(error))}"
            )
        started = time.monotonic()
        try:
            actions = solver(loaded.problem, timeout=left)  # without a timeout: load_solver's budget
        except SolverError as error:
            self.metrics["program_seconds"] = f"{time.monotonic() - started:.6f}"
            status = Status.TIMEOUT if error.status is RunStatus.TIMED_OUT else Status.INTERNAL_ERROR
            return self.answer(status, error=str(error))
        self.metrics["program_seconds"] = f"{time.monotonic() - started:.6f}"
        left = self.left()
        if left is not None and left <= 0:
            return self.answer(
                Status.TIMEOUT,
                error=f"the program returned its plan after the timeout ({self.timeout:g} s): "
                "a trusted program runs in-process and is not stopped",
            )
        return self.checked(loaded, actions, left)

    def checked(self, loaded: Any, actions: list[str], left: float | None) -> Result:
        started = time.monotonic()
        try:
            verdict = check_plan(
                loaded.problem,
                actions,
                checker=self.engine.checker,
                seconds=CHECK_SECONDS if left is None else left,
            )
        except ValidatorError as error:
            return self.answer(Status.INTERNAL_ERROR, error=f"the plan could not be checked: {error}")
        self.metrics["check_seconds"] = f"{time.monotonic() - started:.6f}"
        self.metrics["checked_by"] = verdict.checker_used
        if verdict.notice is not None:
            self.logs.append(LogMessage(LogLevel.INFO, verdict.notice))
        if verdict.kind is FailureKind.TIMEOUT:
            return self.answer(Status.TIMEOUT, error=f"checked by {verdict.checker_used}: {verdict.message}")
        if not verdict.valid:
            kind_name = verdict.kind.value if verdict.kind is not None else "invalid"
            return self.answer(
                Status.INTERNAL_ERROR,
                error=f"the program's plan is not valid ({kind_name}, checked by {verdict.checker_used}): "
                + shown_block(verdict.message),
            )
        assert verdict.cost is not None  # a valid plan has its cost
        self.metrics["plan_cost"] = cost_text(verdict.cost)
        self.logs.append(
            LogMessage(
                LogLevel.INFO,
                f"checked by {verdict.checker_used}: valid plan, {len(actions)} actions, cost {cost_text(verdict.cost)}",
            )
        )
        return self.answer(Status.SOLVED_SATISFICING, up_plan(loaded.up_problem, loaded.text.writer, actions))


def register(environment: Environment | None = None) -> None:
    """Add the engine to UP's factory as ``"genplan"`` (once; ``import genplan.up`` does this).

    The engine is chosen by name only: it is left out of the factory's preference list, since a
    planner picked by problem kind gets no ``program``.
    """
    factory = (environment or get_environment()).factory
    if ENGINE_NAME not in factory.engines:
        factory.add_engine(ENGINE_NAME, __name__, GenplanEngine.__name__)
    factory.preference_list = [
        name
        for name in factory.preference_list
        if name != ENGINE_NAME and not name.endswith(f"[{ENGINE_NAME}]")
    ]
