"""What an experiment grid runs: domains x seeds x approaches (with settings), one model.

A grid is described by flags or a small TOML file (``genplan experiments GRID.toml``), e.g.
the paper's grid (Silver et al. 2024, Sec. 5)::

    domains = "all"            # or ["heavy", "./my-domain"]: built-in names or folders
    seeds = "0-9"              # or [0, 3, 5]
    n = 30                     # evaluation problems per run
    eval-timeout = 30          # seconds per evaluation problem

    [model]
    llm = "openai"             # as --llm; leave out to replay the saved runs
    model = "gpt-4o"

    [[approach]]
    name = "generalized-plan"

    [[approach]]
    name = "generalized-plan"
    settings = { chain-of-thought = false }

Each ``[[approach]]`` names a registered approach (:data:`genplan.approaches.REGISTRY`) and
sets its settings by field name (:func:`genplan.approaches.base.settings_from_mapping`); its
label (the run's name within the approach, e.g. ``no-cot``) is the approach's own unless
``label = "..."`` is given. Two entries of one approach must differ in label.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from genplan.approaches import approach_names, get_approach
from genplan.approaches.base import Approach, asks_model, settings_from_mapping, settings_to_json
from genplan.errors import ConfigurationError
from genplan.llm import BackendSpec, LanguageModel, make_model
from genplan.paths import builtin_domain_names
from genplan.pddl.generate import CURRENT_GENERATORS, check_generators
from genplan.pddl.paper_problems import PAPER_COUNT
from genplan.pddl.problem_sets import domain_short_name
from genplan.pddl.selection import Selection
from genplan.requests.request import request_default
from genplan.sandbox import Isolation


@dataclass(frozen=True)
class ApproachSpec:
    """One approach of a grid as the user wrote it.

    Attributes:
        name: a registered approach name.
        settings: settings by field name (``-`` or ``_``), values as text or TOML values.
        label: the run label to use instead of the approach's own, or ``None``.
    """

    name: str
    settings: tuple[tuple[str, Any], ...] = ()
    label: str | None = None

    @classmethod
    def parse(cls, text: str) -> ApproachSpec:
        """``NAME`` or ``NAME:key=value,key=value`` (the ``--approach`` flag).

        Raises:
            ConfigurationError: a part without ``=``.
        """
        name, _, rest = text.partition(":")
        settings = []
        for part in filter(None, (p.strip() for p in rest.split(","))):
            key, equals, value = part.partition("=")
            if not equals:
                raise ConfigurationError(
                    f"--approach {text!r}: {part!r} is not key=value (e.g. generalized-plan:chain-of-thought=false)"
                )
            settings.append((key.strip(), value.strip()))
        label = dict(settings).pop("label", None)
        return cls(name.strip(), tuple((k, v) for k, v in settings if k != "label"), label)


@dataclass(frozen=True)
class ModelSpec:
    """The model every cell uses, rebuilt in each worker process from this description.

    A model object cannot travel to other processes or machines (open connections, locks),
    so workers build it from this spec. A replay with no recording (``BackendSpec()``, the
    default: no ``--llm``) replays, per cell, the run saved in
    ``synthesized/<domain>/<label>-seed<S>/`` (offline; no model needed).

    Attributes:
        backend: the backend and its options (:class:`~genplan.llm.spec.BackendSpec`).
        cache_dir: the answer cache; every worker must reach it at this path (docs/experiments.md,
            "Answer cache and recordings with separate workers").
    """

    backend: BackendSpec = field(default_factory=BackendSpec)
    cache_dir: Path = Path("runs/cache")

    @property
    def replays_saved_runs(self) -> bool:
        """Each cell replays its own saved run (no backend was given)."""
        return self.backend.is_replay and self.backend.path is None

    @property
    def name(self) -> str:
        """The model's name for run folders: the recorded one (as
        :meth:`~genplan.llm.spec.BackendSpec.recorded_model`), or ``saved`` when each cell
        replays its saved run.

        Raises:
            ConfigurationError, LLMError: as :meth:`~genplan.llm.spec.BackendSpec.recorded_model`.
        """
        return "saved" if self.replays_saved_runs else self.backend.recorded_model()[0]

    def cell_backend(self, cell: Cell, selection: Selection | None = None) -> BackendSpec:
        """The backend of one cell (the grid's problem ``selection`` given): the grid's, or a
        replay of the cell's saved run."""
        if self.replays_saved_runs:
            return self.backend.replaying(self.saved_recording(cell, selection))
        return self.backend

    def recorded_name(self, cell: Cell, selection: Selection | None = None) -> str:
        """The model name a cell records: a replay's is the recording's model, ``files`` and
        ``manual`` record ``--model`` or ``unknown``, ``openai`` ``--model`` or gpt-4o.

        Raises:
            ConfigurationError: a ``--model`` that is not the model of the recording replayed.
            LLMError: the recording cannot be read.
        """
        return self.cell_backend(cell, selection).recorded_model()[0]

    @property
    def backend_kind(self) -> str:
        """The backend kind as recorded (``openai``, ``files``, ..., ``replay``)."""
        return self.backend.kind.value

    def recorded_generators(self, cell: Cell, selection: Selection | None = None) -> str | None:
        """The generator version of the recording a cell replays (its saved run, or the
        ``replay:PATH`` given), or ``None`` when the cell asks a model or the recording names none."""
        from genplan.approaches.base import recorded_generators

        recording = self.cell_backend(cell, selection).recording
        return None if recording is None else recorded_generators(recording)

    def saved_recording(self, cell: Cell, selection: Selection | None = None) -> Path:
        """The saved conversation a cell replays when ``llm`` is ``None``: its own saved run's (a
        no-debug cell: the conversation with debugging on, when it has none of its own), else
        that of a saved run whose problems include the cell's (``selection`` inside the saved
        run's: :func:`~genplan.runs.saved.replayed_conversation`, the lookup ``genplan run``
        uses too); the path may not exist when nothing is saved."""
        from genplan.runs.saved import replayed_conversation

        return replayed_conversation(
            cell.approach, domain_short_name(cell.domain), cell.domain_name, cell.label, cell.seed, selection
        )[0]

    def recorded_folder(self, cell: Cell, selection: Selection | None = None) -> Path | None:
        """The folder of the run a cell replays (its recorded measurements are reused), or ``None``."""
        return self.cell_backend(cell, selection).recorded_folder

    def build(self, cell: Cell, selection: Selection | None = None) -> LanguageModel:
        """The model for one cell (called in the worker).

        Raises:
            ConfigurationError, LLMError: as :func:`genplan.llm.make_model`.
        """
        return make_model(self.cell_backend(cell, selection), cache_dir=self.cache_dir)


@dataclass(frozen=True)
class Cell:
    """One run of the grid: an approach with its settings on one domain and seed.

    Attributes:
        domain: the built-in name or folder, as given.
        domain_name: the short name (built-in name or the folder's name).
        seed: the problem seed.
        approach: the approach's registered name.
        label: the run's label within the approach.
        settings: the approach's settings dataclass.
        generators: the generator version of the cell's generated problems.
        asks_model: whether the cell's approach asks a language model (PG3, PE and PC do not:
            such a cell needs no backend and no saved run, and records model ``none``).
    """

    domain: str
    domain_name: str
    seed: int
    approach: str
    label: str
    settings: Any
    generators: str = CURRENT_GENERATORS
    asks_model: bool = True

    @property
    def id(self) -> str:
        """``<domain>/<approach>/<label>-seed<S>``: the cell's name in records and its run folder."""
        return f"{self.domain_name}/{self.approach}/{self.label}-seed{self.seed}"


@dataclass(frozen=True)
class GridSpec:
    """A grid: every domain x seed x approach, one model, the evaluation budget.

    Attributes:
        domains: built-in names or folders.
        seeds: problem seeds.
        approaches: the approaches with their settings.
        model: the model, rebuilt in every worker.
        runs_dir: run folders (``RUNS/<model>/<cell id>/``) and generated problems.
        results_dir: ``runs.jsonl``, ``problems.jsonl`` and ``failures.jsonl``.
        n_eval: evaluation problems per run (the paper's 30, Sec. 5.1, for a folder too, so every
            cell of a grid has as many); eval_timeout: seconds per evaluation problem. The
            defaults shared with a single run are the run request's
            (:func:`~genplan.requests.request.request_default`).
        size_check: end the training problems with an evaluation-sized one (built-in domains).
        per_step: measure each approach's steps where it has any (its ``per_step`` hook; the
            generalized plan evaluates its program after every debugging step, Figure 4).
        eval_workers: evaluation problems one cell solves at once (the grid's parallelism
            comes from running cells at once; raise it when cells are fewer than cores).
        problems: evaluation problems other than the generated ones, as ``genplan run
            --problems`` reads them (:func:`genplan.pddl.selection.parse_selection`: ``paper``,
            ``planbench``, ``by-length:4,8,12``, ``small``), parsed once when the grid is built
            and carried as the object to every cell, or ``None``; a cell's domain name then
            carries the selection (``gripper-paper``, ``blocksworld-by-length-4-8-12-x2``).
        generators: the generator version for every cell, or ``None``: the current version,
            except that a cell replaying a recording uses the version it was made on (the
            saved runs': ``v1``).
        isolation: the sandbox's operating-system isolation for model-written code (``none``
            only where bubblewrap cannot run; recorded in every run).
    """

    domains: tuple[str, ...]
    seeds: tuple[int, ...]
    approaches: tuple[ApproachSpec, ...]
    model: ModelSpec = field(default_factory=ModelSpec)
    runs_dir: Path = field(default_factory=partial(request_default, "runs_dir"))
    results_dir: Path = Path("results")
    n_eval: int = PAPER_COUNT
    eval_timeout: float = request_default("eval_timeout")
    size_check: bool = request_default("size_check")
    per_step: bool = request_default("per_step")
    eval_workers: int = 1
    problems: Selection | None = None
    isolation: Isolation = field(default_factory=partial(request_default, "isolation"))
    generators: str | None = None

    def __post_init__(self) -> None:
        if self.generators is not None:
            check_generators(self.generators)

    def cell_generators(self, cell: Cell) -> str:
        """The generator version of one cell (see :attr:`generators`)."""
        if self.generators is not None:
            return self.generators
        return self.model.recorded_generators(cell, self.problems) or CURRENT_GENERATORS


def model_slug(model: str) -> str:
    """A folder-safe form of a model name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", model)


def parse_seeds(value: str | int | Sequence[int], where: str = "seeds") -> tuple[int, ...]:
    """``"0-9"``, ``"0,3,5"``, ``3`` or ``[0, 3]`` as a tuple of seeds.

    Raises:
        ConfigurationError: anything else (names ``where``).
    """
    if isinstance(value, int):
        return (value,)
    try:
        if isinstance(value, str):
            seeds: list[int] = []
            for part in filter(None, (p.strip() for p in value.split(","))):
                low, dash, high = part.partition("-")
                seeds += range(int(low), int(high) + 1) if dash else [int(part)]
            return tuple(seeds)
        return tuple(int(v) for v in value)
    except (TypeError, ValueError) as error:
        raise ConfigurationError(
            f"{where}: expected e.g. 0-9, 0,3,5 or a list of integers, got {value!r}"
        ) from error


def parse_domains(value: str | Sequence[str], where: str = "domains") -> tuple[str, ...]:
    """``"all"`` (every built-in domain), ``"heavy,gripper"`` or a list of names and folders.

    Raises:
        ConfigurationError: a name that is neither built in nor a folder (names ``where``).
    """
    items = value.split(",") if isinstance(value, str) else list(value)
    if items == ["all"]:
        return tuple(builtin_domain_names())
    domains = tuple(str(item).strip() for item in items if str(item).strip())
    for domain in domains:
        if domain not in builtin_domain_names() and not Path(domain).is_dir():
            raise ConfigurationError(
                f"{where}: {domain!r} is neither a built-in domain ({', '.join(builtin_domain_names())}) "
                "nor a folder with a domain.pddl"
            )
    if not domains:
        raise ConfigurationError(f"{where}: no domain given")
    return domains


def resolve_approach(spec: ApproachSpec) -> tuple[Approach[Any, Any], Any, str]:
    """The approach, its settings and its label for ``spec``.

    Raises:
        ConfigurationError: an unknown approach, an unknown setting or a value that does not
            convert (the message names the approach and the setting).
    """
    if spec.name not in approach_names():
        raise ConfigurationError(
            f"unknown approach {spec.name!r}; known approaches: {', '.join(approach_names())}"
        )
    approach = get_approach(spec.name)
    try:
        settings = settings_from_mapping(
            approach.settings_type, dict(spec.settings), where=f"approach {spec.name}"
        )
    except (TypeError, ValueError) as error:
        raise ConfigurationError(str(error)) from error
    return approach, settings, spec.label or approach.label(settings)


def grid_cells(spec: GridSpec) -> list[Cell]:
    """Every cell of the grid, in a fixed order (domain, seed, approach).

    Raises:
        ConfigurationError: as :func:`resolve_approach`, or two approach entries with one label
            but different settings (give one a ``label``).
    """
    resolved: dict[tuple[str, str], Any] = {}
    model_asked: dict[str, bool] = {}
    for approach_spec in spec.approaches:
        approach, settings, label = resolve_approach(approach_spec)
        model_asked[approach_spec.name] = asks_model(approach)
        key = (approach_spec.name, label)
        if key in resolved and resolved[key] != settings:
            raise ConfigurationError(
                f"two {approach_spec.name} entries share the label {label!r} with different settings "
                f"({settings_to_json(resolved[key])} and {settings_to_json(settings)}); give one a label"
            )
        resolved[key] = settings
    suffix = "" if spec.problems is None else "-" + spec.problems.slug()
    cells = [
        Cell(
            domain,
            name_,
            seed,
            name,
            label,
            settings,
            spec.generators or CURRENT_GENERATORS,
            model_asked[name],
        )
        for domain in spec.domains
        for name_ in [domain_short_name(domain) + suffix]
        for seed in spec.seeds
        for (name, label), settings in resolved.items()
    ]
    # a cell that replays a recording runs on the generators that recording was made with
    return [
        replace(cell, generators=spec.cell_generators(cell)) if cell.asks_model else cell for cell in cells
    ]


def approaches_from_toml(entries: object, where: str) -> tuple[ApproachSpec, ...]:
    """The ``[[approach]]`` tables of a grid file.

    Raises:
        ConfigurationError: not a list of tables with a ``name`` (names ``where``).
    """
    if not isinstance(entries, list):
        raise ConfigurationError(f"{where}: [[approach]] must be a list of tables")
    specs = []
    for index, entry in enumerate(entries, start=1):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            raise ConfigurationError(f'{where}: approach {index} needs a name = "..."')
        unknown = set(entry) - {"name", "settings", "label"}
        if unknown:
            raise ConfigurationError(f"{where}: approach {index}: unknown key(s) {sorted(unknown)}")
        settings = entry.get("settings", {})
        if not isinstance(settings, Mapping):
            raise ConfigurationError(f"{where}: approach {index}: settings must be a table")
        specs.append(ApproachSpec(entry["name"], tuple(settings.items()), entry.get("label")))
    return tuple(specs)
