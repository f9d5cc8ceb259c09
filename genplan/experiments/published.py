"""The papers' published headline figures, as data, and genplan's measured rows beside them.

Each :class:`PublishedFigure` is one method on one benchmark as a paper reports it (the papers in
the project's seeds, and PlanBench's leaderboard); :func:`beside_the_papers` groups run summaries
(``metadata.json`` / ``runs.jsonl`` rows) by approach, benchmark and model and prints genplan's
row over the paper's, each with its success and 95% Wilson interval, LLM calls, world-model
queries, the model and the sample size. ``make_reports.py`` and ``make_planner_reports.py`` add
the table to their reports.

A run is on a figure's benchmark when its approach is the figure's, its domain is the figure's
(or, for a family of tasks such as ``mcp``, starts with it and a dash; a grid names a domain with
its selection, ``blocksworld-planbench``) and its problem set is one of the figure's, or a
selection of it (``planbench x50``, ``planbench:by-length:2,4 x10``). Where genplan's sample is
smaller than the paper's, the intervals say how far the two can be told apart.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from genplan.experiments.intervals import wilson_interval


@dataclass(frozen=True)
class PublishedFigure:
    """One method's headline figure on one benchmark, as published.

    Attributes:
        approach: genplan's approach that implements the method (``boomerang``).
        domain: genplan's domain (or family of tasks, ``mcp``).
        problem_sets: the genplan problem sets it is comparable with (``planbench``: also any
            selection of it).
        benchmark: the benchmark as the paper names it.
        model: the model the paper used.
        success: fraction of problems solved, or ``None`` when not reported.
        llm_calls: LLM calls, per problem (or per domain: :attr:`calls_per`), or ``None``.
        calls_per: ``"problem"`` or ``"domain"`` (AutoToS counts calls per domain).
        world_model_queries: the world-model query budget or use, as text, or ``None``.
        sample: problems behind the figure, or ``None`` when not stated.
        source: paper, table or section.
        note: how genplan's method differs from the paper's, if it does.
        label: the genplan label the figure is for (an ablation), or ``None`` for any label.
    """

    approach: str
    domain: str
    problem_sets: tuple[str, ...]
    benchmark: str
    model: str
    success: float | None
    llm_calls: float | None
    source: str
    calls_per: str = "problem"
    world_model_queries: str | None = None
    sample: int | None = None
    note: str = ""
    label: str | None = None


_SEED_004 = "Gonzalez-Pumariaga et al., Query-Efficient Planning with Language Models, Fig. 2 and Table 1"
_SYMPLANNER = "Xiong et al., SymPlanner, Table 1"
_PLANBENCH = "PlanBench leaderboard (Valmeekam et al., NeurIPS 2023), zero-shot plan generation"
_ZERO_SHOT = (
    "PlanBench's zero-shot prompt; genplan's io without a demonstration (io+no-demonstration) is closest"
)

PUBLISHED: tuple[PublishedFigure, ...] = (
    PublishedFigure(
        "autotos", "blocksworld", ("planbench",), "PlanBench Blocksworld, all instances", "GPT-4o", 1.0, 2.0,
        "Cao et al., AutoToS (AAAI 2025), Sec. 5.2 and Table 1", calls_per="domain", sample=502,
    ),
    PublishedFigure(
        "boomerang", "blocksworld", ("planbench",), "PlanBench Blocksworld", "gpt-4-turbo", 0.78, 5.69,
        _SEED_004 + " (0.85 in its appendix table)", world_model_queries="budget 20", sample=600,
    ),
    PublishedFigure(
        "react", "blocksworld", ("planbench",), "PlanBench Blocksworld", "gpt-4-turbo", 0.52, 13.69,
        _SEED_004, world_model_queries="budget 20", sample=600,
    ),
    PublishedFigure(
        "toi-dfs", "blocksworld", ("planbench",), "PlanBench Blocksworld", "gpt-4-turbo", 0.37, 28.32,
        _SEED_004, world_model_queries="budget 20", sample=600,
    ),
    PublishedFigure(
        "toi-bfs", "blocksworld", ("planbench",), "PlanBench Blocksworld", "gpt-4-turbo", 0.29, 39.58,
        _SEED_004, world_model_queries="budget 20", sample=600,
    ),
    PublishedFigure(
        "io", "blocksworld", ("planbench",), "PlanBench Blocksworld", "gpt-4-turbo", None, 1.0,
        _SEED_004 + " (success shown only as a bar, Fig. 9)", sample=600,
    ),
    *(
        PublishedFigure(
            "symplanner", "blocksworld", ("planbench:by-length",),
            "PlanBench Blocksworld, 20 per optimal length 2-12", model, success, None, _SYMPLANNER, sample=120,
            note="IC + CR, 32 rollouts, 16 steps (genplan's defaults)",
        )
        for model, success in (("GPT-4.1", 0.542), ("GPT-4o", 0.50), ("GPT-4o-mini", 0.216))
    ),
    *(
        PublishedFigure(
            "io", "blocksworld", ("planbench",), "PlanBench Blocksworld", model, success, 1.0, _PLANBENCH,
            note=_ZERO_SHOT,
        )
        for model, success in (
            ("DeepSeek R1", 0.991),
            ("o1-preview", 0.978),
            ("Claude 3.5 Sonnet", 0.548),
            ("GPT-4o", 0.355),
        )
    ),
    *(
        PublishedFigure(
            "io", "blocksworld", ("planbench-hard",), "PlanBench Blocksworld Hard", model, success, 1.0,
            _PLANBENCH, note=_ZERO_SHOT,
        )
        for model, success in (("DeepSeek R1", 0.536), ("o1-preview", 0.2365))
    ),
    *(
        PublishedFigure(
            "generalized-plan", domain, ("paper", "generated"), f"{domain}, {label}", "GPT-4", success, None,
            "Silver et al. (AAAI 2024), Table 1 (mean over 10 seeds)", calls_per="domain", sample=300,
            label=label,
        )
        for label, column in (("main", 0), ("no-cot", 1), ("no-debug", 2), ("no-names", 3))
        for domain, success in zip(
            ("delivery", "forest", "gripper", "miconic", "ferry", "spanner", "heavy"),
            (
                (0.90, 1.00, 0.90, 0.01, 0.80, 0.10, 0.60),
                (0.70, 1.00, 0.80, 0.13, 0.20, 0.00, 1.00),
                (0.10, 0.62, 0.50, 0.00, 0.26, 0.00, 0.20),
                (0.10, 0.11, 0.10, 0.00, 0.00, 0.00, 0.00),
            )[column],
        )
    ),
    *(
        PublishedFigure(
            approach, domain, ("paper", "generated"), f"{domain}, {approach.upper()}", "none", success, 0.0,
            "Silver et al. (AAAI 2024), Table 1 (mean over 10 seeds), from Yang et al. (IJCAI 2022)",
            sample=300, note="no model: a lifted decision list learned by policy search",
        )
        for approach, column in (("pg3", 0), ("pe", 1), ("pc", 2))
        for domain, success in zip(
            ("delivery", "forest", "gripper", "miconic", "ferry", "spanner", "heavy"),
            (
                (1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 0.00),
                (0.00, 1.00, 0.00, 0.00, 0.00, 1.00, 0.00),
                (0.10, 0.16, 0.20, 0.10, 0.90, 0.56, 0.00),
            )[column],
        )
    ),
    PublishedFigure(
        "asp", "mcp", ("english",), "Missionaries and Cannibals and 16 elaborations (17 tasks)", "o1-preview",
        7 / 17, None, "Ishay and Lee, LLM+AL (AAAI 2025), Table 1 (fully automatic)", sample=17,
        note="genplan counts a task solved when clingo's answer equals the known one, with no manual correction",
    ),
)  # fmt: skip
"""Every published figure genplan compares with."""


def _family(problem_set: str) -> str:
    """``"planbench x50"`` -> ``"planbench"``; ``"planbench:by-length:2,4 x10"`` -> ``"planbench:by-length:2,4"``."""
    return problem_set.split(" x")[0]


def matches(figure: PublishedFigure, run: Mapping[str, Any]) -> bool:
    """Whether ``run`` (a ``metadata.json`` / ``runs.jsonl`` row) is on ``figure``'s benchmark."""
    domain = str(run.get("domain", ""))
    family = _family(str(run.get("problem_set") or ""))
    return (
        run.get("approach") == figure.approach
        and figure.label in (None, run.get("label"))
        and (domain == figure.domain or domain.startswith(figure.domain + "-"))
        and any(family == name or family.startswith(name + ":") for name in figure.problem_sets)
    )


