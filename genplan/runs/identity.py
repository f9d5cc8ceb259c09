"""A run folder's identity: everything that changes a run's result, recorded and checked.

A run folder is named ``<domain>/<label>-seed<S>`` and the label names every setting that
differs from its default (:func:`~genplan.runs.settings.settings_label`); what the name leaves
out (the model and backend, the problem set and its generators, the number of evaluation
problems and their time budget, the size-check problem) is recorded in ``identity.json`` when
the run starts. Rerunning into the same folder with the same values resumes the run (the answer
cache and the observations make it free); with other values it is refused with the differences
named, instead of silently replaying or overwriting the earlier run. A folder made before
``identity.json`` existed is compared on what its ``metadata.json`` records.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from genplan.errors import ConfigurationError
from genplan.pddl.described import ENGLISH, DescribedTask
from genplan.pddl.problem_sets import DomainProblems
from genplan.runs.record import CONVERSATION_FILE, METADATA_FILE
from genplan.runs.settings import settings_to_json

IDENTITY_FILE = "identity.json"


def run_identity(
    approach: str, label: str, settings: Any, problems: DomainProblems | DescribedTask, context: Any
) -> dict[str, Any]:
    """The values that make a run what it is (JSON-ready): ``approach``, ``label``, ``settings``,
    ``domain``, ``seed``, ``model``, ``backend``, ``problem_set``, ``generators``,
    ``evaluation_problems``, ``eval_timeout`` (seconds) and ``size_check``.

    ``context`` is the run's :class:`~genplan.runs.session.RunContext`.
    """
    described = isinstance(problems, DescribedTask)
    return {
        "approach": approach,
        "label": label,
        "settings": settings_to_json(settings),
        "domain": problems.name,
        "seed": context.seed,
        "model": context.model_name,
        "backend": context.backend_name,
        "problem_set": ENGLISH if described else problems.problem_set,  # type: ignore[union-attr]
        "generators": None if described else problems.generators,  # type: ignore[union-attr]
        "evaluation_problems": 1 if described else len(problems.evaluation_sources),  # type: ignore[union-attr]
        "eval_timeout": context.eval_timeout,
        "size_check": False if described else problems.size_check,  # type: ignore[union-attr]
    }


def _recorded(folder: Path) -> dict[str, Any] | None:
    """The identity a run folder records: its ``identity.json``, else what its ``metadata.json``
    says of the same values, else ``None`` (a new folder, or nothing readable)."""
    for name in (IDENTITY_FILE, METADATA_FILE):
        try:
            data = json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        if name == METADATA_FILE:
            details = data.get("details")
            if isinstance(details, dict) and "evaluation_timeout_seconds" in details:
                data["eval_timeout"] = details["evaluation_timeout_seconds"]
        return data
    return None


def identity_differences(recorded: dict[str, Any], identity: dict[str, Any]) -> list[str]:
    """What differs between a recorded identity and this run's, one ``name: X there, Y now``
    per value both know (a setting named ``settings.NAME``)."""
    differences = []
    for name, value in identity.items():
        if name not in recorded:
            continue
        before = recorded[name]
        if name == "settings" and isinstance(before, dict) and isinstance(value, dict):
            differences += [
                f"settings.{key}: {before[key]!r} there, {value[key]!r} now"
                for key in value
                if key in before and before[key] != value[key]
            ]
        elif before != value:
            differences.append(f"{name}: {before!r} there, {value!r} now")
    return differences


def holds_work(folder: Path) -> bool:
    """Whether ``folder`` holds anything a run recorded besides its ``identity.json``: a start that
    failed before its first exchange or result (no model, a replay that does not match, an error
    in the problems) leaves nothing worth keeping, and must not block a later run."""
    if not folder.is_dir():
        return False
    for path in folder.iterdir():
        if path.name == IDENTITY_FILE:
            continue
        if path.name == CONVERSATION_FILE and path.is_file() and path.stat().st_size == 0:
            continue
        return True
    return False


def check_identity(folder: Path, identity: dict[str, Any]) -> None:
    """Refuse to run into ``folder`` when it holds a run made with other values (a folder whose
    run recorded nothing, :func:`holds_work`, is taken over).

    Raises:
        ConfigurationError: the folder's recorded identity differs from ``identity``; the
            message names every difference and what to do.
    """
    recorded = _recorded(folder)
    if recorded is None or not holds_work(folder):
        return
    differences = identity_differences(recorded, identity)
    if differences:
        raise ConfigurationError(
            f"the run folder {folder} holds a run made with other values ("
            + "; ".join(differences)
            + "). Rerun with the same values to resume it, or give another --runs-dir (or remove "
            "the folder) to start a new run."
        )
