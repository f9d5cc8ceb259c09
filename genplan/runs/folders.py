"""Where run folders are, where ``--save`` puts a run, and copying a finished run there."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from genplan.errors import ConfigurationError
from genplan.paths import data_folder, saved_run_roots, source_checkout
from genplan.runs.record import CONVERSATION_FILE, METADATA_FILE, read_record


def run_folder(runs_dir: Path, domain_name: str, label: str, seed: int) -> Path:
    """``runs_dir/<domain>/<label>-seed<S>``: where a run writes its files."""
    return runs_dir / domain_name / f"{label}-seed{seed}"


def saved_run_folder(domain_name: str, label: str, seed: int) -> Path:
    """Where replay looks for a saved run: ``<root>/<domain>/<label>-seed<S>`` in the first of
    :func:`~genplan.paths.saved_run_roots` that holds it (the user's ``./synthesized/`` before
    genplan's own), else genplan's own (which may not exist)."""
    roots = saved_run_roots()
    for root in roots:
        if (root / domain_name / f"{label}-seed{seed}").is_dir():
            return root / domain_name / f"{label}-seed{seed}"
    return roots[-1] / domain_name / f"{label}-seed{seed}"


def saved_replay_folder(domain_name: str, label: str, seed: int) -> Path:
    """The saved run whose conversation replays a run labelled ``label``: its own
    (:func:`saved_run_folder`), else, for a label with ``no-debug``, the same run with debugging
    on (No Debug uses the first program, the first one that conversation asks for: Silver et al.
    2024, Sec. 5.1), else its own place (which may not exist)."""
    own = saved_run_folder(domain_name, label, seed)
    parts = label.split("+")
    if not (own / CONVERSATION_FILE).is_file() and "no-debug" in parts:
        debugged = saved_run_folder(
            domain_name, "+".join(p for p in parts if p != "no-debug") or "main", seed
        )
        if (debugged / CONVERSATION_FILE).is_file():
            return debugged
    return own


def recorded_generators(conversation: Path) -> str | None:
    """The generator version of the run that recorded ``conversation``, from the ``metadata.json``
    beside it (``"v1"`` for the saved runs), or ``None`` when there is none or it records none.

    A replay must run on the problems its recording was made on, since the first prompt shows
    two training problems; the CLI and the experiment grid use this to pick them."""
    try:
        value = json.loads((conversation.parent / METADATA_FILE).read_text(encoding="utf-8")).get(
            "generators"
        )
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def save_root() -> Path:
    """Where ``--save`` writes: the checkout's ``synthesized/`` when genplan runs from a source
    checkout, else ``./synthesized`` in the working directory (never into an installed package)."""
    return data_folder("synthesized") if source_checkout() is not None else Path.cwd() / "synthesized"


@dataclass(frozen=True)
class SaveOutcome:
    """What ``--save`` did.

    Attributes:
        destination: the folder written, or ``None`` when nothing was written.
        note: one line for the user: where the run went, or why it was not saved.
    """

    destination: Path | None
    note: str


def _exchanges(path: Path) -> list[tuple[object, str, int]] | None:
    """The recorded exchanges of a conversation file, or ``None`` if there is none readable."""
    from genplan.llm import LLMError, read_recording

    if not path.is_file():
        return None
    try:
        return [(e.messages, e.response, e.sample) for e in read_recording(path)]
    except LLMError:
        return None


def save_run(
    folder: Path,
    domain_name: str,
    label: str,
    seed: int,
    *,
    root: Path | None = None,
    overwrite: bool = False,
) -> SaveOutcome:
    """Copy a finished run's artifacts (those its record lists) beside the saved runs (``--save``).

    The run goes to ``ROOT/<domain>/<label>-seed<S>`` (``ROOT`` from :func:`save_root`
    unless given). Saved runs are real model output and never overwritten by accident: a run
    whose conversation is already saved there (a replay of that saved run) is not written
    again; a new run goes to the first free ``<label>-seed<S>-<N>`` beside the saved one,
    unless ``overwrite`` replaces it.

    Raises:
        ConfigurationError: the run folder has no readable record, or the destination cannot
            be written (names it).
    """
    try:
        record = read_record(folder)
    except (OSError, ValueError, KeyError) as error:
        raise ConfigurationError(f"cannot save {folder}: it holds no finished run ({error})") from error
    base = (root or save_root()) / domain_name
    destination = base / f"{label}-seed{seed}"
    ours = _exchanges(folder / CONVERSATION_FILE)
    for saved in [destination, *sorted(base.glob(f"{label}-seed{seed}-*"))]:
        if ours is not None and ours == _exchanges(saved / CONVERSATION_FILE):
            return SaveOutcome(
                None, f"Not saved: {saved} already holds this conversation (this run replays it)."
            )
    if destination.is_dir() and any(destination.iterdir()) and not overwrite:
        number = 2
        while (base / f"{label}-seed{seed}-{number}").exists():
            number += 1
        destination = base / f"{label}-seed{seed}-{number}"
    try:
        if destination.is_dir() and overwrite:
            shutil.rmtree(destination)
        destination.mkdir(parents=True, exist_ok=True)
        for name in record.artifacts:
            source = folder / name
            if source.is_file():
                target = destination / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
    except OSError as error:
        where = error.filename or destination
        raise ConfigurationError(f"cannot save the run to {where}: {error.strerror or error}") from error
    return SaveOutcome(destination, f"Saved to {destination.resolve()}")
