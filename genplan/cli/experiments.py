"""``genplan experiments [GRID.toml]``: run an experiment grid on Dask, resumable, with a live bar.

The grid comes from a TOML file (:mod:`genplan.experiments.spec` shows one), flags, or both
(flags win). Cells run on an embedded Dask cluster by default (``--workers``), on an existing
cluster with ``--scheduler tcp://HOST:8786``, or with ``--engine pool|sequential``. With
``--figure3`` it measures Figure 3 instead (saved programs against LAMA-first by size).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, TextIO

from genplan.cli.arguments import non_negative_int, positive_int, positive_seconds
from genplan.cli.commands import command_help
from genplan.cli.model_options import MODEL_FLAGS, add_model_arguments
from genplan.cli.sandbox_options import add_isolation_argument, checked_limits
from genplan.errors import ConfigurationError
from genplan.pddl.generate import GENERATOR_VERSIONS

EXAMPLE = """examples:
  genplan experiments scripts/grids/paper.toml --llm openai --model gpt-4o      # the paper's grid
  genplan experiments --domains heavy,gripper --seeds 0-2 \\
      --approach generalized-plan --approach generalized-plan:chain-of-thought=false
  genplan experiments scripts/grids/paper.toml --scheduler tcp://HOST:8786         # on a Dask cluster
