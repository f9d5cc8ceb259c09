"""Reports for the LLM-as-planner approaches, from run records (``metadata.json`` + ``results.json``).

* Success against the world-model query budget (Gonzalez-Pumariaga et al., Figure 5):
  a problem counts as solved within budget ``B`` when it was solved with at most ``B`` queries.
  The methods only stop earlier under a smaller budget, so one run at budget ``B0`` gives the
  curve for every ``B <= B0``; beyond its own budget a run's curve is not drawn. Approaches that
  query no world model (I/O, the generalized plan) are drawn flat, dashed.
* Success by optimal plan length with 95% Wilson score intervals (SymPlanner, Xiong et al.,
  Table 1 reports 95% intervals; Wilson's interval, unlike the normal approximation, stays inside
  [0, 1] and is not degenerate at 0 or n successes of few problems).
* Cost per problem: LLM calls, prompt and completion tokens (``n/a`` when the backend reported
  none, as the ``files`` backend), prompt characters (always known), world-model queries, and
  optimality (plan length equal to the optimal length; Gonzalez-Pumariaga et al., Sec. 4.1). Approaches that pay
  per domain (the generalized plan writes one program for all problems) are shown per problem
  too: their run's calls divided by its problems.

:func:`make_planner_reports` writes ``planners.md`` (both tables, and the runs beside the papers'
published figures: :mod:`genplan.experiments.published`) and ``planners_success_by_budget.png``
for every group of runs (domain and problem set).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from genplan.approaches.base import METADATA_FILE, RunRecord, read_record
from genplan.experiments.intervals import wilson_interval
from genplan.experiments.published import beside_the_papers


def read_records(roots: Iterable[Path]) -> list[RunRecord]:
    """Every run record under ``roots`` (folders holding ``metadata.json``, searched recursively),
    in path order.

    Raises:
        OSError, ValueError, KeyError: a ``metadata.json`` that is not a run record.
    """
    folders: list[Path] = []
    for root in roots:
        folders += sorted(p.parent for p in Path(root).glob(f"**/{METADATA_FILE}"))
    return [read_record(folder) for folder in folders]


def group_of(record: RunRecord) -> str:
    """The problems a run was on: ``"blocksworld (by-length:4,8,12 x2), seed 0"``, ``"gripper
    (paper), seed 0"``; a run on the generated problems shows the domain alone."""
    problem_set = record.problem_set or record.details.get("problem_set")
    shown = f" ({problem_set})" if problem_set and problem_set not in ("default", "generated") else ""
    return f"{record.domain}{shown}, seed {record.seed}"


def _uses_world_model(record: RunRecord) -> bool:
    return record.world_model_queries is not None


def success_at_budget(record: RunRecord, budget: int) -> float | None:
    """The fraction of problems solved within ``budget`` queries, or ``None`` when ``budget``
    exceeds the run's own (the run cannot tell)."""
    if not record.problems:
        return None
    own = record.details.get("budget")
    if _uses_world_model(record) and own is not None and budget > own:
        return None
    solved = sum(
        1
        for r in record.problems
        if r.solved and (not _uses_world_model(record) or (r.world_model_queries or 0) <= budget)
    )
    return solved / len(record.problems)


@dataclass(frozen=True)
class Cost:
    """One run's figures per problem (means over its problems)."""

    label: str
    approach: str
    problems: int
    solved: int
    interval: tuple[float, float]
    optimal: tuple[int, int] | None
    llm_calls: float
    prompt_tokens: float | None
    completion_tokens: float | None
    prompt_characters: float | None
    queries: float | None


def cost_of(record: RunRecord) -> Cost:
    """Per-problem figures of ``record`` (see the module docstring)."""
    results = record.problems
    count = len(results) or 1
    per_problem_calls = [r.llm_calls for r in results if r.llm_calls is not None]
    calls = statistics.mean(per_problem_calls) if per_problem_calls else record.llm_calls / count

    def mean_detail(name: str, total: int | None) -> float | None:
        if not per_problem_calls:  # an approach that pays per run: its totals over its problems
            return total / count if total is not None else None
        values = [r.details.get(name) for r in results]
        numbers = [v for v in values if isinstance(v, int)]
        return statistics.mean(numbers) if numbers and len(numbers) == len(values) else None

    known = [r for r in results if "optimal_length" in r.details]
    queries = [r.world_model_queries for r in results if r.world_model_queries is not None]
    return Cost(
        label=record.label,
        approach=record.approach,
        problems=len(results),
        solved=record.solved,
        interval=wilson_interval(record.solved, len(results)),
        optimal=(sum(bool(r.details.get("optimal")) for r in known), len(known)) if known else None,
        llm_calls=calls,
        prompt_tokens=mean_detail("prompt_tokens", record.prompt_tokens),
        completion_tokens=mean_detail("completion_tokens", record.completion_tokens),
        prompt_characters=mean_detail("prompt_characters", None),
        queries=statistics.mean(queries) if queries else None,
    )


