"""``genplan solve``: run a saved synthesized program on a problem file and write the plan."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from genplan.cli.arguments import positive_seconds
from genplan.cli.commands import command_help
from genplan.cli.sandbox_options import add_isolation_argument, sandbox_limits
from genplan.errors import ConfigurationError
from genplan.plans.plan_file import plan_file_text


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``solve`` subcommand and its flags to ``subparsers``; return its parser."""
    parser = subparsers.add_parser(
        "solve",
        help=command_help("solve"),
        description="Run a saved generalized plan on PROBLEM and write the plan, one action per line "
        "(the plan-file format of Fast Downward's sas_plan).",
    )
    parser.add_argument("problem", type=Path, help="problem PDDL file")
    parser.add_argument(
        "--domain", required=True, help="built-in domain name, or a domain file (with --program)"
    )
    parser.add_argument(
        "--program",
        type=Path,
        default=None,
        help="program file (default: the best saved one; with --trusted, the best of genplan's own)",
    )
    parser.add_argument(
        "-o", "--output", type=Path, default=None, help="plan file to write (default: standard output)"
    )
    parser.add_argument(
        "--trusted",
        action="store_true",
        help="run the program in genplan's own process instead of in the sandbox: as Python with your "
        "rights (your files, environment and API keys, the network; no limits), the sandbox policy its only "
        "check. Faster; only for a program you have read. Runs only the program given with --program or one "
        "of genplan's own saved programs (never one in ./synthesized/), and names it first",
    )
    parser.add_argument(
        "--timeout", type=positive_seconds, default=30.0, help="seconds, in the sandbox (default 30)"
    )
    parser.add_argument(
        "--name-mapping",
        type=Path,
        default=None,
        help="a No-Names run's name_mapping.json: the program sees the problem in its names and the plan "
        "is written in real names (default: the name_mapping.json beside the program, if any)",
    )
    add_isolation_argument(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan solve``; return the exit code (errors surface as GenplanError)."""
    if not args.trusted:  # the worker boots while the problem and the program are read
        from genplan.sandbox import Isolation, prestart_worker

        prestart_worker(Isolation(args.isolation))
    from genplan.approaches.generalized_plan.solver import load_solver, saved_program, saved_programs
    from genplan.pddl.problem_sets import resolve_domain

    program = args.program
    if program is None:
        if Path(args.domain).suffix == ".pddl" or Path(args.domain).is_file():
            raise ConfigurationError(
                f"--domain {args.domain} is a domain file: give the program to run with --program PROGRAM.py"
            )
        if resolve_domain(args.domain) is not None:
            raise ConfigurationError(
                f"--domain {args.domain} is a folder: give its domain.pddl as --domain and the program as --program"
            )
        try:
            program = saved_program(args.domain, trusted=args.trusted)
        except ConfigurationError as error:
            raise ConfigurationError(f"{error} with --program PROGRAM.py") from None
    from genplan.paths import builtin_domain_file, builtin_domain_names
    from genplan.pddl.problem import load_problem
    from genplan.pddl.problem_sets import unknown_domain

    given = Path(args.domain)
    domain_file = given if given.suffix == ".pddl" or given.is_file() else None
    if domain_file is None and args.domain not in builtin_domain_names():
        raise unknown_domain(args.domain)
    # the problem is read before waiting for the sandbox worker: a bad file is reported at once
    problem = load_problem(args.problem, domain_file or builtin_domain_file(args.domain))
    limits = None if args.trusted else sandbox_limits(args)
    if args.program is None:
        print(f"genplan solve: the saved program {program}", file=sys.stderr)
        passed_over = [run for run in saved_programs(args.domain) if (run / "program.py") != program]
        if args.trusted and passed_over and passed_over[0] not in saved_programs(args.domain, trusted=True):
            print(
                f"genplan solve: not {passed_over[0] / 'program.py'}, found in the current folder: --trusted runs "
                "it only when given with --program",
                file=sys.stderr,
            )
    if args.trusted:  # named before a line of it runs
        print(
            f"genplan solve: running {program} in this process, as Python with your rights (--trusted)",
            file=sys.stderr,
        )
    solver = load_solver(
        args.domain,
        program=program,
        trusted=args.trusted,
        timeout=args.timeout,
        limits=limits,
        name_mapping=args.name_mapping,
    )
    plan = solver(problem)
    text = plan_file_text(plan, len(plan), "unit")  # each line checked as written
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:
            args.output.write_text(text)
        except OSError as error:
            raise ConfigurationError(
                f"cannot write the plan to {args.output}: {error.strerror or error}"
            ) from error
        print(f"wrote {len(plan)} actions to {args.output}", file=sys.stderr)
    return 0
