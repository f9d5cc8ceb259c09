"""Experiment grids: domains x seeds x approaches, resumable and parallel (Silver et al. 2024, Sec. 5).

A run's folder is ``RUNS/<model>/<domain>/<approach>-seed<S>/`` (see :mod:`genplan.approaches.generalized_plan.runs`); a
run whose folder holds ``metadata.json`` is finished and skipped, and the model cache in
``RUNS/cache`` makes a half-finished run free to redo. :func:`collect_results` turns the
folders into JSON Lines: ``runs.jsonl`` (one record per run) and ``problems.jsonl`` (one per
run and evaluation problem).

Figure 3's runtime-versus-size measurements (:func:`measure_runtime_vs_size`) run saved
programs and, when installed, LAMA-first on evaluation problems scaled 1x, 2x, 8x, 32x, 128x.
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from genplan.approaches.base import RunContext, read_record
from genplan.approaches.generalized_plan.evaluate import evaluate_program, summarize
from genplan.approaches.generalized_plan.runs import run_synthesis
from genplan.approaches.generalized_plan.synthesize import SynthesisSettings
from genplan.approaches.generalized_plan.variants import Variant
from genplan.llm import LanguageModel, SamplingSettings, make_model
from genplan.pddl.problem_sets import load_domain_problems

APPROACHES = ("main", "no-cot", "no-debug", "no-names")
ANSWER_HEADER = re.compile(r"^# ---- answer (\d+) ----$", re.MULTILINE)


@dataclass(frozen=True)
class GridSpec:
    """What to run.

    Attributes:
        domains / seeds / approaches: the grid (approaches are variant names, e.g. ``no-cot``).
        runs_dir: root of the run folders and the model cache.
        llm / model / base_url: the backend spec, model name and endpoint (as for ``genplan synthesize``).
        n_eval: evaluation problems per run; eval_timeout / train_timeout: seconds per problem.
        feedback_rounds: debugging rounds at most.
        per_step: also evaluate the program after each debugging step (Figure 4).
        size_check: end the training check with one evaluation-sized problem (``--no-size-check``
            in ``genplan synthesize`` turns it off to match the paper exactly).
        jobs: runs in parallel (processes).
    """

    domains: tuple[str, ...]
    seeds: tuple[int, ...]
    approaches: tuple[str, ...] = ("main",)
    runs_dir: Path = Path("runs")
    llm: str = "openai"
    model: str = "gpt-4o"
    base_url: str | None = None
    n_eval: int = 30
    eval_timeout: float = 30.0
    train_timeout: float = 30.0
    feedback_rounds: int = 4
    per_step: bool = False
    size_check: bool = True
    jobs: int = 1
    workers_per_run: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RunKey:
    """One cell of the grid."""

    domain: str
    seed: int
    approach: str


def model_slug(model: str) -> str:
    """A folder-safe form of a model name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", model)


def run_folder_for(spec: GridSpec, key: RunKey) -> Path:
    """``RUNS/<model>/<domain>/<approach>-seed<S>``."""
    return spec.runs_dir / model_slug(spec.model) / key.domain / f"{key.approach}-seed{key.seed}"


def grid(spec: GridSpec) -> list[RunKey]:
    """Every run of the grid, in a fixed order."""
    return [RunKey(d, s, a) for d in spec.domains for s in spec.seeds for a in spec.approaches]


def is_finished(spec: GridSpec, key: RunKey) -> bool:
    """Whether the run's folder holds its ``metadata.json``."""
    return (run_folder_for(spec, key) / "metadata.json").is_file()


def program_after_step(program: str, step: int) -> str:
    """The growing program as it was after ``step`` debugging steps (the first ``step + 1`` answers)."""
    headers = list(ANSWER_HEADER.finditer(program))
    if step + 1 >= len(headers):
        return program
    return program[: headers[step + 1].start()].rstrip() + "\n"


def _default_model(spec: GridSpec) -> LanguageModel:
    settings = SamplingSettings(model=spec.model)
    return make_model(spec.llm, settings, base_url=spec.base_url, cache_dir=spec.runs_dir / "cache")


def run_one(spec: GridSpec, key: RunKey, model: LanguageModel | None = None) -> dict[str, Any]:
    """Run one grid cell (synthesis and evaluation); return its ``runs.jsonl`` record."""
    folder = run_folder_for(spec, key)
    problems = load_domain_problems(
        key.domain, key.seed, spec.n_eval, spec.runs_dir, size_check=spec.size_check
    )
    variant = Variant.from_name(key.approach)
    settings = SynthesisSettings(
        chain_of_thought=variant.chain_of_thought,
        debugging=variant.debugging,
        names=variant.names,
        feedback_rounds=spec.feedback_rounds,
        timeout=spec.train_timeout,
    )
    context = RunContext(
        folder=folder,
        seed=key.seed,
        model_name=spec.model,
        backend_name=spec.llm.split(":")[0],
        eval_timeout=spec.eval_timeout,
        workers=spec.workers_per_run,
    )
    report = run_synthesis(problems, model or _default_model(spec), settings, context)
    if spec.per_step and report.synthesis.rounds:
        steps = []
        evaluation = list(problems.evaluation) if Variant.from_name(key.approach).names else None
        for step in range(len(report.synthesis.rounds)):
            if step == len(report.synthesis.rounds) - 1:
                fraction = report.summary.fraction_solved
            elif evaluation is None:
                fraction = None  # No Names: intermediate programs see obfuscated problems only
            else:
                checks = evaluate_program(
                    program_after_step(report.synthesis.program, step), evaluation, timeout=spec.eval_timeout
                )
                fraction = summarize(checks).fraction_solved
            steps.append({"step": step, "fraction_solved": fraction})
        (folder / "steps.json").write_text(json.dumps(steps, indent=2) + "\n")
    return run_record(folder)