def _number(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


def _markdown(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _rate(solved: int, total: int) -> str:
    if total == 0:
        return "-"
    low, high = wilson_interval(solved, total)
    return f"{solved}/{total} {100 * solved / total:.0f}% ({100 * low:.0f}-{100 * high:.0f})"


def cost_table(records: Sequence[RunRecord]) -> str:
    """Success (with its 95% Wilson interval), optimality and cost per problem, one row per run."""
    rows = []
    for record in records:
        cost = cost_of(record)
        optimal = "-" if cost.optimal is None else f"{cost.optimal[0]}/{cost.optimal[1]}"
        rows.append(
            [
                cost.label,
                _rate(cost.solved, cost.problems),
                optimal,
                _number(cost.queries),
                _number(cost.llm_calls),
                _number(cost.prompt_tokens, 0),
                _number(cost.completion_tokens, 0),
                _number(cost.prompt_characters, 0),
            ]
        )
    header = [
        "run",
        "solved (95% CI)",
        "optimal",
        "WMQ / problem",
        "LLM calls / problem",
        "prompt tokens / problem",
        "completion tokens / problem",
        "prompt characters / problem",
    ]
    return _markdown(header, rows)


def length_table(records: Sequence[RunRecord]) -> str:
    """Success by optimal plan length, ``solved/total rate% (95% Wilson interval)``, one row per
    run, a column per length and a total (SymPlanner, Table 1). Empty when no run knows lengths."""
    lengths = sorted(
        {
            int(r.details["optimal_length"])
            for record in records
            for r in record.problems
            if "optimal_length" in r.details
        }
    )
    if not lengths:
        return ""
    rows = []
    for record in records:
        by_length: dict[int, list[bool]] = defaultdict(list)
        for r in record.problems:
            if "optimal_length" in r.details:
                by_length[int(r.details["optimal_length"])].append(r.solved)
        cells = [_rate(sum(by_length[n]), len(by_length[n])) for n in lengths]
        every = [s for values in by_length.values() for s in values]
        rows.append([record.label, *cells, _rate(sum(every), len(every))])
    return _markdown(["run", *(f"length {n}" for n in lengths), "total"], rows)


def budget_table(records: Sequence[RunRecord], budgets: Sequence[int]) -> str:
    """The numbers behind the budget curves: success within each budget, per run."""
    rows = []
    for record in records:
        cells = []
        for budget in budgets:
            value = success_at_budget(record, budget)
            cells.append("-" if value is None else f"{value:.2f}")
        rows.append([record.label, *cells])
    return _markdown(["run", *(f"B={b}" for b in budgets)], rows)


def _budgets(records: Sequence[RunRecord]) -> list[int]:
    highest = 0
    for record in records:
        own = record.details.get("budget")
        used = max((r.world_model_queries or 0 for r in record.problems), default=0)
        highest = max(highest, own if isinstance(own, int) else used)
    return list(range(0, max(highest, 1) + 1))


LINE_STYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "s", "^", "D", "v", "P")


def line_styles(count: int) -> list[tuple[str, str, float]]:
    """``(line style, marker, line width)`` for ``count`` lines of one panel, each different, widths
    decreasing so that a line drawn over an identical one leaves it visible around it."""
    return [
        (LINE_STYLES[i % len(LINE_STYLES)], MARKERS[i % len(MARKERS)], max(1.0, 3.2 - 0.6 * i))
        for i in range(count)
    ]


def figure_success_by_budget(records: Sequence[RunRecord], path: Path) -> Path:
    """Success rate against the world-model query budget, one panel per group of runs (Gonzalez-Pumariaga et al.,
    Figure 5 style); runs without a world model are dashed horizontal lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        groups[group_of(record)].append(record)
    figure, axes_list = plt.subplots(
        1, len(groups) or 1, figsize=(6.4 * max(1, len(groups)), 4.4), squeeze=False
    )
    for axes, (group, members) in zip(axes_list[0], sorted(groups.items())):
        budgets = _budgets(members)
        every = max(1, len(budgets) // 8)
        for record, (style, marker, width) in zip(members, line_styles(len(members))):
            look = {
                "linestyle": style,
                "marker": marker,
                "linewidth": width,
                "markevery": every,
                "alpha": 0.85,
            }
            if _uses_world_model(record):
                points = [(b, success_at_budget(record, b)) for b in budgets]
                shown = [(b, v) for b, v in points if v is not None]
                axes.step(
                    [b for b, _ in shown], [v for _, v in shown], where="post", label=record.label, **look
                )
            else:
                value = success_at_budget(record, 0) or 0.0
                axes.plot(
                    [budgets[0], budgets[-1]], [value, value], label=f"{record.label} (no queries)", **look
                )
        axes.set_xlabel("world-model query budget")
        axes.set_ylabel("success rate")
        axes.set_ylim(-0.05, 1.05)
        axes.set_title(group, fontsize=9)
        axes.legend(fontsize=7)
    figure.suptitle("Success within a world-model query budget")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def make_planner_reports(records: Sequence[RunRecord], out_dir: Path) -> list[Path]:
    """Write ``planners.md`` (per group: success and cost, success by optimal length, success by
    budget) and ``planners_success_by_budget.png``; return the files written (none without runs)."""
    if not records:
        return []
    out_dir.mkdir(parents=True, exist_ok=True)
    groups: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        groups[group_of(record)].append(record)
    parts = ["# LLM-as-planner runs\n"]
    for group, members in sorted(groups.items()):
        models = ", ".join(sorted({f"{m.model} via {m.backend}" for m in members}))
        parts.append(f"## {group}\n\nModel: {models}.\n")
        parts.append("### Success and cost per problem\n\n" + cost_table(members))
        by_length = length_table(members)
        if by_length:
            parts.append("### Success by optimal plan length (95% Wilson intervals)\n\n" + by_length)
        budgets = _budgets(members)
        shown = sorted({b for b in (5, 10, 15, 20, 30, 40, 50, budgets[-1]) if b <= budgets[-1]})
        parts.append("### Success within a world-model query budget\n\n" + budget_table(members, shown))
    published = beside_the_papers(record.to_json() for record in records)
    if published:
        parts.append("## Beside the papers' published figures\n\n" + published)
    markdown = out_dir / "planners.md"
    markdown.write_text("\n".join(parts))
    return [markdown, figure_success_by_budget(records, out_dir / "planners_success_by_budget.png")]
