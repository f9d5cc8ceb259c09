"""scripts/bench_solve.py runs on a tiny selection and prints every figure and both targets."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_solve.py"


@pytest.mark.slow
def test_bench_solve_prints_both_comparisons_the_load_and_the_targets(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--domains",
            "gripper",
            "--per-domain",
            "1",
            "--heavy",
            "1",
            "--repeat",
            "1",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"machine at the start: load average [\d.]+ \(1 min\)", out)
    assert re.search(r"machine at the end: load average [\d.]+ \(1 min\)", out)
    assert re.search(r"gripper/train-00 +\d+\.\d{3} s +(\d+\.\d{3} s|n/a)", out)
    assert re.search(r"eval-00 +116 +\d+ +[\d.]+ +[\d.]+ +-?[\d.]+ +[\d.]+  (yes|no)", out)
    assert re.search(
        r"genplan solve faster than LAMA-first on every small problem both solve: (met|missed|not measured)",
        out,
    )
    assert re.search(
        r"round trip at most the program's own time on heavy's evaluation problems: (met|missed)", out
    )