def _run_in_worker(spec: GridSpec, key: RunKey) -> dict[str, Any]:
    return run_one(spec, key)


def run_grid(
    spec: GridSpec,
    *,
    model_factory: Callable[[RunKey], LanguageModel] | None = None,
    on_done: Callable[[RunKey, dict[str, Any] | None, BaseException | None], None] | None = None,
) -> list[RunKey]:
    """Run every unfinished cell of the grid; return the keys run this time.

    With ``jobs > 1`` cells run in separate processes (``model_factory`` must then be ``None``:
    each process builds the backend from the spec). A failing cell is reported through
    ``on_done`` and does not stop the others.
    """
    todo = [key for key in grid(spec) if not is_finished(spec, key)]
    if spec.jobs <= 1 or model_factory is not None:
        for key in todo:
            try:
                record = run_one(spec, key, model_factory(key) if model_factory else None)
                error = None
            except Exception as caught:  # one failed cell must not stop the grid
                record, error = None, caught
            if on_done is not None:
                on_done(key, record, error)
        return todo
    with ProcessPoolExecutor(max_workers=spec.jobs) as pool:
        futures = {pool.submit(_run_in_worker, spec, key): key for key in todo}
        for future in as_completed(futures):
            failure = future.exception()
            if on_done is not None:
                on_done(futures[future], None if failure else future.result(), failure)
    return todo


def run_record(folder: Path) -> dict[str, Any]:
    """The ``runs.jsonl`` record of a finished run folder (metadata plus the training rounds)."""
    run = read_record(folder)
    details = run.details
    record = {
        "domain": run.domain,
        "seed": run.seed,
        "approach": run.label,
        "model": run.model,
        "fraction_solved": run.fraction_solved,
        "median_seconds": run.median_seconds,
        "feedback_rounds_used": details.get("feedback_rounds_used", sum(run.feedback.values())),
        "feedback_kinds": details.get("feedback_kinds", []),
        "training_outcome": details.get("training_outcome"),
        "training_problems_used": details.get("training_problems_used", []),
        "rounds": [r.get("failure") for r in details.get("rounds", [])],
        "folder": str(folder),
    }
    steps = folder / "steps.json"
    if steps.is_file():
        record["steps"] = json.loads(steps.read_text())
    return record


def collect_results(runs_dir: Path, out_dir: Path) -> tuple[int, int]:
    """Write ``runs.jsonl`` and ``problems.jsonl`` in ``out_dir`` from every finished run under ``runs_dir``.

    Returns:
        ``(runs, problem records)`` written.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    folders = sorted(p.parent for p in runs_dir.glob("**/metadata.json"))
    runs = problems = 0
    with (
        (out_dir / "runs.jsonl").open("w") as run_stream,
        (out_dir / "problems.jsonl").open("w") as problem_stream,
    ):
        for folder in folders:
            record = run_record(folder)
            run_stream.write(json.dumps(record) + "\n")
            runs += 1
            results = (
                json.loads((folder / "results.json").read_text())
                if (folder / "results.json").is_file()
                else []
            )
            for result in results:
                row = {k: record[k] for k in ("domain", "seed", "approach", "model")}
                row.update(result)
                problem_stream.write(json.dumps(row) + "\n")
                problems += 1
    return runs, problems


# -- Figure 3: runtime against problem size ----------------------------------------------------


def measure_runtime_vs_size(
    domain: str,
    program: str,
    *,
    scales: Sequence[int] = (1, 2, 8, 32, 128),
    per_size: int = 10,
    timeout: float = 30.0,
    seed: int = 0,
    work_dir: Path = Path("runs"),
    lama: bool = True,
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Time ``program`` (sandboxed) and LAMA-first on evaluation problems of growing size.

    Each record: ``domain``, ``scale``, ``problem``, ``objects``, ``approach`` (``program`` or
    ``lama-first``), ``seconds`` (the full budget on a time-out, as the paper counts it),
    ``budget_seconds`` (that budget), ``solved`` (the plan was checked like any other plan).
    """
    from genplan.approaches.generalized_plan.checking import check_program
    from genplan.baselines import lama_available, run_lama
    from genplan.paths import builtin_domain_file
    from genplan.pddl.domain import load_domain
    from genplan.pddl.generate import write_problems
    from genplan.pddl.problem import load_problem
    from genplan.plans.validate import check_plan

    parsed = load_domain(builtin_domain_file(domain))
    use_lama = lama and lama_available()
    records: list[dict[str, Any]] = []
    for scale in scales:
        paths = write_problems(
            domain, "eval", seed, work_dir / "problems" / domain / f"seed{seed}" / "scaled", per_size, scale
        )
        for path in paths:
            problem = load_problem(path, parsed)
            check = check_program(program, problem, timeout=timeout)
            rows = [
                (
                    "program",
                    timeout if check.failure and check.failure.value == "timeout" else check.seconds,
                    check.solved,
                )
            ]
            if use_lama:
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


def spec_to_json(spec: GridSpec) -> dict[str, Any]:
    """The spec as JSON (saved beside the results)."""
    data = asdict(spec)
    data["runs_dir"] = str(spec.runs_dir)
    return data