@dataclass(frozen=True)
class Measured:
    """genplan's runs on one benchmark with one model, pooled.

    Attributes:
        runs: how many runs.
        problems / solved: evaluation problems and those solved, over the runs.
        llm_calls: LLM calls over the runs; world_model_queries: queries over the runs, or ``None``
            when no run queried a world model.
    """

    runs: int
    problems: int
    solved: int
    llm_calls: int
    world_model_queries: int | None


def _pool(runs: Sequence[Mapping[str, Any]]) -> Measured:
    queries = [run["world_model_queries"] for run in runs if run.get("world_model_queries") is not None]
    return Measured(
        runs=len(runs),
        problems=sum(int(run.get("evaluation_problems", 0)) for run in runs),
        solved=sum(int(run.get("solved", 0)) for run in runs),
        llm_calls=sum(int(run.get("llm_calls", 0)) for run in runs),
        world_model_queries=sum(queries) if queries else None,
    )


def _success(solved: int, total: int) -> str:
    low, high = wilson_interval(solved, total)
    return f"{solved}/{total} {100 * solved / total:.1f}% ({100 * low:.0f}-{100 * high:.0f})"


def _published_success(figure: PublishedFigure) -> str:
    if figure.success is None:
        return "not reported"
    if figure.sample is None:
        return f"{100 * figure.success:.1f}% (sample not stated)"
    return _success(round(figure.success * figure.sample), figure.sample)


