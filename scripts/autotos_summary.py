"""Print the AutoToS runs' figures as Markdown: the saved-runs rows of docs/approaches/autotos.md,
and the paper's measures.

For every run folder ``<root>/<domain>/autotos*-seed<S>/`` (default root: ``synthesized/``):

1. the table row of docs/approaches/autotos.md: domain, label, LLM calls, feedback by phase
   (goal / successor soundness / successor completeness), evaluation problems solved, and the
   generalized-plan run's result on the same seed (``main-seed<S>`` beside it);
2. the paper's measures: LLM calls until every test passed (Table 1), feedback by phase
   (Figure 3), error categories (Figure 4), and how the unsolved problems ended.

Run: ``python scripts/autotos_summary.py [ROOT]``
"""

from __future__ import annotations

import argparse
from pathlib import Path

from genplan.approaches.base import RunRecord, read_record
from genplan.paths import data_folder


def _solved(record: RunRecord) -> str:
    return f"{record.solved}/{len(record.problems)}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("root", nargs="?", type=Path, help="the folder of saved runs (default: synthesized/)")
    args = parser.parse_args()
    root = args.root if args.root is not None else data_folder("synthesized")
    folders = sorted(p.parent for p in root.glob("*/autotos*-seed*/metadata.json"))
    if not folders:
        print(f"no AutoToS runs under {root}")
        return
    records = [(folder, read_record(folder)) for folder in folders]
    print(
        "| domain | label | LLM calls | feedback (goal / soundness / completeness) | evaluation solved | generalized plan solved |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for folder, record in records:
        baseline = folder.parent / f"main-seed{record.seed}"
        other = _solved(read_record(baseline)) if (baseline / "metadata.json").is_file() else "-"
        phases = record.feedback
        print(
            f"| {record.domain} | {record.label} | {record.llm_calls} | {phases.get('goal', 0)} / "
            f"{phases.get('successor-soundness', 0)} / {phases.get('successor-completeness', 0)} | "
            f"{_solved(record)} | {other} |"
        )
    print()
    print("| domain | label | outcome | calls until passed | error categories | unsolved |")
    print("| --- | --- | --- | --- | --- | --- |")
    for _, record in records:
        details = record.details
        categories = ", ".join(f"{k} {v}" for k, v in details.get("error_categories", {}).items()) or "-"
        unsolved = ", ".join(f"{k} {v}" for k, v in record.statuses.items() if k != "solved") or "-"
        until = details.get("calls_until_passed")
        print(
            f"| {record.domain} | {record.label} | {details.get('outcome')} | {until if until is not None else '-'} | "
            f"{categories} | {unsolved} |"
        )


if __name__ == "__main__":
    main()
