"""A run request: every value of one run, parsed once at the edge and carried as one frozen value.

``genplan run``, ``genplan synthesize``, ``genplan evaluate`` and every cell of an experiment
grid describe the run they want as a :class:`RunRequest`, built by the one parser
:func:`parse_request` from the flags' or the grid file's values, and hand it to the one composer
(:func:`genplan.requests.compose.compose`). Each default is written once, beside its field
here; the command line's help, the grid file's defaults and the tests read it from this class
(:func:`request_default`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.errors import ConfigurationError
from genplan.llm.spec import BackendSpec
from genplan.pddl import selection as selections
from genplan.pddl.generate import check_generators
from genplan.pddl.problem_sets import domain_short_name
from genplan.pddl.selection import PER_LENGTH, Selection
from genplan.sandbox import Isolation


@dataclass(frozen=True)
class RunRequest:
    """Every value of one run of one approach on one domain.

    Attributes:
        approach: the registered approach's name (:data:`genplan.approaches.REGISTRY`), or an
            evaluation of a given program or policy (:data:`genplan.approaches.EVALUATIONS`).
        domain: a built-in domain's name or a folder (with ``domain.pddl``, or for approaches
            that read English, with ``description.md``), as given.
        settings: the approach's frozen settings dataclass (its defaults when built by
            :func:`parse_request` with none given).
        seed: the problem seed.
        n: evaluation problems; ``None``: the paper's 30 for a built-in domain, every
            evaluation problem of a folder, a selection's own count; ``0`` (for approaches that
            train) only the training phase.
        selection: evaluation problems other than the generated ones (``--problems``), parsed
            once, or ``None``.
        generators: the generator version of a built-in domain's problems, or ``None``: the
            current version, or the recording's for a replay (:mod:`genplan.pddl.generate`).
        size_check: end the training problems with an evaluation-sized one (built-in domains).
        eval_timeout: seconds per evaluation problem (the paper's 30, Silver et al. 2024, Sec. 5).
        workers: evaluation problems solved at once; ``None``: the usable cores.
        isolation: operating-system isolation of model-written code
            (:class:`~genplan.sandbox.Isolation`).
        runs_dir: where run folders, generated problems and caches go.
        cache_dir: the model answer cache; ``None``: ``runs_dir/cache``.
        backend: the model backend (:class:`~genplan.llm.spec.BackendSpec`); its default, a
            replay with no recording, replays the saved run of the same domain, label and seed.
        references: reference costs for the quality score (a JSON file, ``lama-first`` or
            ``optimal``), or ``None``: ``references.json`` in the domain folder if there is one.
        reference_timeout: seconds per problem for computed references.
        save: copy the finished run beside the saved runs (``--save``).
        overwrite: with ``save``, replace the saved run of this label and seed.
        per_step: also measure the approach's steps (its ``per_step`` hook; Figure 4).
        folder: the run folder; ``None``: ``runs_dir/<domain>[-<selection>]/<label>-seed<S>``.

    Raises (when built):
        ConfigurationError: a negative seed or count, a time-out that is not positive, or an
            unknown generator version (the message names the flag).
    """

    approach: str
    domain: str
    settings: Any = None
    seed: int = field(default=0, metadata={"help": "problem seed"})
    n: int | None = None
    selection: Selection | None = None
    generators: str | None = None
    size_check: bool = field(default=True, metadata={"help": "end training with an evaluation-sized problem"})
    eval_timeout: float = field(default=30.0, metadata={"help": "seconds per evaluation problem"})
    workers: int | None = None
    isolation: Isolation = Isolation.BWRAP
    runs_dir: Path = Path("runs")
    cache_dir: Path | None = None
    backend: BackendSpec = field(default_factory=BackendSpec)
    references: str | None = None
    reference_timeout: float = field(
        default=60.0, metadata={"help": "seconds per problem for --references lama-first|optimal"}
    )
    save: bool = False
    overwrite: bool = False
    per_step: bool = False
    folder: Path | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "isolation", Isolation(self.isolation))
        object.__setattr__(self, "runs_dir", Path(self.runs_dir))
        if self.seed < 0:
            raise ConfigurationError(f"--seed must be at least 0, got {self.seed}")
        if self.n is not None and self.n < 0:
            raise ConfigurationError(f"--n must be at least 0, got {self.n}")
        for flag, seconds in (
            ("--eval-timeout", self.eval_timeout),
            ("--reference-timeout", self.reference_timeout),
        ):
            if not seconds > 0:
                raise ConfigurationError(f"{flag} must be a positive number of seconds, got {seconds}")
        if self.workers is not None and self.workers < 1:
            raise ConfigurationError(f"--workers must be at least 1, got {self.workers}")
        if self.generators is not None:
            check_generators(self.generators)

    @property
    def domain_name(self) -> str:
        """The run's domain folder name: the domain's short name, plus the selection when
        problems were chosen (``gripper-paper``, ``blocksworld-by-length-4-8-12-x2``), so runs on
        different problem sets never share a folder or a saved recording.

        Raises:
            ConfigurationError: the domain is neither built in nor a folder.
        """
        name = domain_short_name(self.domain)
        return name if self.selection is None else f"{name}-{self.selection.slug()}"

    @property
    def answer_cache(self) -> Path:
        """The model answer cache (``cache_dir``, else ``runs_dir/cache``)."""
        return self.cache_dir if self.cache_dir is not None else self.runs_dir / "cache"


def request_default(name: str) -> Any:
    """The default of :class:`RunRequest`'s field ``name``: the one place a default is written
    (the command line's help and a grid file's missing keys read it here).

    Raises:
        KeyError: no such field, or one without a default.
    """
    for item in dataclasses.fields(RunRequest):
        if item.name == name:
            if item.default is not dataclasses.MISSING:
                return item.default
            if item.default_factory is not dataclasses.MISSING:
                return item.default_factory()
    raise KeyError(name)


REQUEST_FIELDS = frozenset(item.name for item in dataclasses.fields(RunRequest))
"""The names :func:`parse_request` reads besides ``problems``, ``per_length`` and ``settings``."""


def parse_request(values: Mapping[str, Any], *, approach: Any = None, where: str = "run") -> RunRequest:
    """The one parser of run requests: ``values`` by field name (the flags of ``genplan run``,
    ``synthesize`` and ``evaluate``, or one cell of a grid) as one frozen :class:`RunRequest`.

    A value that is ``None`` or missing takes the field's default. ``problems`` (the
    ``--problems`` text) with ``per_length`` and ``n`` becomes the ``selection``
    (:func:`~genplan.pddl.selection.parse_selection`), unless a parsed ``selection`` is given;
    ``settings`` is the approach's settings dataclass or a mapping of its fields by name (text
    or values; :func:`~genplan.runs.settings.settings_from_mapping`), defaults where missing.

    Args:
        values: the run's values by field name.
        approach: the approach object when it is not the registry's entry for
            ``values["approach"]`` (a grid's, travelling with its task).
        where: what to name in messages (``run``, a grid file, a cell).

    Raises:
        ConfigurationError: an unknown field or approach, a setting the approach does not know
            or a value that does not convert (named), a bad selection or number.
    """
    from genplan.approaches import get_approach
    from genplan.runs.settings import settings_from_mapping

    unknown = set(values) - REQUEST_FIELDS - {"problems", "per_length"}
    if unknown:
        raise ConfigurationError(f"{where}: unknown run value(s) {sorted(unknown)}")
    given = {key: value for key, value in values.items() if value is not None}
    for required in ("approach", "domain"):
        if required not in given:
            raise ConfigurationError(f"{where}: no {required} given")
    chosen = approach if approach is not None else get_approach(str(given["approach"]))
    settings = given.get("settings")
    if settings is None or isinstance(settings, Mapping):
        try:
            settings = settings_from_mapping(
                chosen.settings_type, dict(settings or {}), where=f"{chosen.name} settings"
            )
        except (TypeError, ValueError) as error:
            prefix = f"{chosen.name} settings"
            message = str(error) if str(error).startswith(prefix) else f"{prefix}: {error}"
            raise ConfigurationError(message) from error
    elif not isinstance(settings, chosen.settings_type):
        raise ConfigurationError(f"{where}: settings of {type(settings).__name__}, not {chosen.name}'s")
    given["settings"] = settings
    problems = given.pop("problems", None)
    per_length = int(given.pop("per_length", PER_LENGTH))
    if problems is not None and "selection" not in given:
        count = given.get("n")
        given["selection"] = selections.parse_selection(
            str(problems), per_length=per_length, count=None if count is None else int(count)
        )
    if not isinstance(given.get("backend", BackendSpec()), BackendSpec):
        raise ConfigurationError(f"{where}: backend must be a backend spec, got {given['backend']!r}")
    try:
        for name in ("runs_dir", "cache_dir", "folder"):
            if name in given:
                given[name] = Path(given[name])
        for name in ("seed", "workers"):
            if name in given:
                given[name] = _integer(given[name], name)
        if "n" in given:
            given["n"] = _integer(given["n"], "n")
        for name in ("eval_timeout", "reference_timeout"):
            if name in given:
                given[name] = float(given[name])
        for name in ("size_check", "save", "overwrite", "per_step"):
            if name in given:
                given[name] = bool(given[name])
        return RunRequest(**given)
    except (TypeError, ValueError) as error:
        raise ConfigurationError(f"{where}: {error}") from error


def _integer(value: Any, name: str) -> int:
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    return int(value)
