"""Which saved runs replay offline, for a user who asked for a run no saved run covers.

With no model set up, ``genplan run`` replays the saved run of the same domain folder, label and
seed (``synthesized/<domain>[-<selection>]/<label>-seed<S>/``). A newcomer who asks for a smaller
selection than a saved run's (``--problems planbench:by-length:2,4 --per-length 1`` where
``planbench:by-length:2,4,6,8,10,12 x10`` is saved) replays that run's recording
(:func:`covering_saved_run`); for any other selection :func:`replay_note` names the saved runs
of that approach on that domain and the command that replays each.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from genplan.paths import data_folder
from genplan.pddl.selection import Selection, recorded_selection


@dataclass(frozen=True)
class SavedRun:
    """A saved run: its folder and what ``genplan run`` needs to replay it."""

    folder: Path
    approach: str
    label: str
    domain: str
    seed: int
    problem_set: str | None
    problems: int


def saved_runs(approach: str, domain: str | None = None) -> list[SavedRun]:
    """The saved runs of ``approach`` on ``domain`` (its built-in name; every domain when
    ``None``), in folder order; a folder whose ``metadata.json`` cannot be read is skipped."""
    found = []
    for metadata in sorted(data_folder("synthesized").glob("*/*/metadata.json")):
        try:
            data = json.loads(metadata.read_text(encoding="utf-8"))
            run = SavedRun(
                metadata.parent,
                str(data["approach"]),
                str(data["label"]),
                str(data["domain"]),
                int(data["seed"]),
                data.get("problem_set"),
                int(data.get("evaluation_problems", 0)),
            )
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if run.approach == approach and domain in (None, run.domain):
            found.append(run)
    return found


def problem_flags(problem_set: str | None) -> str:
    """The ``--problems`` flags that choose ``problem_set`` as a record names it:
    ``"by-length:4,8,12 x2"`` -> ``" --problems by-length:4,8,12 --per-length 2"``, ``"planbench
    x50"`` -> ``" --problems planbench --n 50"``; empty for generated problems or a task in English."""
    if problem_set is None or problem_set in ("generated", "english", "folder"):
        return ""
    text, _, count = problem_set.partition(" x")
    if not count:
        return f" --problems {text}"
    return f" --problems {text} --{'per-length' if 'by-length:' in text else 'n'} {count}"


def settings_flags(approach: str, label: str) -> str:
    """The settings flags a label names (labels name each setting that differs from its default):
    ``"symplanner+rollouts-4+beam-width-2+diverse-generation"`` -> ``" --rollouts 4 --beam-width 2
    --diverse-generation"``; ``"io+no-demonstration"`` -> ``" --no-demonstration"``."""
    parts = label.split("+")
    if parts[0] != approach:
        return ""
    flags = []
    for part in parts[1:]:
        valued = re.fullmatch(r"(.+?)-(\d+(?:\.\d+)?)", part)
        flags.append(f"--{valued.group(1)} {valued.group(2)}" if valued else f"--{part}")
    return "".join(f" {flag}" for flag in flags)


def covering_saved_run(
    approach: str, domain: str, label: str, seed: int, selection: Selection
) -> SavedRun | None:
    """A saved run of ``approach`` on ``domain`` with ``label`` and ``seed`` whose problems include
    every problem ``selection`` chooses (:meth:`~genplan.pddl.selection.LengthSelection.covers`:
    ``planbench:by-length:2,4 x1`` is inside ``planbench:by-length:2,4,...,12 x10``), the
    smallest such; ``None`` when there is none. Its recording answers the smaller run, since a
    replay answers each request by its messages, whatever else the recording holds."""
    covering = [
        run
        for run in saved_runs(approach, domain)
        if run.label == label
        and run.seed == seed
        and (recorded := recorded_selection(run.problem_set)) is not None
        and recorded.covers(selection)
    ]
    return min(covering, key=lambda run: run.problems, default=None)


def replay_note(approach: str, domain: str, wanted: str, seed: int) -> str:
    """What to say when no saved run covers ``wanted`` (a run folder's domain name) for
    ``approach`` with no model set up: the saved runs of ``approach`` on ``domain`` with the
    command that replays each, or an empty string when there are none."""
    runs = saved_runs(approach, domain)
    if not runs:
        return ""
    lines = [
        f"no saved run of {approach} covers {wanted} (seed {seed}), so there is nothing to replay. "
        f"Saved runs of {approach} on {domain} replay offline:"
    ]
    for run in runs:
        lines.append(
            f"  genplan run --approach {approach} --domain {domain}{problem_flags(run.problem_set)}"
            f"{settings_flags(approach, run.label)}{'' if run.seed == 0 else f' --seed {run.seed}'}   "
            f"# {run.folder.parent.name}/{run.folder.name}, {run.problems} problems"
        )
    return "\n".join(lines) + "\nOr set up a model to run on your selection: "
