r"""Run an experiment grid (domains x seeds x approaches) and collect JSON Lines results.

Examples::

    # the paper's grid with a model of your choice (resumable: rerun to continue)
    python scripts/run_experiments.py --domains all --seeds 0-9 --approaches main,no-cot,no-debug,no-names \
        --llm openai --model gpt-4o --jobs 2 --runs-dir runs --results results

    # Figure 3: runtime against size for saved programs, beside LAMA-first
    python scripts/run_experiments.py --figure3 --domains heavy,gripper --results results

Then ``python scripts/make_reports.py results reports``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tqdm import tqdm

from genplan.approaches.generalized_plan.solver import saved_programs
from genplan.cli.sandbox_options import add_isolation_argument, sandbox_limits
from genplan.experiments.grid import (
    APPROACHES,
    GridSpec,
    collect_results,
    grid,
    is_finished,
    measure_runtime_vs_size,
    run_grid,
)
from genplan.paths import builtin_domain_names


def _seeds(text: str) -> tuple[int, ...]:
    seeds: list[int] = []
    for part in text.split(","):
        if "-" in part:
            low, high = part.split("-")
            seeds += range(int(low), int(high) + 1)
        elif part:
            seeds.append(int(part))
    return tuple(seeds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--domains", default="all", help="comma-separated built-in domains, or all")
    parser.add_argument("--seeds", default="0", help="e.g. 0-9 or 0,3,5")
    parser.add_argument("--approaches", default="main", help=f"comma-separated: {', '.join(APPROACHES)}")
    parser.add_argument("--llm", default="openai", help="openai | files:DIR | manual | replay:PATH")
    parser.add_argument("--model", default="gpt-4o")
    parser.add_argument("--base-url", default=None)
    parser.add_argument("--n", type=int, default=30, help="evaluation problems per run")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per problem")
    parser.add_argument(
        "--per-step", action="store_true", help="evaluate after every debugging step (Figure 4)"
    )
    parser.add_argument(
        "--no-size-check", action="store_true", help="train on the training problems only, as the paper"
    )
    parser.add_argument("--jobs", type=int, default=1, help="runs in parallel")
    parser.add_argument("--runs-dir", type=Path, default=Path("runs"))
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument(
        "--figure3", action="store_true", help="measure runtime against size for saved programs"
    )
    parser.add_argument("--scales", default="1,2,8,32,128")
    parser.add_argument("--per-size", type=int, default=10)
    add_isolation_argument(parser)
    args = parser.parse_args(argv)
    limits = sandbox_limits(args)
    domains = tuple(builtin_domain_names()) if args.domains == "all" else tuple(args.domains.split(","))

    if args.figure3:
        args.results.mkdir(parents=True, exist_ok=True)
        out = args.results / "figure3.jsonl"
        with out.open("w") as stream:
            for domain in domains:
                programs = saved_programs(domain)
                if not programs:
                    print(f"{domain}: no saved program in synthesized/{domain}/, skipped", file=sys.stderr)
                    continue
                program = (programs[0] / "program.py").read_text()
                scales = [int(s) for s in args.scales.split(",")]
                with tqdm(
                    total=len(scales) * args.per_size, desc=f"figure 3 {domain}", file=sys.stderr
                ) as bar:

                    def write(record: dict) -> None:
                        stream.write(json.dumps(record) + "\n")
                        stream.flush()
                        if record["approach"] == "program":
                            bar.update(1)

                    measure_runtime_vs_size(
                        domain,
                        program,
                        scales=scales,
                        per_size=args.per_size,
                        timeout=args.timeout,
                        work_dir=args.runs_dir,
                        on_record=write,
                        limits=limits,
                    )
        print(f"wrote {out}")
        return 0

    spec = GridSpec(
        domains=domains,
        seeds=_seeds(args.seeds),
        approaches=tuple(args.approaches.split(",")),
        runs_dir=args.runs_dir,
        llm=args.llm,
        model=args.model,
        base_url=args.base_url,
        n_eval=args.n,
        eval_timeout=args.timeout,
        train_timeout=args.timeout,
        per_step=args.per_step,
        size_check=not args.no_size_check,
        jobs=args.jobs,
        isolation=limits.isolation,
    )
    cells = grid(spec)
    done = sum(is_finished(spec, key) for key in cells)
    print(f"{len(cells)} runs in the grid, {done} finished already", file=sys.stderr)
    failures = 0
    with tqdm(total=len(cells), initial=done, desc="runs", file=sys.stderr) as bar:

        def on_done(key, record, error) -> None:  # type: ignore[no-untyped-def]
            nonlocal failures
            bar.update(1)
            if error is not None:
                failures += 1
                print(f"{key.domain} seed {key.seed} {key.approach}: failed: {error}", file=sys.stderr)

        run_grid(spec, on_done=on_done)
    runs, problems = collect_results(args.runs_dir, args.results)
    print(f"wrote {runs} run records and {problems} problem records to {args.results}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
