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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.approaches import approach_names, get_approach
from genplan.approaches.base import Approach, settings_from_mapping, settings_to_json
from genplan.errors import ConfigurationError
from genplan.llm import LanguageModel, SamplingSettings, make_model
from genplan.paths import builtin_domain_names
from genplan.pddl.generate import CURRENT_GENERATORS, check_generators
from genplan.plans.problem_selection import Selection, parse_selection
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
    so workers build it from this spec. ``llm=None`` replays, per cell, the run saved in
    ``synthesized/<domain>/<label>-seed<S>/`` (offline; no model needed).

    Attributes:
        llm: the backend spec (``openai``, ``files:DIR``, ``manual``, ``replay:PATH``) or ``None``.
        model: the model name (recorded in every run); ``None`` means ``gpt-4o``, or with no
            backend the model each saved run recorded.
        base_url: an OpenAI-compatible endpoint, or ``None``.
        temperature / llm_seed / max_tokens / request_timeout: sampling settings
            (:class:`~genplan.llm.SamplingSettings`; seconds for the time-out).
        files_timeout: seconds to wait for each answer with ``files:DIR``.
        cache_dir: the answer cache; every worker must reach it at this path (see the README).
    """

    llm: str | None = None
    model: str | None = None
    base_url: str | None = None
    temperature: float = 0.0
    llm_seed: int = 0
    max_tokens: int | None = None
    request_timeout: float = 600.0
    files_timeout: float = 86_400.0
    cache_dir: Path = Path("runs/cache")

    @property
    def name(self) -> str:
        """The model's name for run folders: as given, else ``gpt-4o``, or ``saved`` for replays."""
        return self.model or ("gpt-4o" if self.llm else "saved")

    def recorded_name(self, domain_name: str, label: str, seed: int) -> str:
        """The model name a cell records: as given, else the saved run's own when replaying it."""
        if self.model is None and self.llm is None:
            import json

            metadata = self.saved_recording(domain_name, label, seed).parent / "metadata.json"
            if metadata.is_file():
                return str(json.loads(metadata.read_text(encoding="utf-8")).get("model", "unknown"))
        return self.name

    @property
    def backend(self) -> str:
        """The backend kind as recorded (``openai``, ``files``, ..., ``replay``)."""
        return (self.llm or "replay").split(":")[0]

    def recorded_generators(self, domain_name: str, label: str, seed: int) -> str | None:
        """The generator version of the recording a cell replays (with no backend, its saved run;
        with ``replay:PATH``, that file), or ``None`` when the cell asks a model or the recording
        names none."""
        from genplan.approaches.base import recorded_generators

        if self.llm is None:
            return recorded_generators(self.saved_recording(domain_name, label, seed))
        if self.llm.startswith("replay:"):
            return recorded_generators(Path(self.llm[len("replay:") :]))
        return None

    def saved_recording(self, domain_name: str, label: str, seed: int) -> Path:
        """The saved conversation a cell replays when ``llm`` is ``None`` (a no-debug cell: the
        conversation with debugging on, when it has none of its own)."""
        from genplan.approaches.base import saved_replay_folder

        return saved_replay_folder(domain_name, label, seed) / "conversation.jsonl"

    def recorded_folder(self, domain_name: str, label: str, seed: int) -> Path | None:
        """The folder of the run a cell replays (its recorded measurements are reused), or ``None``."""
        if self.llm is None:
            return self.saved_recording(domain_name, label, seed).parent
        if self.llm.startswith("replay:"):
            return Path(self.llm[len("replay:") :]).parent
        return None

    def build(self, domain_name: str, label: str, seed: int) -> LanguageModel:
        """The model for one cell (called in the worker).

        Raises:
            ConfigurationError, LLMError: as :func:`genplan.llm.make_model`.
        """
        spec = self.llm or f"replay:{self.saved_recording(domain_name, label, seed)}"
        sampling = SamplingSettings(
            model=self.name,
            temperature=self.temperature,
            seed=self.llm_seed,
            max_tokens=self.max_tokens,
            request_timeout=self.request_timeout,
        )
        return make_model(
            spec, sampling, base_url=self.base_url, cache_dir=self.cache_dir, files_timeout=self.files_timeout
        )


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
    """

    domain: str
    domain_name: str
    seed: int
    approach: str
    label: str
    settings: Any
    generators: str = CURRENT_GENERATORS

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
        n_eval: evaluation problems per run; eval_timeout: seconds per evaluation problem.
        size_check: end the training problems with an evaluation-sized one (built-in domains).
        per_step: for the generalized plan, evaluate the program after every debugging step
            (Figure 4).
        eval_workers: evaluation problems one cell solves at once (the grid's parallelism
            comes from running cells at once; raise it when cells are fewer than cores).
        problems: evaluation problems other than the generated ones, as ``genplan run
            --problems`` (``paper``, ``by-length:4,8,12``, ``small``), or ``None``; a cell's
            domain name then carries the selection (``gripper-paper``,
            ``blocksworld-by-length-4-8-12-x2``).
        per_length: problems per optimal length for ``by-length``.
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
    runs_dir: Path = Path("runs")
    results_dir: Path = Path("results")
    n_eval: int = 30
    eval_timeout: float = 30.0
    size_check: bool = True
    per_step: bool = False
    eval_workers: int = 1
    problems: str | None = None
    per_length: int = 20
    isolation: Isolation = Isolation.BWRAP
    generators: str | None = None

    def __post_init__(self) -> None:
        if self.generators is not None:
            check_generators(self.generators)

    def cell_generators(self, domain_name: str, label: str, seed: int) -> str:
        """The generator version of one cell (see :attr:`generators`)."""
        if self.generators is not None:
            return self.generators
        return self.model.recorded_generators(domain_name, label, seed) or CURRENT_GENERATORS

    def selection(self) -> Selection | None:
        """The parsed :attr:`problems`, or ``None``.

        Raises:
            ConfigurationError: a malformed selection.
        """
        if self.problems is None:
            return None
        return parse_selection(self.problems, per_length=self.per_length, count=self.n_eval)


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


def domain_short_name(domain: str) -> str:
    """The name a run folder uses for a domain: the built-in name, or the folder's name."""
    return domain if domain in builtin_domain_names() else Path(domain).resolve().name


def resolve_approach(spec: ApproachSpec) -> tuple[Approach, Any, str]:
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
    for approach_spec in spec.approaches:
        _, settings, label = resolve_approach(approach_spec)
        key = (approach_spec.name, label)
        if key in resolved and resolved[key] != settings:
            raise ConfigurationError(
                f"two {approach_spec.name} entries share the label {label!r} with different settings "
                f"({settings_to_json(resolved[key])} and {settings_to_json(settings)}); give one a label"
            )
        resolved[key] = settings
    selection = spec.selection()
    suffix = "" if selection is None else "-" + selection.slug()
    return [
        Cell(domain, name_, seed, name, label, settings, spec.cell_generators(name_, label, seed))
        for domain in spec.domains
        for name_ in [domain_short_name(domain) + suffix]
        for seed in spec.seeds
        for (name, label), settings in resolved.items()
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
