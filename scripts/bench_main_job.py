"""Benchmark: the README's main job, ``genplan synthesize --domain heavy``, end to end (issue 12).

Runs the console script as a user does, with no model set up (so it replays the saved run in
``synthesized/heavy/main-seed0``), in a fresh folder each time, so problems are generated and
written anew: wall clock from process start to exit, median of three runs. Target: at most 5 s
on 2 cores. The machine's load is printed beside the figure.

Run: ``python scripts/bench_main_job.py``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_SECONDS = 5.0


def _genplan() -> list[str]:
    script = Path(sys.executable).parent / "genplan"
    if script.is_file():
        return [str(script)]
    found = shutil.which("genplan")
    return [found] if found else [sys.executable, "-m", "genplan"]


def main() -> None:
    argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    ).parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "GENPLAN"))}
    print(f"machine: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    times = []
    for _ in range(3):
        with tempfile.TemporaryDirectory(prefix="genplan-bench-main-") as work:
            start = time.perf_counter()
            subprocess.run(
                [*_genplan(), "synthesize", "--domain", "heavy"],
                cwd=work,
                env=env,
                check=True,
                capture_output=True,
            )
            times.append(time.perf_counter() - start)
    print(
        f"genplan synthesize --domain heavy (replay): {statistics.median(times):.2f} s wall, median of "
        f"{', '.join(f'{t:.2f}' for t in times)} s (target <= {TARGET_SECONDS:.0f} s)"
    )
    print(f"machine: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
