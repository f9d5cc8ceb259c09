"""Write the LLM-as-planner reports (success against the query budget, success by optimal plan
length with 95% Wilson intervals, cost per problem) from run folders.

Usage: ``python scripts/make_planner_reports.py RUNS_OR_SAVED_FOLDER ... --out OUT_DIR``, e.g.
``python scripts/make_planner_reports.py synthesized/blocksworld-by-length-4-8-12-x2 --out reports/planners``.
Every folder below the given ones that holds a ``metadata.json`` is a run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from genplan.experiments.planner_reports import make_planner_reports, read_records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folders", type=Path, nargs="+", help="run folders, or folders holding run folders")
    parser.add_argument("--out", type=Path, required=True, help="where planners.md and the figure go")
    args = parser.parse_args(argv)
    written = make_planner_reports(read_records(args.folders), args.out)
    for path in written:
        print(path)
    if not written:
        print(f"no runs under {', '.join(map(str, args.folders))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
