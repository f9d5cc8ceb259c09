r"""Compare the generalized plan's mechanisms beyond the paper: all off, then each on, on the same domains.

Runs ``generalized-plan`` as an experiment grid (resumable: run the same command again after a
stop and only what is missing runs; answered prompts come from the cache) with the paper's
protocol and with each mechanism switched on alone (``--scaling-feedback``, ``--candidates N``,
``--check-strategy``, ``--reflect``, ``--shuffles K``), optionally all together, then writes the
comparison table ``OUT/mechanisms.md`` (problems solved, by IPC difficulty level where the
layout has one, feedback by kind, LLM calls, tokens, wall time, order-sensitive programs).

Domains are built-in names, folders with a ``domain.pddl``, or a folder of such folders (the
IPC 2023 learning track's ``benchmarks`` repository: each ``<domain>/`` holds ``domain.pddl``,
``training/easy/`` and ``testing/{easy,medium,hard}/``). Any backend works::

    python scripts/compare_mechanisms.py ~/ipc2023-learning/benchmarks --llm files:/tmp/prompts --model claude
    python scripts/compare_mechanisms.py heavy miconic --llm openai --model gpt-4o --n 30 --eval-timeout 30
    python scripts/compare_mechanisms.py ~/benchmarks --table-only     # the table again from the results

Built-in domains' problems come from the current generators (``--generators v1`` for the
version the saved runs were made on; a cell that replays a saved run uses that version by
itself), and ``mechanisms.md`` names the problem set behind it.

With ``files:DIR`` the grid runs cells one after the other (``--engine sequential``), so the
prompts appear in ``DIR`` in a fixed order; the issue's measurement used the IPC testing
problems (90 per domain), 20 s each, seed 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from genplan.approaches.generalized_plan.evaluate import default_workers
from genplan.errors import GenplanError
from genplan.experiments.cells import ModelFactory
from genplan.experiments.engines import SequentialEngine
from genplan.experiments.grid import run_grid
from genplan.experiments.journal import read_jsonl
from genplan.experiments.reports import mechanisms_table, problem_sets_note
from genplan.experiments.spec import ApproachSpec, GridSpec, ModelSpec, parse_seeds
from genplan.llm import BackendSpec
from genplan.paths import builtin_domain_names
from genplan.pddl.generate import GENERATOR_VERSIONS


def configurations(candidates: int, shuffles: int, together: bool) -> list[dict[str, object]]:
    """The settings compared: the paper's (none), each mechanism alone, and all of them if asked."""
    each: list[dict[str, object]] = [
        {"scaling-feedback": True},
        {"candidates": candidates},
        {"check-strategy": True},
        {"reflect": True},
        {"shuffles": shuffles},
    ]
    combined = {key: value for settings in each for key, value in settings.items()}
    return [{}, *each, *([combined] if together else [])]


def expand_domains(items: list[str]) -> list[str]:
    """Built-in names and domain folders as given; a folder without a ``domain.pddl`` stands for
    its subfolders that have one (sorted)."""
    domains: list[str] = []
    for item in items:
        folder = Path(item)
        if item in builtin_domain_names() or (folder / "domain.pddl").is_file():
            domains.append(item)
        elif folder.is_dir():
            found = sorted(str(sub) for sub in folder.iterdir() if (sub / "domain.pddl").is_file())
            if not found:
                raise SystemExit(f"{folder} has no domain.pddl and no subfolder with one")
            domains += found
        else:
            raise SystemExit(f"{item!r} is neither a built-in domain nor a folder")
    return domains


def build_parser() -> argparse.ArgumentParser:
    """The script's command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "domains", nargs="+", help="built-in names, domain folders, or a folder of domain folders"
    )
    parser.add_argument(
        "--llm", default=None, help="openai | files:DIR | manual | replay:PATH (default: saved runs)"
    )
    parser.add_argument("--model", default=None, help="the model's name, recorded in every run")
    parser.add_argument("--base-url", default=None)
    parser.add_argument("--temperature", type=float, default=0.0)
    parser.add_argument("--seeds", default="0", help="problem seeds, e.g. 0 or 0-2 (default 0)")
    parser.add_argument("--n", type=int, default=90, help="evaluation problems per domain (default 90)")
    parser.add_argument(
        "--eval-timeout", type=float, default=20.0, help="seconds per evaluation problem (default 20)"
    )
    parser.add_argument(
        "--candidates", type=int, default=3, help="N for the candidates configuration (default 3)"
    )
    parser.add_argument(
        "--shuffles", type=int, default=4, help="K for the shuffles configuration (default 4)"
    )
    parser.add_argument(
        "--eval-workers",
        type=int,
        default=default_workers(),
        help="evaluation problems at once (default: cores)",
    )
    parser.add_argument("--together", action="store_true", help="also run every mechanism at once")
    parser.add_argument(
        "--no-size-check", action="store_true", help="built-in domains: no evaluation-sized training problem"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("mechanisms"),
        help="runs, results and the table (default ./mechanisms)",
    )
    parser.add_argument(
        "--generators",
        choices=GENERATOR_VERSIONS,
        default=None,
        help="built-in domains: the problem generators' version for every cell (default v2, the paper's "
        "distributions; a cell that replays a saved run uses the version it was made on, v1)",
    )
    parser.add_argument(
        "--table-only", action="store_true", help="only write the table from the results so far"
    )
    return parser


def grid_spec(args: argparse.Namespace) -> GridSpec:
    """The experiment grid the parsed command line asks for: every configuration of
    :func:`configurations` on every domain and seed.

    Raises:
        ConfigurationError: a bad seed range or generator version.
    """
    results = args.out / "results"
    return GridSpec(
        domains=tuple(expand_domains(args.domains)),
        seeds=parse_seeds(args.seeds),
        approaches=tuple(
            ApproachSpec("generalized-plan", tuple(settings.items()))
            for settings in configurations(args.candidates, args.shuffles, args.together)
        ),
        model=ModelSpec(
            BackendSpec.parse(
                args.llm, model=args.model, base_url=args.base_url, temperature=args.temperature
            ),
            cache_dir=args.out / "runs" / "cache",
        ),
        runs_dir=args.out / "runs",
        results_dir=results,
        n_eval=args.n,
        eval_timeout=args.eval_timeout,
        size_check=not args.no_size_check,
        eval_workers=args.eval_workers,
        generators=args.generators,
    )


def main(argv: list[str] | None = None, model_factory: ModelFactory | None = None) -> int:
    """Run the comparison as the command line asks; ``model_factory`` replaces the backend (tests)."""
    args = build_parser().parse_args(argv)
    results = args.out / "results"
    if not args.table_only:
        spec = grid_spec(args)
        try:
            summary = run_grid(spec, SequentialEngine(), model_factory=model_factory)
        except GenplanError as error:
            print(f"compare_mechanisms.py: error: {error}", file=sys.stderr)
            return 2
        print(
            f"{summary.finished} runs finished, {summary.failed} failed, {summary.recorded_before} recorded before"
            + (
                f", {summary.skipped} skipped (no model set up and no saved run to replay: set one up with --llm)"
                if summary.skipped
                else ""
            ),
            file=sys.stderr,
        )
    runs = read_jsonl(results / "runs.jsonl")
    table = mechanisms_table(runs, read_jsonl(results / "problems.jsonl"))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "mechanisms.md").write_text(
        "# Generalized plans: the paper's protocol and each mechanism beyond it\n\n"
        + (problem_sets_note(runs) if runs else "")
        + table,
        encoding="utf-8",
    )
    print(table)
    print(f"Written to {args.out / 'mechanisms.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
