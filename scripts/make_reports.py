"""Write the paper's tables (Markdown) and figures (PNG) from experiment results.

Usage: ``python scripts/make_reports.py RESULTS_DIR OUT_DIR`` (RESULTS_DIR holds runs.jsonl and,
for Figure 3, figure3.jsonl, as written by scripts/run_experiments.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from genplan.experiments.reports import make_reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    written = make_reports(args.results, args.out)
    for path in written:
        print(path)
    if not written:
        print(f"no results in {args.results}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
