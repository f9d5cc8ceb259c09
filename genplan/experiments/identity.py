"""A grid cell's identity: every value that changes its result, kept with its record.

A cell's id (``<domain>/<approach>/<label>-seed<S>``) names it in tables and run folders, but two
runs of one id with another model, number or time budget of evaluation problems, problem set,
generator version or approach settings measure different things. The identity holds those
values; the grid keeps it in each ``runs.jsonl`` record and each run folder (``cell.json``), and
reuses a recorded cell only when its identity is the current one. A results folder holding cells
made with other values is refused, naming the values that differ, instead of being reused.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from genplan.approaches.base import settings_to_json
from genplan.errors import ConfigurationError
from genplan.experiments.spec import Cell, GridSpec
from genplan.llm import NO_MODEL
from genplan.paths import builtin_domain_names

IDENTITY_FILE = "cell.json"
"""The identity of the cell whose run folder holds it."""

LEGACY_KEYS = ("model", "backend", "settings", "generators")
"""The identity's values a record made before identities were kept has among its own fields."""

NAMES = {
    "model": "model",
    "backend": "backend",
    "settings": "settings",
    "n": "--n",
    "eval_timeout": "--eval-timeout",
    "generators": "--generators",
    "problems": "--problems",
    "per_length": "--per-length",
    "size_check": "--size-check",
    "per_step": "--per-step",
    "temperature": "--temperature",
    "llm_seed": "--llm-seed",
    "max_tokens": "--max-tokens",
}
"""How a message names each value (the flag that sets it)."""


def cell_identity(spec: GridSpec, cell: Cell) -> dict[str, Any]:
    """The values that change ``cell``'s result in grid ``spec`` (JSON-ready, as stored).

    Keys: ``model`` (as recorded), ``backend``, ``settings``, ``n``, ``eval_timeout``
    (seconds), ``generators`` (of a built-in domain; ``None`` for a folder), ``problems`` (a selection as it describes itself, with its count and problems per length), ``size_check``,
    ``per_step``, and for a model that is asked (not a replay) ``temperature``, ``llm_seed`` and
    ``max_tokens``; a cell whose approach asks no model has model and backend ``none``.

    Raises:
        ConfigurationError, LLMError: as :meth:`~genplan.experiments.spec.ModelSpec.recorded_name`.
    """
    backend = spec.model.backend
    identity: dict[str, Any] = {
        "model": cell_model_name(spec, cell),
        "backend": backend.kind.value if cell.asks_model else NO_MODEL,
        "settings": settings_to_json(cell.settings),
        "n": spec.n_eval,
        "eval_timeout": spec.eval_timeout,
        "generators": cell.generators if cell.domain in builtin_domain_names() else None,  # as recorded
        "problems": spec.problems.describe() if spec.problems is not None else None,  # its count too
        "size_check": spec.size_check,
        "per_step": spec.per_step,
    }
    if cell.asks_model and not backend.is_replay:
        identity.update(
            temperature=backend.temperature, llm_seed=backend.llm_seed, max_tokens=backend.max_tokens
        )
    return json.loads(json.dumps(identity))  # as it reads back from a record


def cell_model_name(spec: GridSpec, cell: Cell) -> str:
    """The model name ``cell`` records: ``none`` for an approach that asks no model, else as
    :meth:`~genplan.experiments.spec.ModelSpec.recorded_name`.

    Raises:
        ConfigurationError, LLMError: as :meth:`~genplan.experiments.spec.ModelSpec.recorded_name`.
    """
    if not cell.asks_model:
        return NO_MODEL
    return spec.model.recorded_name(cell, spec.problems)


def recorded_identity(record: Mapping[str, Any]) -> dict[str, Any]:
    """The identity a ``runs.jsonl`` record (or run folder's ``cell.json``) holds; a record made
    before identities were kept gives the values among its own fields (:data:`LEGACY_KEYS`)."""
    identity = record.get("identity")
    if isinstance(identity, Mapping):
        return dict(identity)
    return {key: record[key] for key in LEGACY_KEYS if key in record}


def differences(recorded: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """The values that differ, for a person: ``--n 30 (now 10)``; a value the recorded identity
    lacks is not compared (older records keep fewer)."""
    return [
        f"{NAMES.get(key, key)} {json.dumps(recorded[key])} (now {json.dumps(value)})"
        for key, value in current.items()
        if key in recorded and recorded[key] != value
    ]


def check_recorded_cells(
    results_dir: Path,
    recorded: Mapping[str, Mapping[str, Any]],
    current: Iterable[tuple[str, dict[str, Any]]],
) -> None:
    """Refuse a results folder whose recorded cells were made with other values.

    Args:
        results_dir: the results folder (named in the message).
        recorded: ``runs.jsonl`` records by cell id.
        current: ``(cell id, identity)`` of the grid's cells.

    Raises:
        ConfigurationError: a recorded cell whose identity differs (names up to five cells and
            their differing values, and what to do).
    """
    clashes = []
    for cell_id, identity in current:
        if cell_id in recorded:
            changed = differences(recorded_identity(recorded[cell_id]), identity)
            if changed:
                clashes.append(f"{cell_id}: {', '.join(changed)}")
    if clashes:
        shown = "\n  ".join(clashes[:5]) + (
            f"\n  ... and {len(clashes) - 5} more" if len(clashes) > 5 else ""
        )
        raise ConfigurationError(
            f"{results_dir} holds {len(clashes)} cell(s) made with other values, which this grid would "
            f"not reuse:\n  {shown}\nGive this grid its own --results (and --runs-dir), or move {results_dir} "
            "away to run those cells again."
        )


def folder_identity(folder: Path) -> dict[str, Any] | None:
    """The identity kept in run folder ``folder`` (``cell.json``), or ``None`` when it has none."""
    path = folder / IDENTITY_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
