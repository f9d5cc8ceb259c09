"""Saved synthesized programs used as fast domain solvers.

``load_solver("heavy")`` returns a callable mapping a problem (a loaded
:class:`~genplan.pddl.problem.Problem` or a problem file) to a plan, using the saved program in
``synthesized/heavy/``. By default every call runs in the sandbox with a time budget, through a
persistent sandbox worker (a few milliseconds per call on top of the program's own time).
``trusted=True`` runs the program in the calling process instead, as Python with the caller's
rights (its files, environment and API keys, the network; no limits, no time budget), the
sandbox policy its only check: the fastest path, for a program you have read
(:mod:`genplan.sandbox.trusted`). Trusted mode runs a program named explicitly or one of
genplan's own saved runs, never one found in ``./synthesized/`` of the current folder.
A "No Names" program gets its run's ``name_mapping.json`` (found beside it) applied
(:mod:`.renaming`): it sees each problem in its names and returns the plan in real names.
"""

from __future__ import annotations

import json
from pathlib import Path

from genplan.approaches.generalized_plan.renaming import (
    find_name_mapping,
    load_name_mapping,
    plan_to_original,
    rename_problems,
)
from genplan.errors import ConfigurationError, GenplanError
from genplan.paths import builtin_domain_file, builtin_domain_names, saved_run_roots
from genplan.pddl.domain import Domain, load_domain
from genplan.pddl.obfuscate import NameMapping
from genplan.pddl.problem import Problem, load_problem
from genplan.pddl.problem_sets import unknown_domain
from genplan.plans.untrusted_text import is_printable_ascii, shown_block, shown_text
from genplan.sandbox import Limits, RunStatus, isolation_report, run_program


class SolverError(GenplanError):
    """The program failed on a problem: it raised, timed out, crashed or returned no plan.

    Attributes:
        status: how the call ended (:class:`~genplan.sandbox.RunStatus`: ``RAISED``,
            ``TIMED_OUT``, ``CRASHED`` or ``BAD_OUTPUT``).
    """

    def __init__(self, message: str, status: RunStatus):
        super().__init__(message)
        self.status = status


def saved_programs(domain_name: str, *, trusted: bool = False) -> list[Path]:
    """Saved run folders of ``domain_name`` that hold a ``program.py``, best first.

    Order: the user's ``./synthesized/`` before genplan's own (:func:`~genplan.paths.saved_run_roots`),
    then within each the main variant before ablations, then higher fraction of evaluation problems
    solved (from ``metadata.json``), then lower seed. With ``trusted``, genplan's own only: a
    program run in-process runs with the caller's rights, and one found in the current folder
    was never chosen by the user.
    """
    roots = saved_run_roots()
    return [
        run
        for root in (roots[-1:] if trusted else roots)  # the last root is genplan's own
        for run in _ranked(sorted((root / domain_name).glob("*/program.py")))
    ]


def saved_program(domain_name: str, *, trusted: bool = False) -> Path:
    """The ``program.py`` :func:`load_solver` uses for built-in domain ``domain_name`` when none
    is given: the best of :func:`saved_programs` (genplan's own only, with ``trusted``).

    Raises:
        ConfigurationError: an unknown domain name (suggests the closest), or no saved program
            for the domain (says how to make one, and, in trusted mode, that one in
            ``./synthesized/`` is run only when named explicitly).
    """
    if domain_name not in builtin_domain_names():
        raise unknown_domain(domain_name)
    candidates = saved_programs(domain_name, trusted=trusted)
    if candidates:
        return candidates[0] / "program.py"
    roots = saved_run_roots()[-1:] if trusted else saved_run_roots()
    skipped = saved_programs(domain_name) if trusted else []
    raise ConfigurationError(
        f"no saved program for domain {domain_name!r} in "
        + " or ".join(str(root / domain_name) for root in roots)
        + (
            f" (trusted mode runs only genplan's own saved programs, or one you name: {skipped[0] / 'program.py'} "
            "is run in-process only if given as the program)"
            if skipped
            else ""
        )
        + f"; run `genplan synthesize --domain {domain_name} --save` first, or give the program to run"
    )


