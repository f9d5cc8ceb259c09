"""Which saved runs replay offline, for a user who asked for a run no saved run covers.

With no model set up, ``genplan run`` replays the saved run of the same domain folder, label and
seed (``synthesized/<domain>[-<selection>]/<label>-seed<S>/``). A newcomer who asks for a smaller
selection than a saved run's (``--problems planbench:by-length:2,4 --per-length 1`` where
``planbench:by-length:2,4,6,8,10,12 x10`` is saved) replays that run's recording
(:func:`covering_saved_run`); for any other selection :func:`replay_note` names the saved runs
of that approach on that domain and the command that replays each.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Mapping
from typing import Any

from genplan.approaches import get_approach
from genplan.cli.settings_options import settings_arguments
from genplan.pddl.selection import recorded_selection
from genplan.runs.saved import saved_runs
from genplan.runs.settings import settings_from_mapping


def problem_flags(problem_set: str | None) -> str:
    """The ``--problems`` flags that choose ``problem_set`` as a record names it
    (:func:`~genplan.pddl.selection.recorded_selection`): ``"by-length:4,8,12 x2"`` ->
    ``" --problems by-length:4,8,12 --per-length 2"``, ``"planbench x50"`` -> ``" --problems
    planbench --n 50"``; empty for generated problems, a folder or a task in English."""
    selection = recorded_selection(problem_set)
    return "" if selection is None else "".join(f" {argument}" for argument in selection.arguments())


def settings_flags(approach: str, recorded: Mapping[str, Any]) -> str:
    """The settings flags that choose a saved run's recorded settings (each that differs from
    its default): symplanner's ``{"rollouts": 4, "beam_width": 2, ...}`` -> ``" --rollouts 4
    --beam-width 2 --diverse-generation"``, the generalized plan's ``{"chain_of_thought":
    false, ...}`` -> ``" --no-chain-of-thought"``. Settings a record has that the approach no
    longer knows are left out (they cannot be chosen)."""
    settings_type = get_approach(approach).settings_type
    known = {field.name for field in dataclasses.fields(settings_type)}
    settings = settings_from_mapping(settings_type, {k: v for k, v in recorded.items() if k in known})
    return "".join(f" {shlex.quote(argument)}" for argument in settings_arguments(settings))


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
            f"{settings_flags(approach, run.settings)}{'' if run.seed == 0 else f' --seed {run.seed}'}   "
            f"# {run.folder.parent.name}/{run.folder.name}, {run.problems} problems"
        )
    return "\n".join(lines) + "\nOr set up a model to run on your selection: "
