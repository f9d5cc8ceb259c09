"""The model a run uses: the backend chosen from its request, or the saved run it replays.

With no backend given and none configured, a run replays the run saved for the same domain
folder, approach label and seed in ``synthesized/`` (offline: ``genplan synthesize --domain
heavy`` on a fresh machine); a run on a smaller selection than a saved run's replays that run's
recording (:func:`~genplan.runs.saved.replayed_conversation`); otherwise it stops, naming the
saved runs that replay and the ways to set up a model (:func:`replay_note`).
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from genplan.errors import ConfigurationError
from genplan.llm import NO_MODEL, LanguageModel, NoModel, make_model
from genplan.llm.spec import SETUP_HELP, BackendSpec
from genplan.pddl.selection import Selection, recorded_selection
from genplan.runs.folders import saved_replay_folder
from genplan.runs.record import CONVERSATION_FILE
from genplan.runs.saved import replayed_conversation, saved_runs
from genplan.runs.settings import settings_arguments, settings_from_mapping


@dataclass(frozen=True)
class ChosenModel:
    """The model a run uses, as its record names it.

    Attributes:
        model: the model (never asked for an approach that asks none).
        name: the model's name as recorded (a replay's is the recording's model).
        backend: the backend kind as recorded (``openai``, ``replay``, ..., ``none``).
        note: a line for a person on the choice (a replay of a saved run), or ``None``.
        recorded: the folder of the run a replay answers from (its measurements are reused),
            or ``None``.
    """

    model: LanguageModel
    name: str
    backend: str
    note: str | None = None
    recorded: Path | None = None


def no_model() -> ChosenModel:
    """What an approach that asks no model (``pg3``, ``pe``, ``pc``) gets: a model that is never
    asked (asking it raises), recorded as model ``none`` via ``none``."""
    return ChosenModel(NoModel(), NO_MODEL, NO_MODEL)


def choose_backend(
    backend: BackendSpec,
    approach: str,
    domain: str,
    domain_name: str,
    label: str,
    seed: int,
    selection: Selection | None,
) -> tuple[BackendSpec, str | None]:
    """``backend``, or for a replay of the saved run (a replay with no recording), the recording
    it answers from, and a note to print (``domain``: the built-in name; ``domain_name``: the
    run's domain folder, with the selection).

    The run's own saved folder (``synthesized/<domain_name>/<label>-seed<S>/``) first, else a
    saved run whose problems include the run's (:func:`~genplan.runs.saved.replayed_conversation`).

    Raises:
        ConfigurationError: a replay of the saved run where none is saved; the message names the
            saved runs of the approach on the domain that replay, and the ways to set up a model.
    """
    if not (backend.is_replay and backend.path is None):
        return backend, None
    own = saved_replay_folder(domain_name, label, seed) / CONVERSATION_FILE
    if own.is_file():
        whose = (
            "" if own.parent.name == f"{label}-seed{seed}" else f" (its first program is the {label} run's)"
        )
        return backend.replaying(own), f"No model set up: replaying the recorded conversation {own}{whose}."
    conversation, covering = replayed_conversation(approach, domain, domain_name, label, seed, selection)
    if covering is None:  # nothing saved to replay: say what is saved
        raise ConfigurationError(
            replay_note(approach, domain, domain_name, seed)
            + "no language model is set up. Choose one of:\n"
            + SETUP_HELP
        )
    return backend.replaying(conversation), (
        f"No model set up: replaying the recorded conversation of the saved run "
        f"{covering.folder.parent.name}/{covering.folder.name}, whose problems include yours."
    )


def build_model(backend: BackendSpec, cache_dir: Path, model: LanguageModel | None = None) -> ChosenModel:
    """The model ``backend`` names, behind the answer cache in ``cache_dir`` (not for replays),
    or ``model`` when given (a test's scripted model), recorded under ``backend``'s names.

    Raises:
        ConfigurationError, LLMError: as :func:`genplan.llm.make_model` and
            :meth:`~genplan.llm.spec.BackendSpec.recorded_model` (a replay's ``--model`` that is
            not the recording's).
    """
    name, note = backend.recorded_model()
    chosen = model if model is not None else make_model(backend, cache_dir=cache_dir)
    return ChosenModel(chosen, name, backend.kind.value, note, backend.recorded_folder)


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
    from genplan.approaches import get_approach

    settings_type = get_approach(approach).settings_type
    known = {item.name for item in dataclasses.fields(settings_type)}
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
