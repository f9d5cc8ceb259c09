"""Tables and figures as files, from a grid's JSON Lines results.

Inputs (written by :mod:`genplan.experiments.grid`): ``runs.jsonl``, and for Figure 3
``figure3.jsonl``. Outputs:

* ``comparison.md``: every approach side by side per domain: fraction solved, LLM calls per
  run and per evaluation problem (a generalized plan or AutoToS pays once per domain, a model
  used as the planner pays per problem), tokens, median runtime;
* every table says which evaluation problems the runs were measured on (the record's
  ``problem_set`` and ``generators``: ``generated (generators v2)``, ``paper``, ...); where runs of
  one domain used different problem sets, each set gets its own rows;
* ``quality.md``: beside ``comparison.md``, the approaches' IPC quality and agile scores side
  by side (:func:`quality_table`, from ``problems.jsonl``);
* ``difficulty.md``: problems solved per IPC difficulty level (easy, medium, hard), where the
  problem keys have one (``problems.jsonl``);
* ``search.md``: the search effort of the approaches that search (AutoToS, the heuristic
  approach): states expanded, evaluated and generated per problem (:func:`search_table`, from
  ``problems.jsonl``);
* the paper's (Silver et al. 2024, Sec. 5), from the generalized-plan runs, whose labels
  (``main``, ``no-cot``, ``no-debug``, ``no-names``) are its ablations, and the ``pg3``, ``pe``
  and ``pc`` runs its policy-search baselines: ``table1.md``
  (fraction solved, mean over seeds), ``table2.md`` (feedback kinds, with scaling feedback as
  a fifth kind and plan-quality feedback as a sixth), ``table3.md`` (fraction
  solved, max over seeds), ``figure3.png`` (runtime against size, log-log, beside LAMA-first)
  with its numbers and speed-ups in ``figure3.md``, ``figure4.png`` (fraction solved against
  debugging steps), ``figure5.png`` (training problems used).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from genplan.experiments.journal import read_jsonl
from genplan.pddl.selection import PAPER, recorded_source
from genplan.plans.failures import FailureKind

FEEDBACK_KINDS = tuple(
    kind.value
    for kind in (
        FailureKind.PYTHON_EXCEPTION,
        FailureKind.PLAN_SEMANTICS,
        FailureKind.PLAN_SYNTAX,
        FailureKind.TIMEOUT,
        FailureKind.SCALING,
        FailureKind.PLAN_QUALITY,
        FailureKind.CRASHED,
        FailureKind.NO_CODE,
    )
)
"""Table 2's rows: the paper's four kinds, scaling and plan-quality feedback (beyond the paper),
and the sandbox's and the answer's own failures."""
GENERALIZED_PLAN = "generalized-plan"
PAPER_LABELS = ("main", "no-cot", "no-debug", "no-names", "pg3", "pe", "pc")
POLICY_SEARCH_BASELINES = ("pg3", "pe", "pc")
"""Table 1's baselines from Yang et al. (2022), columns beside the generalized plan's variants."""


def baseline_runs(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The PG3, PE and PC runs (their approach name is their Table 1 column)."""
    return [run for run in runs if run.get("approach") in POLICY_SEARCH_BASELINES]


