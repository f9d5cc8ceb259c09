"""Saved synthesized programs used as fast domain solvers.

``load_solver("heavy")`` returns a callable mapping a problem (a loaded
:class:`~genplan.pddl.problem.Problem` or a problem file) to a plan, using the saved program in
``synthesized/heavy/``. By default every call runs in the sandbox with a time budget, through a
persistent sandbox worker (a few milliseconds per call on top of the program's own time);
``trusted=True`` runs a program you have reviewed in-process instead (the fastest path).
"""

from __future__ import annotations

import json
from pathlib import Path

from genplan.errors import ConfigurationError, GenplanError
from genplan.paths import builtin_domain_file, builtin_domain_names, data_folder
from genplan.pddl.domain import Domain, load_domain
from genplan.pddl.problem import Problem, load_problem
from genplan.pddl.problem_sets import unknown_domain
from genplan.plans.untrusted_text import is_printable_ascii, shown_block, shown_text
from genplan.sandbox import Limits, RunStatus, isolation_report, load_trusted, run_program


class SolverError(GenplanError):
    """The program failed on a problem: it raised, timed out, crashed or returned no plan."""


def saved_programs(domain_name: str) -> list[Path]:
    """Saved run folders of ``domain_name`` that hold a ``program.py``, best first.

    Order: the main variant before ablations, then higher fraction of evaluation problems
    solved (from ``metadata.json``), then lower seed.
    """
    folder = data_folder("synthesized") / domain_name
    runs = [p.parent for p in folder.glob("*/program.py")]

    def rank(run: Path) -> tuple[int, float, str]:
        metadata_file = run / "metadata.json"
        metadata = json.loads(metadata_file.read_text()) if metadata_file.is_file() else {}
        return (
            0 if metadata.get("variant", run.name.split("-seed")[0]) == "main" else 1,
            -float(metadata.get("fraction_solved") or 0.0),
            run.name,
        )

    return sorted(runs, key=rank)


class Solver:
    """A generalized plan bound to its domain: ``solver(problem) -> list[str]``.

    Args:
        program: Python source defining ``get_plan(objects, init, goal)``.
        domain: the domain problem files are parsed against.
        trusted: run in-process, without the sandbox (only for a program you have reviewed).
        timeout: seconds per call in the sandbox.
        limits: the sandbox's limits and isolation (default: :class:`~genplan.sandbox.Limits`).

    Raises:
        IsolationUnavailable: sandboxed, and the sandbox cannot start (the message says how to
            enable it).
        SyntaxError, PolicyViolation: trusted, and the program does not compile under the policy.
    """

    def __init__(
        self,
        program: str,
        domain: Domain,
        *,
        trusted: bool = False,
        timeout: float = 30.0,
        limits: Limits | None = None,
    ):
        self.program = program
        self.domain = domain
        self.trusted = trusted
        self.timeout = timeout
        self.limits = limits or Limits()
        self._function = None
        if trusted:
            self._function = load_trusted(program)
        else:
            isolation_report(self.limits.isolation)  # start the worker now: fail fast, first call fast

    def __call__(self, problem: Problem | Path | str) -> list[str]:
        """The program's plan for ``problem`` (not validated; see :func:`genplan.plans.validate.check_plan`).

        Raises:
            PddlError: a problem file that does not parse.
            SolverError: the program raised, timed out, crashed or returned something other
                than a list of strings, each one line of printable ASCII (so a plan file
                written from it has one line per action); program text in the message is
                escaped and capped.
        """
        if not isinstance(problem, Problem):
            problem = load_problem(problem, self.domain)
        if self._function is not None:
            try:
                plan = self._function(set(problem.objects), set(problem.init), set(problem.goal))
            except Exception as error:
                detail = shown_block(f"{type(error).__name__}: {error}")
                raise SolverError(f"the program raised {detail}") from error
        else:
            outcome = run_program(
                self.program,
                problem.objects,
                problem.init,
                problem.goal,
                timeout=self.timeout,
                limits=self.limits,
            )
            if outcome.status is not RunStatus.SUCCESS:
                detail = shown_block(outcome.traceback or outcome.reason or "")
                raise SolverError(f"the program failed ({outcome.status.value}): {detail}".strip())
            plan = outcome.plan
        if not isinstance(plan, (list, tuple)) or not all(isinstance(a, str) for a in plan):
            raise SolverError(f"the program returned {type(plan).__name__}, not a list of strings")
        actions = [str.__str__(action) for action in plan]  # exact copies, checked as written
        for step, action in enumerate(actions, start=1):
            if not is_printable_ascii(action):
                raise SolverError(
                    f"the action at step {step} is not one line of printable ASCII: {shown_text(action)}"
                )
        return actions


def load_solver(
    domain: str | Path,
    *,
    program: Path | str | None = None,
    trusted: bool = False,
    timeout: float = 30.0,
    limits: Limits | None = None,
) -> Solver:
    """A solver for ``domain`` from a saved synthesized program.

    Args:
        domain: a built-in domain name (its best saved program in ``synthesized/<name>/`` is
            used unless ``program`` is given) or a domain file (then ``program`` is required).
        program: a program file to use instead of the saved one.
        trusted: run in-process instead of in the sandbox: fastest, but only for a program you
            have reviewed (the default sandbox is safe for any program).
        timeout: seconds per call in the sandbox.
        limits: the sandbox's limits and isolation (``Limits(isolation="none")`` where
            bubblewrap cannot run).

    Raises:
        ConfigurationError: an unknown domain name (suggests the closest), no saved program
            for the domain, or a domain file without ``program``.
        PddlError: a malformed domain file.
        IsolationUnavailable: sandboxed, and the sandbox cannot start (the message says how).
        SyntaxError, PolicyViolation: trusted, and the program does not compile under the policy
            (in the sandbox they come back per call, as a ``SolverError``).
    """
    domain_path = Path(domain)
    if domain_path.suffix == ".pddl" or domain_path.is_file():
        parsed = load_domain(domain_path)
        if program is None:
            raise ConfigurationError(f"load_solver({str(domain)!r}): give program= for a domain file")
    else:
        name = str(domain)
        if name not in builtin_domain_names():
            raise unknown_domain(name)
        parsed = load_domain(builtin_domain_file(name))
        if program is None:
            candidates = saved_programs(name)
            if not candidates:
                raise ConfigurationError(
                    f"no saved program for domain {name!r} in {data_folder('synthesized') / name}; "
                    f"run `genplan synthesize --domain {name} --save` first, or pass program="
                )
            program = candidates[0] / "program.py"
    return Solver(read_program(program), parsed, trusted=trusted, timeout=timeout, limits=limits)


def read_program(path: Path | str) -> str:
    """The source of a program file.

    Raises:
        ConfigurationError: the file cannot be read or is not UTF-8 text (names it).
    """
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigurationError(f"cannot read program file {path}: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise ConfigurationError(
            f"program file {path} is not UTF-8 text (byte 0x{error.object[error.start]:02x} at offset {error.start})"
        ) from error
