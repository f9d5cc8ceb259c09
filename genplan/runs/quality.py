"""Quality and agile scores of run records side by side (the IPC learning track's scores).

Scores are computed by :mod:`genplan.plans.scores` from each record's per-problem plan costs and
seconds, against reference costs (:mod:`genplan.plans.references`); ``C*`` for a problem is the
smallest of its reference and every compared record's plan (the IPC rule), so the same record
can score differently beside a better approach.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from genplan.pddl.problem_sets import IPC_LEVELS
from genplan.plans.references import References
from genplan.plans.scores import Attempt, ScoreSums, score
from genplan.runs.record import RunRecord


def attempts_of(record: RunRecord) -> list[Attempt]:
    """One :class:`~genplan.plans.scores.Attempt` per evaluation problem of ``record``: solved
    problems with their plan cost (the plan length in records made before costs were kept) and
    seconds, the rest unsolved."""
    attempts = []
    for result in record.problems:
        cost = result.plan_cost if result.plan_cost is not None else result.plan_length
        solved = result.solved and cost is not None
        attempts.append(
            Attempt(result.problem, float(cost) if solved else None, result.seconds if solved else None)  # type: ignore[arg-type]
        )
    return attempts


def score_records(
    records: Mapping[str, RunRecord], references: References | None, time_limit: float
) -> dict[str, ScoreSums]:
    """Every record's scores (name -> sums), ``C*`` taken over the references and all records."""
    costs = dict(references.costs) if references is not None else {}
    return score({name: attempts_of(record) for name, record in records.items()}, costs, time_limit)


def scores_json(sums: ScoreSums, references: References | None, time_limit: float) -> dict[str, object]:
    """What a run record keeps as ``scores`` for one run scored by itself: the quality summed
    over the problems that have a reference cost only (``quality``, ``null`` when none has
    one: with no reference and no other plan, ``C*`` would be the plan's own cost), how many
    have one per level (``references_found``), the agile sums over every problem, the time
    limit and where the references came from."""
    data = sums.to_json()
    data["quality"] = (
        {k: round(v, 4) for k, v in sums.referenced_quality.items()}
        if sums.referenced.get("all", 0)
        else None
    )
    return {
        **data,
        "time_limit_seconds": time_limit,
        "references": references.source if references is not None else None,
    }


def scores_text(scores: Mapping[str, Any]) -> str:
    """A record's ``scores`` for a person: ``Scores: quality 27.31/30 (easy 10.00/10, ...),
    references found 30/30; agile 25.02/30 (...); time limit 30 s; references lama-first (60 s
    per problem)``. The quality is shown over the problems with a reference, and not at all
    when none has one (records made before ``references_found`` was kept read as every problem
    having one)."""
    problems = scores.get("problems", {})
    found = scores.get("references_found", problems)
    levels = [level for level in IPC_LEVELS if level in problems]
    quality = scores.get("quality")
    total, with_reference = problems.get("all", 0), found.get("all", 0)
    if quality is None or not with_reference:
        quality_part = f"quality not scored (references found 0/{total})"
    else:
        quality_part = f"quality {quality.get('all', 0.0):.2f}/{with_reference}" + _by_level(
            quality, found, levels
        )
        quality_part += f", references found {with_reference}/{total}"
        if with_reference < total:
            quality_part += f" ({total - with_reference} without one not scored for quality)"
    agile = scores.get("agile", {})
    agile_part = f"agile {agile.get('all', 0.0):.2f}/{total}" + _by_level(agile, problems, levels)
    source = scores.get("references") or "none"
    limit = scores.get("time_limit_seconds")
    return f"Scores: {quality_part}; {agile_part}; time limit {limit:g} s; references {source}"


def _by_level(sums: Mapping[str, float], counts: Mapping[str, int], levels: list[str]) -> str:
    shown = [level for level in levels if counts.get(level)]
    if not shown:
        return ""
    return " (" + ", ".join(f"{lv} {sums.get(lv, 0.0):.2f}/{counts[lv]}" for lv in shown) + ")"