def beside_the_papers(runs: Iterable[Mapping[str, Any]]) -> str:
    """A Markdown table: for each benchmark and model genplan ran on, genplan's row (success
    ``solved/total rate% (95% Wilson interval)``, LLM calls per problem, or per run where the paper
    counts per domain, world-model queries per problem, model, sample) above the paper's rows on
    that benchmark; empty when no run is on a published benchmark."""
    groups: dict[tuple[str, str, str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for run in runs:
        for figure in PUBLISHED:
            if matches(figure, run) and run.get("evaluation_problems"):
                key = (figure.approach, figure.benchmark, str(run.get("model", "unknown")), figure.source)
                groups[key].append(run)
                break
    if not groups:
        return ""
    rows: list[list[str]] = []
    shown: set[tuple[str, str]] = set()
    for (approach, benchmark, model, _), members in sorted(groups.items()):
        measured = _pool(members)
        figures = [f for f in PUBLISHED if f.approach == approach and f.benchmark == benchmark]
        per_domain = any(f.calls_per == "domain" for f in figures)
        calls = measured.llm_calls / (measured.runs if per_domain else measured.problems)
        queries = (
            "-"
            if measured.world_model_queries is None
            else f"{measured.world_model_queries / measured.problems:.2f} / problem"
        )
        sets = sorted({str(run.get("problem_set")) for run in members})
        rows.append(
            [
                approach,
                benchmark,
                f"genplan ({', '.join(sets)}; {measured.runs} run{'s' * (measured.runs != 1)})",
                model,
                str(measured.problems),
                _success(measured.solved, measured.problems),
                f"{calls:.2f} / {'domain' if per_domain else 'problem'}",
                queries,
            ]
        )
        if (approach, benchmark) in shown:
            continue
        shown.add((approach, benchmark))
        for figure in figures:
            note = f"; {figure.note}" if figure.note else ""
            rows.append(
                [
                    approach,
                    benchmark,
                    f"{figure.source}{note}",
                    figure.model,
                    "-" if figure.sample is None else str(figure.sample),
                    _published_success(figure),
                    "-" if figure.llm_calls is None else f"{figure.llm_calls:.2f} / {figure.calls_per}",
                    figure.world_model_queries or "-",
                ]
            )
    header = ["method", "benchmark", "source", "model", "problems", "success (95% CI)", "LLM calls", "WMQ"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"
