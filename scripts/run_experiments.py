r"""Run an experiment grid: a thin wrapper around ``genplan experiments`` (same flags).

Examples::

    python scripts/run_experiments.py scripts/grids/paper.toml --llm openai --model gpt-4o
    python scripts/run_experiments.py --figure3 --domains heavy,gripper --results results

Then ``python scripts/make_reports.py results reports``.
"""

from __future__ import annotations

import sys

from genplan.cli import main

if __name__ == "__main__":
    sys.exit(main(["experiments", *sys.argv[1:]]))