def paper_runs(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The generalized-plan runs in the shape the paper's tables use: ``approach`` is the
    label (the ablation), and ``feedback_kinds`` and ``training_problems_used`` come from the
    record's details."""
    shaped = []
    for run in runs:
        if run.get("approach") != GENERALIZED_PLAN:
            continue
        details = run.get("details") or {}
        shaped.append(
            {
                **run,
                "approach": run.get("label", "main"),
                "feedback_kinds": details.get("feedback_kinds", []),
                "training_problems_used": details.get("training_problems_used", []),
            }
        )
    return shaped


def problem_set_of(run: dict[str, Any]) -> str:
    """The evaluation problems a run was measured on, as tables name them: ``generated (generators
    v2)``, ``paper`` (the paper's own files), ``by-length:4,8,12 x2 (generators v2)``, ``folder``,
    or ``not recorded`` for records made before runs kept it."""
    problem_set = run.get("problem_set")
    if problem_set is None:
        return "not recorded"
    generators = run.get("generators")
    if generators is None or recorded_source(problem_set) == PAPER:
        return str(problem_set)
    return f"{problem_set} (generators {generators})"


def problem_sets_note(runs: list[dict[str, Any]]) -> str:
    """One line naming the problem sets behind ``runs``, for the top of a table."""
    sets = sorted({problem_set_of(run) for run in runs})
    explained = [
        f"{s} (the paper's own seed-0 evaluation files)" if recorded_source(s) == PAPER else s for s in sets
    ]
    return f"Evaluation problems: {'; '.join(explained)}.\n\n"


def _domain_rows(runs: list[dict[str, Any]]) -> dict[int, str]:
    """Each run's row name: its domain, with its problem set when one domain's runs used several."""
    sets: dict[str, set[str]] = defaultdict(set)
    for run in runs:
        sets[run["domain"]].add(problem_set_of(run))
    return {
        id(run): run["domain"]
        if len(sets[run["domain"]]) == 1
        else f"{run['domain']} ({problem_set_of(run)})"
        for run in runs
    }


def comparison_table(runs: list[dict[str, Any]]) -> str:
    """Every approach side by side, per domain: one row per approach and label with the runs
    (seeds) behind it, the fraction solved (mean over runs), LLM calls per run and per
    evaluation problem (means), tokens per run (mean of prompt + completion; ``n/a`` when a
    backend reported none) and the median runtime (median over runs of each run's median
    seconds on solved problems; ``-`` when nothing was solved), the problem set
    (:func:`problem_set_of`), and who checked the returned plans over the runs (``VAL 58,
    simulator 2``; ``not recorded`` for runs made before records kept it)."""
    groups: dict[tuple[str, str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for run in runs:
        groups[(run["domain"], run["approach"], run.get("label", ""), problem_set_of(run))].append(run)
    rows = []
    for (domain, approach, label, problem_set), members in sorted(groups.items()):
        calls = [run.get("llm_calls", 0) for run in members]
        per_problem = [run.get("llm_calls", 0) / max(1, run.get("evaluation_problems", 0)) for run in members]
        tokens = [
            None
            if run.get("prompt_tokens") is None or run.get("completion_tokens") is None
            else run["prompt_tokens"] + run["completion_tokens"]
            for run in members
        ]
        medians = [run["median_seconds"] for run in members if run.get("median_seconds") is not None]
        rows.append(
            [
                domain,
                approach,
                label,
                str(len(members)),
                f"{statistics.mean(run['fraction_solved'] for run in members):.2f}",
                f"{statistics.mean(calls):.1f}",
                f"{statistics.mean(per_problem):.2f}",
                "n/a" if None in tokens else f"{statistics.mean(t for t in tokens if t is not None):,.0f}",
                f"{statistics.median(medians):.4g} s" if medians else "-",
                problem_set,
                _checkers(members),
            ]
        )
    header = [
        "domain",
        "approach",
        "label",
        "runs",
        "fraction solved",
        "LLM calls",
        "calls per problem",
        "tokens",
        "median runtime",
        "problems",
        "checked by",
    ]
    return _markdown(header, rows)


def _checkers(runs: list[dict[str, Any]]) -> str:
    """Problems per checker over ``runs`` (their ``checked_by`` counts), VAL first."""
    from genplan.runs.record import CHECKER_NAMES

    counts: Counter[str] = Counter()
    for run in runs:
        counts.update(run.get("checked_by") or {})
    if not any("checked_by" in run for run in runs):
        return "not recorded"
    order = [name for name in CHECKER_NAMES if name in counts] + sorted(set(counts) - set(CHECKER_NAMES))
    return ", ".join(f"{CHECKER_NAMES.get(name, name)} {counts[name]}" for name in order) or "no plan"


def _order(values: Iterable[str], preferred: Sequence[str]) -> list[str]:
    unique = set(values)
    return [v for v in preferred if v in unique] + sorted(unique - set(preferred))


def _markdown(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def fraction_table(runs: list[dict[str, Any]], combine: Callable[[list[float]], float]) -> str:
    """Domain x approach table of ``combine`` over seeds of the fraction solved (Tables 1 and 3);
    a domain whose runs used several problem sets gets a row per set (``gripper (paper)``)."""
    cells: dict[tuple[str, str], list[float]] = defaultdict(list)
    names = _domain_rows(runs)
    for run in runs:
        cells[(names[id(run)], run["approach"])].append(run["fraction_solved"])
    approaches = _order((a for _, a in cells), PAPER_LABELS)
    domains = sorted({d for d, _ in cells})
    rows = [
        [domain] + [f"{combine(cells[(domain, a)]):.2f}" if (domain, a) in cells else "-" for a in approaches]
        for domain in domains
    ]
    return _markdown(["domain", *approaches], rows)


def feedback_table(runs: list[dict[str, Any]]) -> str:
    """Table 2: percentage of each feedback kind over all runs, runs that later solved every
    evaluation problem, and the rest."""
    groups = {
        "all runs": runs,
        "runs that solved all": [r for r in runs if r["fraction_solved"] == 1.0],
        "other runs": [r for r in runs if r["fraction_solved"] < 1.0],
    }
    columns = {}
    for label, members in groups.items():
        counts = Counter(kind for run in members for kind in run["feedback_kinds"])
        total = sum(counts.values())
        columns[label] = {k: (100.0 * counts[k] / total if total else 0.0) for k in FEEDBACK_KINDS}
        columns[label]["_n"] = total
    rows = [[kind] + [f"{columns[label][kind]:.0f}%" for label in groups] for kind in FEEDBACK_KINDS]
    rows.append(["feedback messages"] + [str(columns[label]["_n"]) for label in groups])
    return _markdown(["feedback kind", *groups], rows)


def difficulty_table(problems: list[dict[str, Any]]) -> str | None:
    """Solved per IPC difficulty level, per domain, approach and label (over all seeds): one
    column per level (``solved/total``) from the problem keys (``testing/hard/p03.pddl``), or
    ``None`` when no problem's key has a level."""
    from genplan.pddl.problem_sets import IPC_LEVELS, problem_level

    cells: dict[tuple[str, str, str], dict[str, list[int]]] = defaultdict(dict)
    for row in problems:
        level = problem_level(str(row.get("problem", "")))
        if level is None:
            continue
        counts = cells[(row["domain"], row["approach"], row.get("label", ""))].setdefault(level, [0, 0])
        counts[0] += row.get("status") == "solved"
        counts[1] += 1
    if not cells:
        return None
    levels = [level for level in IPC_LEVELS if any(level in c for c in cells.values())]
    rows = [
        [domain, approach, label]
        + [f"{c[level][0]}/{c[level][1]}" if level in c else "-" for level in levels]
        + [f"{sum(v[0] for v in c.values())}/{sum(v[1] for v in c.values())}"]
        for (domain, approach, label), c in sorted(cells.items())
    ]
    return _markdown(["domain", "approach", "label", *levels, "all"], rows)


SEARCH_FIGURES = ("expanded", "evaluated", "generated")
"""The per-problem search figures an approach may record in a problem's ``details``."""


def search_table(problems: list[dict[str, Any]]) -> str | None:
    """The search effort per domain, approach and label (over all seeds), for the problems whose
    ``details`` record search figures (:data:`SEARCH_FIGURES`: AutoToS's BFS, the heuristic
    approach's GBFS): problems searched and solved, then the median of each figure over the
    solved problems (``-`` when none was solved or the approach does not record the figure), and
    the median over every problem searched. ``None`` when no problem has search figures."""
    cells: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in problems:
        details = row.get("details") or {}
        if isinstance(details, dict) and isinstance(details.get("expanded"), int):
            cells[(row["domain"], row["approach"], row.get("label", ""))].append(row)
    if not cells:
        return None

    def median(rows: list[dict[str, Any]], name: str) -> str:
        values = [r["details"][name] for r in rows if isinstance(r["details"].get(name), int)]
        return f"{statistics.median(values):,.0f}" if values else "-"

    table = []
    for (domain, approach, label), rows in sorted(cells.items()):
        solved = [r for r in rows if r.get("status") == "solved"]
        table.append(
            [domain, approach, label, str(len(rows)), str(len(solved))]
            + [median(solved, name) for name in SEARCH_FIGURES]
            + [median(rows, "expanded")]
        )
    header = ["domain", "approach", "label", "problems", "solved"]
    header += [f"median {name} (solved)" for name in SEARCH_FIGURES] + ["median expanded (all)"]
    return _markdown(header, table)


def quality_table(problems: list[dict[str, Any]], time_limit: float = 30.0) -> str | None:
    """The IPC quality and agile scores, per domain, approach and label (mean over seeds of
    each run's sums), every approach side by side: ``C*`` of a problem is the cheapest valid
    plan any run of that domain and seed found for it (:mod:`genplan.plans.scores`; no
    reference costs here), ``time_limit`` the agile score's ``T`` in seconds. Columns: the
    quality sum overall and per IPC level where keys have one, the agile sum, the problems
    per run. A run that was alone on its domain and seed had nothing to take ``C*`` from but
    its own plans, so its quality is ``-`` (the mean is over the seeds where it had company).
    ``None`` when there are no problem rows."""
    from genplan.pddl.problem_sets import IPC_LEVELS
    from genplan.plans.scores import Attempt, score

    if not problems:
        return None
    by_domain_seed: dict[tuple[str, Any], dict[tuple[str, str], list[Attempt]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for row in problems:
        cost = row.get("plan_cost")
        cost = row.get("plan_length") if cost is None else cost  # records made before costs were kept
        solved = row.get("status") == "solved" and isinstance(cost, (int, float))
        attempt = Attempt(
            str(row.get("problem", "")),
            float(cost) if solved and cost is not None else None,
            float(row.get("seconds", 0.0)) if solved else None,
        )
        by_domain_seed[(row["domain"], row.get("seed"))][(row["approach"], row.get("label", ""))].append(
            attempt
        )
    sums: dict[tuple[str, str, str], list[Any]] = defaultdict(list)
    compared: dict[tuple[str, str, str], list[Any]] = defaultdict(list)
    for (domain, _), attempts in by_domain_seed.items():
        named = {f"{approach}\t{label}": a for (approach, label), a in attempts.items()}
        for name, total in score(named, {}, time_limit).items():
            approach, label = name.split("\t")
            sums[(domain, approach, label)].append(total)
            if len(named) > 1:
                compared[(domain, approach, label)].append(total)
    levels = [lv for lv in IPC_LEVELS if any(lv in t.problems for ts in sums.values() for t in ts)]
    rows = []
    for (domain, approach, label), totals in sorted(sums.items()):

        def mean(kind: str, level: str, totals: list[Any] = totals) -> str:
            values = [getattr(t, kind).get(level, 0.0) for t in totals]
            return f"{statistics.mean(values):.2f}" if values else "-"

        with_company = compared[(domain, approach, label)]

        count = statistics.mean(t.problems.get("all", 0) for t in totals)
        rows.append(
            [domain, approach, label, str(len(totals)), mean("quality", "all", with_company)]
            + [mean("quality", level, with_company) for level in levels]
            + [mean("agile", "all"), f"{count:g}"]
        )
    header = ["domain", "approach", "label", "runs", "quality", *[f"quality {lv}" for lv in levels]]
    return _markdown([*header, "agile", "problems"], rows)


def _seconds(seconds: float) -> str:
    return f"{seconds:,.0f} s" if seconds >= 100 else f"{seconds:.3g} s"


def mechanisms_table(runs: list[dict[str, Any]], problems: list[dict[str, Any]]) -> str:
    """The generalized plan's mechanisms side by side, one row per label and domain (seeds summed),
    then one row per label over all domains: problems solved (and per IPC difficulty level where
    the problem keys have one), feedback messages by kind, LLM calls, tokens (``n/a`` when a
    backend reported none), wall-clock seconds of the runs, and programs found order-sensitive
    by ``--shuffles`` (``-`` without shuffles)."""
    from genplan.pddl.problem_sets import IPC_LEVELS, problem_level

    runs = [run for run in runs if run.get("approach") == GENERALIZED_PLAN]
    levels = [
        level
        for level in IPC_LEVELS
        if any(problem_level(str(p.get("problem", ""))) == level for p in problems)
    ]
    solved: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(dict)
    for row in problems:
        if row.get("approach") != GENERALIZED_PLAN:
            continue
        for key in ((row.get("label", ""), row["domain"]), (row.get("label", ""), "all domains")):
            for level in ("all", problem_level(str(row.get("problem", "")))):
                if level is not None:
                    counts = solved[key].setdefault(level, [0, 0])
                    counts[0] += row.get("status") == "solved"
                    counts[1] += 1
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for run in runs:
        groups[(run.get("label", ""), run["domain"])].append(run)
        groups[(run.get("label", ""), "all domains")].append(run)
    labels = _order((label for label, _ in groups), ("main", "scaling"))
    rows = []
    for label in labels:
        domains = sorted(domain for lab, domain in groups if lab == label and domain != "all domains")
        for domain in [*domains, *(["all domains"] if len(domains) > 1 else [])]:
            members = groups[(label, domain)]
            by_level = solved.get((label, domain), {})
            total = by_level.get("all", [sum(r.get("solved", 0) for r in members), 0])
            feedback: Counter[str] = Counter()
            for run in members:
                feedback.update(run.get("feedback") or {})
            tokens = [
                None
                if run.get("prompt_tokens") is None or run.get("completion_tokens") is None
                else run["prompt_tokens"] + run["completion_tokens"]
                for run in members
            ]
            walls = [run.get("wall_seconds") for run in members]
            shuffled = [r for r in members if "order_sensitive" in (r.get("details") or {})]
            rows.append(
                [
                    label,
                    domain,
                    f"{total[0]}/{total[1]}" + (f" ({total[0] / total[1]:.2f})" if total[1] else ""),
                    *[f"{by_level[lv][0]}/{by_level[lv][1]}" if lv in by_level else "-" for lv in levels],
                    ", ".join(f"{kind} {n}" for kind, n in sorted(feedback.items())) or "-",
                    str(sum(run.get("llm_calls", 0) for run in members)),
                    "n/a" if None in tokens else f"{sum(t for t in tokens if t is not None):,}",
                    "-" if None in walls else _seconds(sum(w for w in walls if w is not None)),
                    f"{sum(bool(r['details']['order_sensitive']) for r in shuffled)}/{len(shuffled)}"
                    if shuffled
                    else "-",
                ]
            )
    header = [
        "label",
        "domain",
        "solved",
        *levels,
        "feedback by kind",
        "LLM calls",
        "tokens",
        "wall time",
        "order-sensitive programs",
    ]
    return _markdown(header, rows)


def _pyplot() -> Any:
    """matplotlib's pyplot on the non-interactive Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(figure: Any, path: Path) -> Path:
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    _pyplot().close(figure)
    return path


def figure3_table(records: list[dict[str, Any]]) -> str:
    """Figure 3's numbers: per domain and scale, median objects, each approach's median seconds and
    problems solved, and the program's speed-up over LAMA-first.

    A time-out counts as the full budget (as in the paper), so where LAMA-first timed out on
    any problem of a size the speed-up is a lower bound, shown with ">=".
    """
    groups: dict[tuple[str, int, str], list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        groups[(record["domain"], record["scale"], record["approach"])].append(record)
    rows = []
    for domain, scale in sorted({(d, s) for d, s, _ in groups}):
        program = groups.get((domain, scale, "program"), [])
        lama = groups.get((domain, scale, "lama-first"), [])
        members = program or lama
        row = [domain, f"{scale}x", f"{statistics.median(r['objects'] for r in members):.0f}"]
        for rows_of in (program, lama):
            if rows_of:
                seconds = statistics.median(r["seconds"] for r in rows_of)
                solved = sum(bool(r["solved"]) for r in rows_of)
                row += [f"{seconds:.4g}", f"{solved}/{len(rows_of)}"]
            else:
                row += ["-", "-"]
        if program and lama:
            ratio = statistics.median(r["seconds"] for r in lama) / max(
                statistics.median(r["seconds"] for r in program), 1e-9
            )
            bound = ">=" if any(not r["solved"] for r in lama) else ""
            row.append(f"{bound}{ratio:,.0f}x")
        else:
            row.append("-")
        rows.append(row)
    header = [
        "domain",
        "scale",
        "objects (median)",
        "program s (median)",
        "program solved",
        "LAMA-first s (median)",
        "LAMA-first solved",
        "speed-up",
    ]
    return _markdown(header, rows)


def figure3_points(records: list[dict[str, Any]]) -> dict[tuple[str, str], list[tuple[float, float, bool]]]:
    """Figure 3's points: ``(domain, approach) -> [(median objects, median seconds, timed out)]``
    by size, smallest first. ``timed out``: most problems of that size ran out of their budget
    (the median is the budget, a lower bound, not a measured time)."""
    from genplan.experiments.figure3 import median_by_size

    groups: dict[tuple[str, str, int], list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        groups[(record["domain"], record["approach"], record["scale"])].append(record)
    points: dict[tuple[str, str], list[tuple[float, float, bool]]] = defaultdict(list)
    for (domain, approach, scale), (objects, seconds) in median_by_size(records).items():
        members = groups[(domain, approach, scale)]
        out = sum(1 for r in members if not r["solved"] and r["seconds"] >= r.get("budget_seconds", math.inf))
        points[(domain, approach)].append((objects, seconds, 2 * out > len(members)))
    return {key: sorted(value) for key, value in sorted(points.items())}


def figure3(records: list[dict[str, Any]], path: Path) -> Path:
    """Median runtime against problem size (objects), one log-log panel per domain: the program
    beside LAMA-first; sizes where most problems timed out are drawn as open triangles on the
    labelled time budget (a lower bound), never as measured points; every panel's x axis is
    labelled at the sizes measured."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    points = figure3_points(records)
    domains = sorted({domain for domain, _ in points})
    budget = max((r["budget_seconds"] for r in records if "budget_seconds" in r), default=None)
    columns = min(4, max(1, len(domains)))
    rows = max(1, math.ceil(len(domains) / columns))
    figure, grid = _pyplot().subplots(rows, columns, figsize=(3.4 * columns, 3.0 * rows), squeeze=False)
    for index, axes in enumerate(grid.flat):
        if index >= len(domains):
            axes.set_visible(False)
            continue
        domain = domains[index]
        sizes: set[float] = set()
        for approach, style, colour in (("program", "-o", "C0"), ("lama-first", "--s", "C1")):
            series = points.get((domain, approach), [])
            measured = [(x, y) for x, y, out in series if not out]
            timed_out = [(x, y) for x, y, out in series if out]
            sizes |= {x for x, _, _ in series}
            if measured:
                axes.plot(
                    [x for x, _ in measured],
                    [max(y, 1e-5) for _, y in measured],
                    style,
                    color=colour,
                    label=approach,
                )
            if timed_out:
                axes.plot(
                    [x for x, _ in timed_out],
                    [y for _, y in timed_out],
                    "^",
                    markerfacecolor="none",
                    color=colour,
                    label=f"{approach}: timed out",
                )
        if budget is not None:
            axes.axhline(budget, color="grey", linestyle=":", linewidth=1, label=f"budget {budget:g} s")
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.xaxis.set_major_locator(FixedLocator(sorted(sizes)))
        axes.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:.0f}"))
        axes.xaxis.set_minor_formatter(NullFormatter())
        axes.tick_params(axis="x", labelsize=7, labelrotation=45)
        axes.set_title(domain)
        axes.set_xlabel("objects")
        axes.set_ylabel("median seconds")
        axes.legend(fontsize=6)
    figure.suptitle("Runtime against problem size")
    return _save(figure, path)


def figure4_series(runs: list[dict[str, Any]]) -> dict[str, dict[str, list[float]]]:
    """Figure 4's curves: ``label -> domain -> fraction solved after 0..4 debugging steps``, the mean
    over that label's runs (seeds) with per-step data (``--per-step``); never averaged across
    labels. A run that stopped early keeps its last value for later steps."""
    series: dict[str, dict[str, list[list[float]]]] = defaultdict(lambda: defaultdict(list))
    for run in runs:
        values = [s["fraction_solved"] for s in run.get("steps", []) if s["fraction_solved"] is not None]
        if values:
            series[run["approach"]][run["domain"]].append(values + [values[-1]] * (5 - len(values)))
    return {
        label: {
            domain: [statistics.mean(v[k] for v in rows) for k in range(5)]
            for domain, rows in sorted(by.items())
        }
        for label, by in ((label, series[label]) for label in _order(series, PAPER_LABELS))
    }


def figure4(runs: list[dict[str, Any]], path: Path) -> Path | None:
    """Fraction solved against the number of debugging steps, one panel per label (the main
    approach and each ablation), a line per domain; ``None`` (nothing drawn) when no run has
    per-step data."""
    series = figure4_series(runs)
    if not series:
        return None
    figure, grid = _pyplot().subplots(1, len(series), figsize=(4.2 * len(series), 3.8), squeeze=False)
    for axes, (label, by_domain) in zip(grid[0], series.items()):
        for domain, means in by_domain.items():
            axes.plot(range(5), means, "-o", label=domain)
        axes.set_xlabel("debugging steps")
        axes.set_ylabel("fraction of evaluation problems solved")
        axes.set_ylim(-0.05, 1.05)
        axes.set_xticks(range(5))
        axes.set_title(label)
        axes.legend(fontsize=7)
    figure.suptitle("Fraction solved against debugging steps")
    return _save(figure, path)


def figure5_counts(runs: list[dict[str, Any]]) -> dict[str, Counter[int]]:
    """Figure 5's bars: ``label -> {training problems used: runs}`` over the runs that solved every
    evaluation problem, per label (never pooled across labels)."""
    counts: dict[str, Counter[int]] = defaultdict(Counter)
    for run in runs:
        if run["fraction_solved"] == 1.0:
            counts[run["approach"]][len(run["training_problems_used"])] += 1
    return {label: counts[label] for label in _order(counts, PAPER_LABELS)}


def figure5(runs: list[dict[str, Any]], path: Path) -> Path | None:
    """Histogram of training problems used by runs that solved every evaluation problem, one panel
    per label, with integer ticks on both axes; ``None`` (nothing drawn) when no run did."""
    from matplotlib.ticker import MaxNLocator

    counts = figure5_counts(runs)
    if not counts:
        return None
    figure, grid = _pyplot().subplots(1, len(counts), figsize=(3.6 * len(counts), 3.4), squeeze=False)
    for axes, (label, used) in zip(grid[0], counts.items()):
        keys = list(range(min(used), max(used) + 1))
        axes.bar(keys, [used.get(k, 0) for k in keys])
        axes.set_xticks(keys)
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        axes.set_xlabel("training problems used")
        axes.set_ylabel("successful runs")
        axes.set_title(label)
    figure.suptitle("Training problems used")
    return _save(figure, path)


def make_reports(results_dir: Path, out_dir: Path) -> list[Path]:
    """Write every table and figure that the results allow; return the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    all_runs = read_jsonl(results_dir / "runs.jsonl")
    written = []
    problems = read_jsonl(results_dir / "problems.jsonl")
    if all_runs:
        from genplan.experiments.published import beside_the_papers

        published = beside_the_papers(all_runs)
        (out_dir / "comparison.md").write_text(
            "# Approaches compared: evaluation problems solved and what they cost\n\n"
            + problem_sets_note(all_runs)
            + comparison_table(all_runs)
            + ("\n## Beside the papers' published figures\n\n" + published if published else "")
        )
        written.append(out_dir / "comparison.md")
        quality = quality_table(problems)
        if quality is not None:
            (out_dir / "quality.md").write_text(
                "# Approaches compared: IPC quality and agile scores\n\n"
                "Sums over each run's evaluation problems, mean over seeds; C* is the cheapest plan any "
                "approach found for the problem; agile time limit 30 s. Quality is `-` for a run that was "
                "alone on its domain and seed (no other plan to take C* from).\n\n"
                + problem_sets_note(all_runs)
                + quality
            )
            written.append(out_dir / "quality.md")
    searched = search_table(problems)
    if searched is not None:
        (out_dir / "search.md").write_text(
            "# Search effort: states expanded, evaluated and generated per evaluation problem (all seeds)\n\n"
            "Evaluated: heuristic calls (the heuristic approach; AutoToS's BFS calls none). Medians over the "
            "problems solved, then over every problem searched.\n\n"
            + (problem_sets_note(all_runs) if all_runs else "")
            + searched
        )
        written.append(out_dir / "search.md")
    levels = difficulty_table(problems)
    if levels is not None:
        (out_dir / "difficulty.md").write_text(
            "# Evaluation problems solved by IPC difficulty level (all seeds)\n\n"
            + (problem_sets_note(all_runs) if all_runs else "")
            + levels
        )
        written.append(out_dir / "difficulty.md")
    runs = paper_runs(all_runs)
    columns = runs + baseline_runs(all_runs)
    if columns:
        for name, title, combine in (
            (
                "table1.md",
                "Table 1: fraction of evaluation problems solved (mean over seeds)",
                statistics.mean,
            ),
            ("table3.md", "Table 3: fraction of evaluation problems solved (max over seeds)", max),
        ):
            (out_dir / name).write_text(
                f"# {title}\n\n{problem_sets_note(columns)}{fraction_table(columns, combine)}"
            )
            written.append(out_dir / name)
    if runs:
        tables = {
            "table2.md": ("Table 2: feedback kinds during automated debugging", feedback_table(runs)),
        }
        for name, (title, body) in tables.items():
            (out_dir / name).write_text(f"# {title}\n\n{problem_sets_note(runs)}{body}")
            written.append(out_dir / name)
        for drawn in (figure4(runs, out_dir / "figure4.png"), figure5(runs, out_dir / "figure5.png")):
            if drawn is not None:
                written.append(drawn)
    runtime = read_jsonl(results_dir / "figure3.jsonl")
    if runtime:
        (out_dir / "figure3.md").write_text(
            "# Figure 3: runtime against problem size, program and LAMA-first\n\n" + figure3_table(runtime)
        )
        written.append(out_dir / "figure3.md")
        written.append(figure3(runtime, out_dir / "figure3.png"))
    return written