"""


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``experiments`` subcommand."""
    from genplan.pddl.paper_problems import PAPER_COUNT
    from genplan.pddl.selection import PER_LENGTH
    from genplan.requests.request import request_default

    parser = subparsers.add_parser(
        "experiments",
        help=command_help("experiments"),
        description=textwrap.fill(
            "Run an experiment grid (domains x seeds x approaches with their settings, one model) "
            "from a TOML grid file, flags, or both (flags win). Cells run on an embedded Dask cluster by "
            "default, on an existing one with --scheduler, or with --engine pool|sequential; finished cells "
            "are never run again. With no model set up, each cell replays its saved run. See scripts/grids/paper.toml."
        ),
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("grid", nargs="?", type=Path, help="a TOML grid file (flags override its values)")
    what = parser.add_argument_group("the grid")
    what.add_argument("--domains", help="comma-separated built-in domains or folders, or all (default all)")
    what.add_argument("--seeds", help=f"e.g. 0-9 or 0,3,5 (default {request_default('seed')})")
    what.add_argument(
        "--approach",
        action="append",
        metavar="NAME[:KEY=VALUE,...]",
        help="an approach with its settings by name, e.g. generalized-plan:chain-of-thought=false "
        "(repeat for several; default generalized-plan)",
    )
    what.add_argument(
        "--n", type=non_negative_int, help=f"evaluation problems per run (default {PAPER_COUNT})"
    )
    what.add_argument(
        "--eval-timeout",
        type=positive_seconds,
        help=f"seconds per evaluation problem (default {request_default('eval_timeout'):g})",
    )
    what.add_argument(
        "--size-check",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="end training with an evaluation-sized problem (default on; --no-size-check as the paper)",
    )
    what.add_argument(
        "--per-step", action="store_true", default=None, help="evaluate after every debugging step (Figure 4)"
    )
    what.add_argument(
        "--eval-workers", type=positive_int, help="evaluation problems one cell solves at once (default 1)"
    )
    what.add_argument(
        "--problems",
        metavar="SET",
        help="evaluation problems other than the generated ones, as genplan run --problems: paper (the paper's "
        "own evaluation problems, for Table 1 on them), by-length:L1,L2,... (--per-length each, labelled by Fast "
        "Downward A* with LM-cut) or small (--n of the training size)",
    )
    what.add_argument(
        "--per-length",
        type=positive_int,
        help=f"problems per length for --problems by-length (default {PER_LENGTH})",
    )
    what.add_argument(
        "--generators",
        choices=GENERATOR_VERSIONS,
        help="the problem generators' version for every cell (default v2, the paper's distributions; a cell that "
        "replays a saved run uses the version it was made on, v1)",
    )
    what.add_argument("--runs-dir", type=Path, help="run folders and generated problems (default ./runs)")
    what.add_argument("--results", type=Path, help="JSON Lines results (default ./results)")
    add_model_arguments(parser, title="language model (default: replay the saved runs)")
    where = parser.add_argument_group("where cells run")
    where.add_argument(
        "--engine",
        choices=("dask", "pool", "sequential"),
        default="dask",
        help="default dask (an embedded cluster)",
    )
    where.add_argument(
        "--workers",
        type=positive_int,
        help="worker processes of the embedded cluster or pool (default: cores)",
    )
    where.add_argument(
        "--scheduler", metavar="ADDRESS", help="an existing Dask scheduler, e.g. tcp://HOST:8786"
    )
    add_isolation_argument(where, default=None)
    figure3 = parser.add_argument_group("Figure 3 (instead of a grid)")
    figure3.add_argument("--figure3", action="store_true", help="time saved programs and LAMA-first by size")
    figure3.add_argument("--scales", default="1,2,8,32,128")
    figure3.add_argument("--per-size", type=positive_int, default=10)
    return parser


def grid_values(args: argparse.Namespace) -> dict[str, Any]:
    """The grid file's values (if any) with the flags laid over them."""
    from genplan.experiments.grid_file import read_grid_file
    from genplan.experiments.spec import ApproachSpec

    values: dict[str, Any] = read_grid_file(args.grid) if args.grid else {"model": {}}
    for key in (
        "domains",
        "seeds",
        "n",
        "eval_timeout",
        "size_check",
        "per_step",
        "eval_workers",
        "problems",
        "per_length",
        "generators",
        "runs_dir",
        "results",
        "isolation",
    ):
        if getattr(args, key) is not None:
            values[key] = getattr(args, key)
    for key in MODEL_FLAGS:
        if getattr(args, key) is not None:
            values["model"][key] = getattr(args, key)
    if args.approach:
        values["approaches"] = tuple(ApproachSpec.parse(text) for text in args.approach)
    return values


class _GridBar:
    """A live bar on a terminal: cells done / failed / running, elapsed time and ETA; elsewhere (a
    log file, a pipe) one plain line each time a cell finishes, never a bar's control characters."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.bar: Any = None
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.total = 0
        self.recorded = 0
        self.finished = 0
        self.started = time.monotonic()

    def start(self, total: int, recorded: int) -> None:
        from tqdm import tqdm

        self.total, self.recorded, self.finished = total, recorded, recorded
        if not self.live:
            return
        self.bar = tqdm(
            total=total,
            initial=recorded,
            desc="cells",
            unit="cell",
            file=self.stream,
            dynamic_ncols=True,
            smoothing=0,  # cells finish in bursts: the ETA follows the average rate
        )
        self.bar.set_postfix_str(f"done {recorded}, failed 0, running 0")

    def update(self, done: int, failed: int, running: int) -> None:
        if self.bar is None:
            finished = self.recorded + done + failed
            if not self.live and finished != self.finished:
                self.finished = finished
                elapsed = time.monotonic() - self.started
                print(
                    f"cells: {finished} of {self.total} finished (done {self.recorded + done}, failed "
                    f"{failed}, running {running}; {elapsed:.0f} s)",
                    file=self.stream,
                    flush=True,
                )
            return
        self.bar.update(self.bar.initial + done + failed - self.bar.n)
        self.bar.set_postfix_str(f"done {self.bar.initial + done}, failed {failed}, running {running}")

    def failed(self, cell: str, error: str) -> None:
        from tqdm import tqdm

        tqdm.write(f"{cell}: failed: {error}", file=self.stream)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def describe_engine(engine: Any, scheduler: str | None) -> str:
    """One line on where cells run."""
    if engine.name == "dask":
        where = f"Dask cluster at {scheduler}" if scheduler else "embedded Dask cluster"
        dashboard = engine.dashboard or "off (pip install bokeh to see it)"
        return f"{where}, {engine.workers} worker(s); dashboard {dashboard}"
    return f"{engine.name}, {engine.workers} worker(s)"


def run(args: argparse.Namespace) -> int:
    """Carry out ``genplan experiments``; return the exit code (1 when a cell failed)."""
    from genplan.approaches import get_approach
    from genplan.approaches.base import uses_sandbox
    from genplan.experiments.engines import make_engine
    from genplan.experiments.grid import check_grid, no_saved_run, run_grid
    from genplan.experiments.grid_file import build_grid
    from genplan.experiments.spec import grid_cells
    from genplan.llm.spec import BackendKind

    if args.figure3:
        return run_figure3(args)
    spec = build_grid(grid_values(args), str(args.grid or "grid"))
    skipped = check_grid(
        spec, grid_cells(spec)
    )  # bad approaches, settings or recordings: before any cluster starts
    if skipped:
        print(
            f"genplan experiments: no model set up and {no_saved_run(skipped)}: skipped; "
            "set up a model (--llm, --model) to run them",
            file=sys.stderr,
        )
    if any(uses_sandbox(get_approach(approach.name)) for approach in spec.approaches):
        checked_limits(spec.isolation)  # bubblewrap works here, or stop now
    if spec.model.backend.kind is BackendKind.MANUAL and (args.engine != "sequential" or args.scheduler):
        raise ConfigurationError(
            "--llm manual reads answers from this terminal: use it with --engine sequential"
        )
    engine = make_engine(args.engine, args.workers, args.scheduler)
    bar = _GridBar()
    try:
        print(f"genplan experiments: {describe_engine(engine, args.scheduler)}", file=sys.stderr)
        summary = run_grid(spec, engine, progress=bar)
    finally:
        bar.close()
        engine.close()
    print(
        f"{summary.total} cells: {summary.recorded_before} recorded before, {summary.finished} finished now, "
        f"{summary.failed} failed"
        + (f", {summary.skipped} skipped (no saved run to replay)" if summary.skipped else "")
        + f"; results in {spec.results_dir} (runs.jsonl, problems.jsonl"
        + (", failures.jsonl)" if summary.failed else ")")
    )
    if summary.failed:
        print("Run the same command again to retry the failed cells.", file=sys.stderr)
    return 1 if summary.failed else 0


def run_figure3(args: argparse.Namespace) -> int:
    """Figure 3's measurements for every domain with a saved program, appended to
    ``RESULTS/figure3.jsonl``: a rerun (after Ctrl-C, or for another domain) measures only what is
    missing and never wipes what was measured."""
    from tqdm import tqdm

    from genplan.approaches.generalized_plan.solver import saved_programs
    from genplan.experiments.figure3 import measure_runtime_vs_size, read_measured
    from genplan.experiments.spec import parse_domains
    from genplan.requests.request import request_default
    from genplan.sandbox import Isolation

    values = grid_values(args)
    domains = parse_domains(values.get("domains") or "all")
    results = Path(values.get("results") or "results")
    runs_dir = Path(values.get("runs_dir") or request_default("runs_dir"))
    timeout = float(values.get("eval_timeout", request_default("eval_timeout")))
    limits = checked_limits(Isolation(values.get("isolation") or request_default("isolation")))
    try:
        scales = [int(s) for s in args.scales.split(",")]
    except ValueError as error:
        raise ConfigurationError(f"--scales {args.scales!r}: expected integers like 1,2,8,32,128") from error
    results.mkdir(parents=True, exist_ok=True)
    out = results / "figure3.jsonl"
    measured = read_measured(out)
    before = len(measured)
    with out.open("a") as stream:
        for domain in domains:
            programs = saved_programs(domain)
            if not programs:
                print(f"{domain}: no saved program in synthesized/{domain}/, skipped", file=sys.stderr)
                continue
            program = (programs[0] / "program.py").read_text()
            done = sum(1 for key in measured if key[0] == domain and key[1] in scales and key[3] == "program")
            total = len(scales) * args.per_size
            with tqdm(
                total=total, initial=min(done, total), desc=f"figure 3 {domain}", file=sys.stderr
            ) as bar:

                def write(record: dict[str, Any], bar: Any = bar) -> None:
                    stream.write(json.dumps(record) + "\n")
                    stream.flush()
                    if record["approach"] == "program":
                        bar.update(1)

                measure_runtime_vs_size(
                    domain,
                    program,
                    scales=scales,
                    per_size=args.per_size,
                    timeout=timeout,
                    work_dir=runs_dir,
                    on_record=write,
                    limits=limits,
                    measured=measured,
                )
    added = len(read_measured(out)) - before
    print(f"{out}: {added} measurement(s) added, {before} measured before")
    return 0
