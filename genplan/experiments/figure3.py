"""Figure 3's measurements: runtime against problem size, a saved program beside LAMA-first.

Evaluation problems are generated at growing scales (1x, 2x, 8x, 32x, 128x the evaluation
size; Silver et al. 2024, Sec. 5.2). Each problem is timed one at a time, program and planner
alike, so the timings are not disturbed by other work on the machine. Measurements are kept in
JSON Lines and resumed like the grid: a rerun appends what is missing and never measures a
``(domain, scale, problem, approach)`` twice (:func:`read_measured`).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

MeasuredKey = tuple[str, int, str, str]
"""``(domain, scale, problem name, approach)``: one measurement of Figure 3."""


def measured_key(record: dict[str, Any]) -> MeasuredKey:
    """The key of a Figure 3 record (what a rerun skips)."""
    return (record["domain"], int(record["scale"]), record["problem"], record["approach"])


def read_measured(path: Path) -> set[MeasuredKey]:
    """The keys measured in ``path`` (none when it does not exist), after cutting a torn last line
    (the writer died mid-line), so that appending to ``path`` resumes the measurements."""
    from genplan.experiments.journal import _cut_torn_line, read_jsonl

    _cut_torn_line(path)
    return {measured_key(record) for record in read_jsonl(path)}


def measure_runtime_vs_size(
    domain: str,
    program: str,
    *,
    scales: Sequence[int] = (1, 2, 8, 32, 128),
    per_size: int = 10,
    timeout: float,
    seed: int = 0,
    work_dir: Path = Path("runs"),
    lama: bool = True,
    on_record: Callable[[dict[str, Any]], None] | None = None,
    limits: Any = None,
    measured: Collection[MeasuredKey] = (),
) -> list[dict[str, Any]]:
    """Time ``program`` (sandboxed) and LAMA-first on evaluation problems of growing size.

    Measurements whose key (:func:`measured_key`) is in ``measured`` are not taken again and not
    returned (a resumed run).

    Each record: ``domain``, ``scale``, ``problem``, ``objects``, ``approach`` (``program`` or
    ``lama-first``), ``seconds`` (the full budget on a time-out, as the paper counts it),
    ``budget_seconds`` (that budget), ``solved`` (the plan was checked like any other plan).
    """
    from genplan.approaches.generalized_plan.checking import check_program
    from genplan.baselines import lama_available, run_lama
    from genplan.paths import builtin_domain_file
    from genplan.pddl.domain import load_domain
    from genplan.pddl.generate import generate_problems, save_problems
    from genplan.pddl.problem import bind_problem
    from genplan.plans.validate import check_plan

    parsed = load_domain(builtin_domain_file(domain))
    use_lama = lama and lama_available()
    records: list[dict[str, Any]] = []
    for scale in scales:
        saved = save_problems(
            generate_problems(domain, "eval", seed, per_size, scale),
            work_dir / "problems" / domain / f"seed{seed}" / "scaled",
        )
        for path, generated in saved:  # the problems as data; the files are for inspection and LAMA-first
            problem = bind_problem(generated.problem, parsed, path)
            rows = []
            if (domain, scale, problem.name, "program") not in measured:
                check = check_program(program, problem, timeout=timeout, limits=limits)
                rows.append(
                    (
                        "program",
                        timeout if check.failure and check.failure.value == "timeout" else check.seconds,
                        check.solved,
                    )
                )
            if use_lama and (domain, scale, problem.name, "lama-first") not in measured:
                result = run_lama(problem, timeout)
                solved = result.plan is not None and check_plan(problem, result.plan).valid
                rows.append(("lama-first", result.seconds, solved))
            for approach, seconds, solved in rows:
                record = {
                    "domain": domain,
                    "scale": scale,
                    "problem": problem.name,
                    "objects": len(problem.object_types),
                    "approach": approach,
                    "seconds": seconds,
                    "budget_seconds": timeout,
                    "solved": solved,
                }
                records.append(record)
                if on_record is not None:
                    on_record(record)
    return records


def median_by_size(records: Iterable[dict[str, Any]]) -> dict[tuple[str, str, int], tuple[float, float]]:
    """``(domain, approach, scale) -> (median objects, median seconds)``."""
    groups: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
    for record in records:
        groups.setdefault((record["domain"], record["approach"], record["scale"]), []).append(record)
    return {
        key: (statistics.median(r["objects"] for r in rows), statistics.median(r["seconds"] for r in rows))
        for key, rows in sorted(groups.items())
    }
