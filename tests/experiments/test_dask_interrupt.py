"""Ctrl-C on the Dask engine: the embedded cluster shuts down without raw CancelledError noise."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(
    """
    import time

    from genplan.experiments.engines import DaskEngine, Task


    def slow(x):
        time.sleep(30)
        return x


    if __name__ == "__main__":
        engine = DaskEngine(workers=2, dashboard=None)
        try:
            for index, _ in enumerate(engine.run([Task(f"t{i}", slow, (i,)) for i in range(4)], tick=0.2)):
                if index == 5:
                    raise KeyboardInterrupt  # what Ctrl-C raises in the grid's loop
        except KeyboardInterrupt:
            print("interrupted")
        finally:
            engine.close()
        print("closed")
    """
)


@pytest.mark.slow
def test_closing_after_ctrl_c_prints_no_cancelled_error_warnings(tmp_path) -> None:
    """Issue 27 item 10: no `Async instruction ... ended with CancelledError` lines."""
    script = tmp_path / "interrupt.py"
    script.write_text(SCRIPT)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.stdout.split() == ["interrupted", "closed"]
    noise = [line for line in done.stderr.splitlines() if "CancelledError" in line or "killing" in line]
    assert noise == [], done.stderr
