"""The saved runs, and which one's recording a run replays when no model is set up.

A run replays the saved run of its own domain folder, label and seed
(``synthesized/<domain>[-<selection>]/<label>-seed<S>/``, :func:`~genplan.runs.folders.saved_replay_folder`).
A run on a smaller selection than a saved run's (``planbench:by-length:2,4 x1`` where
``planbench:by-length:2,4,6,8,10,12 x10`` is saved) replays that run's recording
(:func:`covering_saved_run`), since a replay answers each request by its messages, whatever else
the recording holds. :func:`replayed_conversation` is the one lookup ``genplan run`` and a grid
both use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.paths import saved_run_roots
from genplan.pddl.selection import Selection, recorded_selection
from genplan.runs.folders import saved_replay_folder
from genplan.runs.record import CONVERSATION_FILE, METADATA_FILE


@dataclass(frozen=True)
class SavedRun:
    """A saved run: its folder and what ``genplan run`` needs to replay it.

    Attributes:
        folder: the run folder (``<root>/<domain folder>/<label>-seed<S>``).
        approach, label, domain, seed: as its ``metadata.json`` records them (``domain``: the
            built-in name, without the selection).
        problem_set: the record's ``problem_set`` (``"planbench:by-length:2,4 x10"``), or ``None``.
        problems: its evaluation problems.
        settings: the approach's settings as the record keeps them (JSON).
    """

    folder: Path
    approach: str
    label: str
    domain: str
    seed: int
    problem_set: str | None
    problems: int
    settings: dict[str, Any] = field(default_factory=dict)


def saved_runs(approach: str, domain: str | None = None) -> list[SavedRun]:
    """The saved runs of ``approach`` on ``domain`` (its built-in name; every domain when
    ``None``) under every :func:`~genplan.paths.saved_run_roots` folder (the user's first), in
    folder order; a folder whose ``metadata.json`` cannot be read is skipped, and so is one that
    an earlier root holds too (an installed copy of the checkout's ``synthesized/``: the user's
    copy wins, and no run is listed twice)."""
    found = []
    seen: set[tuple[str, str]] = set()
    for root in saved_run_roots():
        for metadata in sorted(root.glob(f"*/*/{METADATA_FILE}")):
            place = (metadata.parent.parent.name, metadata.parent.name)
            if place in seen:
                continue
            seen.add(place)
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
                    dict(data.get("settings") or {}),
                )
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if run.approach == approach and domain in (None, run.domain):
                found.append(run)
    return found


def covering_saved_run(
    approach: str, domain: str, label: str, seed: int, selection: Selection
) -> SavedRun | None:
    """A saved run of ``approach`` on ``domain`` with ``label`` and ``seed`` whose problems include
    every problem ``selection`` chooses (:meth:`~genplan.pddl.selection.LengthSelection.covers`:
    ``planbench:by-length:2,4 x1`` is inside ``planbench:by-length:2,4,...,12 x10``), the
    smallest such; ``None`` when there is none."""
    covering = [
        run
        for run in saved_runs(approach, domain)
        if run.label == label
        and run.seed == seed
        and (run.folder / CONVERSATION_FILE).is_file()
        and (recorded := recorded_selection(run.problem_set)) is not None
        and recorded.covers(selection)
    ]
    return min(covering, key=lambda run: run.problems, default=None)


def replayed_conversation(
    approach: str, domain: str, domain_name: str, label: str, seed: int, selection: Selection | None
) -> tuple[Path, SavedRun | None]:
    """The recorded conversation a run replays when no model is set up, and the covering saved
    run it comes from when that is not the run's own folder.

    Args:
        approach: the approach's registered name.
        domain: the built-in domain name (``blocksworld``).
        domain_name: the run's domain folder name, with the selection (``blocksworld-planbench-...``).
        label, seed: the run's label and seed.
        selection: the run's problem selection, or ``None`` for generated problems.

    Returns:
        ``(conversation, None)`` for the run's own saved folder (the path may not exist: nothing is
        saved), or ``(conversation, run)`` for a covering saved run (:func:`covering_saved_run`).
    """
    own = saved_replay_folder(domain_name, label, seed) / CONVERSATION_FILE
    if own.is_file() or selection is None:
        return own, None
    covering = covering_saved_run(approach, domain, label, seed, selection)
    if covering is None:
        return own, None
    return covering.folder / CONVERSATION_FILE, covering
