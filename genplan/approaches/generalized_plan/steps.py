"""Figure 4 (Silver et al., AAAI 2024, Sec. 5.3): the fraction of evaluation problems each
version of a run's program solves, one version per debugging step."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from genplan.approaches.base import RunContext, read_record
from genplan.approaches.generalized_plan.runs import GROWING_PROGRAM_FILE
from genplan.pddl.problem import Problem

_ANSWER_HEADER = re.compile(r"^# ---- answer (\d+) ----$", re.MULTILINE)


def program_after_step(program: str, step: int) -> str:
    """The growing program as it was after ``step`` debugging steps (the first ``step + 1``
    answers of ``growing_program.py``, each headed ``# ---- answer N ----``)."""
    headers = list(_ANSWER_HEADER.finditer(program))
    if step + 1 >= len(headers):
        return program
    return program[: headers[step + 1].start()].rstrip() + "\n"


def per_step_fractions(folder: Path, evaluation: list[Problem], context: RunContext) -> list[dict[str, Any]]:
    """The fraction of ``evaluation`` each program version of the finished run in ``folder``
    solves, ``[{"step": 0, "fraction_solved": ...}, ...]``, one entry per training round; each
    version runs in the sandbox under ``context.limits``, ``context.eval_timeout`` seconds per
    problem, ``context.workers`` at once.

    The last version's fraction is the run's own; with "No Names" the intermediate versions saw
    obfuscated problems only, so their fraction is ``None``.

    Raises:
        GenplanError: the run folder's record cannot be read.
    """
    from genplan.approaches.generalized_plan.evaluate import evaluate_program, summarize

    record = read_record(folder)
    rounds = record.details.get("rounds", [])
    growing_file = folder / GROWING_PROGRAM_FILE
    growing = growing_file.read_text() if growing_file.is_file() else ""
    names = record.settings.get("names", True)
    steps: list[dict[str, Any]] = []
    for step in range(len(rounds)):
        fraction: float | None
        if step == len(rounds) - 1:
            fraction = record.fraction_solved
        elif not names:
            fraction = None
        else:
            checks = evaluate_program(
                program_after_step(growing, step),
                evaluation,
                timeout=context.eval_timeout,
                workers=context.workers,
                limits=context.limits,
            )
            fraction = summarize(checks).fraction_solved
        steps.append({"step": step, "fraction_solved": fraction})
    return steps
