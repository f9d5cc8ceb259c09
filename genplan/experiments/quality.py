"""Quality and agile scores of run records side by side (the IPC learning track's scores).

Scores are computed by :mod:`genplan.plans.scores` from each record's per-problem plan costs and
seconds, against reference costs (:mod:`genplan.plans.references`); ``C*`` for a problem is the
smallest of its reference and every compared record's plan (the IPC rule), so the same record
can score differently beside a better approach.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from genplan.approaches.base import RunRecord
from genplan.pddl.problem_sets import IPC_LEVELS
from genplan.plans.references import References
from genplan.plans.scores import Attempt, ScoreSums, score


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
    """What a run record keeps as ``scores``: the sums per level, the time limit and where the
    references came from (``null`` without references: then ``C*`` is the best plan compared)."""
    return {
        **sums.to_json(),
        "time_limit_seconds": time_limit,
        "references": references.source if references is not None else None,
    }


def scores_text(scores: Mapping[str, Any]) -> str:
    """A record's ``scores`` for a person: ``Quality 27.31/30 (easy 10.00/10, ...), agile
    25.02/30 (...); references lama-first (60 s per problem)``."""
    problems = scores.get("problems", {})
    levels = [level for level in IPC_LEVELS if level in problems]
    parts = []
    for kind in ("quality", "agile"):
        sums = scores.get(kind, {})
        text = f"{kind} {sums.get('all', 0.0):.2f}/{problems.get('all', 0)}"
        if levels:
            text += " (" + ", ".join(f"{lv} {sums.get(lv, 0.0):.2f}/{problems[lv]}" for lv in levels) + ")"
        parts.append(text)
    source = scores.get("references") or "none (C* is the best plan compared)"
    limit = scores.get("time_limit_seconds")
    return f"Scores: {', '.join(parts)}; time limit {limit:g} s; references {source}"