def _ranked(programs: list[Path]) -> list[Path]:
    """The run folders of ``programs``, best first (see :func:`saved_programs`)."""
    runs = [p.parent for p in programs]

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
        trusted: run the program in this process, as Python with the caller's rights (files,
            environment, API keys, network; no limits), the sandbox policy its only check:
            only for a program you have read. Its top level runs here, at once.
        timeout: seconds per call in the sandbox.
        limits: the sandbox's limits and isolation (default: :class:`~genplan.sandbox.Limits`).
        mapping: a No-Names run's name mapping: each problem is renamed through it before the
            program runs and the plan is translated back (:mod:`.renaming`); ``None`` for a
            program that reads real names.
        source: the program file it was read from, if any (reported to the user).

    Raises:
        IsolationUnavailable: sandboxed, and the sandbox cannot start (the message says how to
            enable it).
        SyntaxError, PolicyViolation: trusted, and the program does not compile under the policy.
        SolverError: trusted, and the program's top level raised (any ``BaseException``:
            ``SystemExit`` too) or defines no ``get_plan``.
    """

    def __init__(
        self,
        program: str,
        domain: Domain,
        *,
        trusted: bool = False,
        timeout: float = 30.0,
        limits: Limits | None = None,
        mapping: NameMapping | None = None,
        source: Path | None = None,
    ):
        self.program = program
        self.mapping = mapping
        self.source = source
        self.domain = domain
        self.trusted = trusted
        self.timeout = timeout
        self.limits = limits or Limits()
        self._function = None
        if trusted:
            # the policy, imported only to run in-process
            from genplan.sandbox import PolicyViolation, load_trusted

            try:
                self._function = load_trusted(program)
            except (SyntaxError, PolicyViolation):
                raise
            except Exception as error:  # ProgramStopped included: SystemExit, KeyboardInterrupt, ...
                raise SolverError(
                    f"the program could not be loaded: {_raised(error)}", RunStatus.RAISED
                ) from error
        else:
            isolation_report(self.limits.isolation)  # start the worker now: fail fast, first call fast

    def __call__(self, problem: Problem | Path | str, *, timeout: float | None = None) -> list[str]:
        """The program's plan for ``problem`` (not validated; see :func:`genplan.plans.validate.check_plan`).

        Args:
            problem: a loaded problem, or a problem file parsed against the solver's domain.
            timeout: seconds for this call in the sandbox (default: the solver's ``timeout``);
                a trusted program runs in-process and is not stopped.

        Raises:
            PddlError: a problem file that does not parse.
            SolverError: the program raised (any ``BaseException``, ``SystemExit`` and
                ``KeyboardInterrupt`` included), timed out, crashed or returned something other
                than a list of strings, each one line of printable ASCII as written and after
                the name mapping's translation (so a plan file written from it has one line
                per action); program text in the message is escaped and capped.
        """
        if not isinstance(problem, Problem):
            problem = load_problem(problem, self.domain)
        extended = None
        if self.mapping is not None:
            renamed, extended = rename_problems([problem], self.mapping)
            problem = renamed[0]
        if self._function is not None:
            try:
                plan = self._function(set(problem.objects), set(problem.init), set(problem.goal))
            except Exception as error:  # ProgramStopped included: SystemExit, KeyboardInterrupt, ...
                raise SolverError(f"the program raised {_raised(error)}", RunStatus.RAISED) from error
        else:
            outcome = run_program(
                self.program,
                problem.objects,
                problem.init,
                problem.goal,
                timeout=self.timeout if timeout is None else timeout,
                limits=self.limits,
                reuse_for=problem,
            )
            if outcome.status is not RunStatus.SUCCESS:
                detail = shown_block(outcome.traceback or outcome.reason or "")
                raise SolverError(
                    f"the program failed ({outcome.status.value}): {detail}".strip(), outcome.status
                )
            plan = outcome.plan
        if not isinstance(plan, (list, tuple)) or not all(isinstance(a, str) for a in plan):
            raise SolverError(
                f"the program returned {type(plan).__name__}, not a list of strings", RunStatus.BAD_OUTPUT
            )
        actions = [str.__str__(action) for action in plan]  # exact copies, checked as written
        _check_lines(actions, "")
        if extended is not None:
            actions = plan_to_original(actions, extended)
            _check_lines(actions, " after the name mapping's translation")  # checked after every rewrite
        return actions


def _check_lines(actions: list[str], when: str) -> None:
    """Raise :class:`SolverError` unless every action is one line of printable ASCII."""
    for step, action in enumerate(actions, start=1):
        if not is_printable_ascii(action):
            raise SolverError(
                f"the action at step {step} is not one line of printable ASCII{when}: {shown_text(action)}",
                RunStatus.BAD_OUTPUT,
            )


def _raised(error: Exception) -> str:
    """What a trusted program raised, as shown in a :class:`SolverError` (escaped, capped)."""
    from genplan.sandbox import ProgramStopped

    if isinstance(error, ProgramStopped):
        return error.detail
    return shown_block(f"{type(error).__name__}: {error}")


def load_solver(
    domain: str | Path | Domain,
    *,
    program: Path | str | None = None,
    trusted: bool = False,
    timeout: float = 30.0,
    limits: Limits | None = None,
    name_mapping: Path | str | None = None,
) -> Solver:
    """A solver for ``domain`` from a saved synthesized program.

    Args:
        domain: a built-in domain name (its best saved program, :func:`saved_program`, is used
            unless ``program`` is given: sandboxed, from the user's ``./synthesized/<name>/``
            first, then genplan's own; trusted, genplan's own only; the returned solver's
            ``source`` names it), or a domain file or a loaded :class:`~genplan.pddl.domain.Domain`
            (then ``program`` is required).
        program: a program file to use instead of the saved one.
        trusted: run the program in this process instead of in the sandbox: as Python with
            your rights (your files, environment and API keys, the network; no memory, CPU or
            time limit), the sandbox policy its only check, which is a lint there, not a
            boundary. The fastest path, only for a program you have read; its top level runs
            when the solver is made. The default sandbox is safe for any program.
        timeout: seconds per call in the sandbox.
        limits: the sandbox's limits and isolation (``Limits(isolation="none")`` where
            bubblewrap cannot run).
        name_mapping: a No-Names run's ``name_mapping.json`` to apply; by default the one
            beside the program, if any (:func:`~.renaming.find_name_mapping`).

    Raises:
        ConfigurationError: an unknown domain name (suggests the closest), no saved program
            for the domain, a domain file without ``program``, or an unreadable name mapping.
        PddlError: a malformed domain file.
        IsolationUnavailable: sandboxed, and the sandbox cannot start (the message says how).
        SyntaxError, PolicyViolation: trusted, and the program does not compile under the policy
            (in the sandbox they come back per call, as a ``SolverError``).
        SolverError: trusted, and the program's top level raised (``SystemExit`` included).
    """
    if isinstance(domain, Domain):
        parsed = domain
        if program is None:
            raise ConfigurationError(
                f"load_solver(domain {domain.name!r}): give program= for a loaded domain"
            )
    elif Path(domain).suffix == ".pddl" or Path(domain).is_file():
        parsed = load_domain(domain)
        if program is None:
            raise ConfigurationError(f"load_solver({str(domain)!r}): give program= for a domain file")
    else:
        name = str(domain)
        if name not in builtin_domain_names():
            raise unknown_domain(name)
        parsed = load_domain(builtin_domain_file(name))
        if program is None:
            try:
                program = saved_program(name, trusted=trusted)
            except ConfigurationError as error:
                raise ConfigurationError(f"{error} as program=") from None
    given = Path(name_mapping) if name_mapping is not None else None
    mapping_file = find_name_mapping(Path(program), given)
    mapping = load_name_mapping(mapping_file) if mapping_file is not None else None
    return Solver(
        read_program(program),
        parsed,
        trusted=trusted,
        timeout=timeout,
        limits=limits,
        mapping=mapping,
        source=Path(program),
    )


def read_program(path: Path | str) -> str:
    """The source of a program file, checked to be Python (parsed, never run, here).

    Raises:
        ConfigurationError: the file cannot be read, is not UTF-8 text, or is not Python (names
            the file and line, and says what to do when it holds a model's whole answer).
    """
    try:
        source = Path(path).read_text(encoding="utf-8")
        check_python(source, Path(path))
        return source
    except OSError as error:
        raise ConfigurationError(f"cannot read program file {path}: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise ConfigurationError(
            f"program file {path} is not UTF-8 text (byte 0x{error.object[error.start]:02x} at offset {error.start})"
        ) from error


def check_python(source: str, path: Path) -> None:
    """Raise unless ``source`` parses as Python (``ast.parse``: nothing is run).

    Raises:
        ConfigurationError: ``path:line: the program is not Python (invalid syntax): `the line```,
            with a hint when the file holds a fenced code block (a model's whole answer).
    """
    import ast

    try:
        ast.parse(source, filename=str(path))
    except SyntaxError as error:
        line = "".join(c if c.isprintable() else "?" for c in (error.text or "").strip())  # as data
        shown = f": `{line[:80]}{'...' if len(line) > 80 else ''}`" if line else ""
        hint = (
            "; it holds a fenced code block: save only the code inside it"
            if "```" in source
            else "; give a Python file that defines get_plan(objects, init, goal)"
        )
        where = f"{path}:{error.lineno}" if error.lineno else str(path)
        raise ConfigurationError(f"{where}: the program is not Python ({error.msg}){shown}{hint}") from None
    except (RecursionError, MemoryError, ValueError) as error:
        raise ConfigurationError(f"{path}: the program is not Python that can be read ({error!r})") from None
