"""Grid files: a small TOML file that describes a grid (see :mod:`genplan.experiments.spec`).

:func:`read_grid_file` checks the file's keys and returns them with ``_`` names;
:func:`build_grid` turns those values, overlaid by any command-line flags, into a
:class:`~genplan.experiments.spec.GridSpec`.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from genplan.errors import ConfigurationError
from genplan.experiments.spec import (
    ApproachSpec,
    GridSpec,
    ModelSpec,
    approaches_from_toml,
    parse_domains,
    parse_seeds,
)
from genplan.llm.spec import BackendSpec
from genplan.paths import builtin_domain_names
from genplan.pddl.paper_problems import PAPER_COUNT
from genplan.pddl.selection import PER_LENGTH, Selection, parse_selection
from genplan.requests.request import request_default
from genplan.sandbox import Isolation

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TOP_KEYS = {
    "domains": 'built-in names or folders, or "all"',
    "seeds": 'e.g. "0-9" or [0, 3]',
    "n": "evaluation problems per run",
    "eval_timeout": "seconds per evaluation problem",
    "size_check": "end training with an evaluation-sized problem",
    "per_step": "evaluate after every debugging step (Figure 4)",
    "eval_workers": "evaluation problems one cell solves at once",
    "problems": "evaluation problems other than the generated ones (paper, by-length:4,8,12 or small)",
    "per_length": "problems per optimal length for by-length",
    "generators": "the problem generators' version (v2, the paper's distributions; v1 for the saved runs)",
    "runs_dir": "run folders",
    "results": "JSON Lines results",
}
MODEL_KEYS = {"llm", *BackendSpec.option_names(), "cache_dir"}


def _names(table: Mapping[str, Any]) -> dict[str, Any]:
    return {key.replace("-", "_"): value for key, value in table.items()}


def read_grid_file(path: Path) -> dict[str, Any]:
    """The values of grid file ``path`` (keys with ``_``; ``model`` a table; ``approaches`` parsed).

    Relative paths in the file (``runs-dir``, ``results``, ``cache-dir``, domain folders) are
    taken relative to the file's folder.

    Raises:
        ConfigurationError: the file cannot be read, is not TOML, or has an unknown key (the
            message names the file, and the line for TOML syntax errors).
    """
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigurationError(f"cannot read grid file {path}: {error.strerror}") from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigurationError(f"{path}: not a valid TOML grid file: {error}") from error
    values = _names({k: v for k, v in data.items() if k not in ("model", "approach")})
    unknown = set(values) - set(TOP_KEYS)
    if unknown:
        known = ", ".join(k.replace("_", "-") for k in TOP_KEYS)
        raise ConfigurationError(
            f"{path}: unknown key(s) {sorted(unknown)}; known: {known}, [model], [[approach]]"
        )
    base = Path(path).resolve().parent
    for key in ("runs_dir", "results"):
        if key in values:
            values[key] = base / values[key]
    if "domains" in values:
        domains = values["domains"]
        items = domains.split(",") if isinstance(domains, str) else domains
        values["domains"] = [
            str(base / item) if item not in builtin_domain_names() and (base / item).is_dir() else item
            for item in (str(i).strip() for i in items)
        ]
    model = _names(data.get("model", {}))
    unknown = set(model) - MODEL_KEYS
    if unknown:
        raise ConfigurationError(
            f"{path}: [model]: unknown key(s) {sorted(unknown)}; known: {sorted(MODEL_KEYS)}"
        )
    if "cache_dir" in model:
        model["cache_dir"] = base / model["cache_dir"]
    values["model"] = model
    if "approach" in data:
        values["approaches"] = approaches_from_toml(data["approach"], str(path))
    return values


def _selection(values: Mapping[str, Any]) -> Selection | None:
    """The grid's ``problems`` (with ``per_length`` and ``n``), parsed once: the cells carry the object."""
    text = values.get("problems")
    if text is None:
        return None
    count = values.get("n")
    return parse_selection(
        str(text),
        per_length=int(values.get("per_length", PER_LENGTH)),
        count=None if count is None else int(count),
    )


def build_grid(values: Mapping[str, Any], where: str = "grid") -> GridSpec:
    """A :class:`GridSpec` from grid-file values (see :func:`read_grid_file`), flags already laid over.

    Defaults: every built-in domain, seed 0, the generalized plan's main approach, the paper's
    30 evaluation problems, ``results/``, and for what a grid shares with a single run (the
    evaluation time-out, size check, runs folder, isolation, the answer cache in ``RUNS/cache``,
    a replay of the saved runs when no model backend is given) the run request's defaults
    (:func:`~genplan.requests.request.request_default`).

    Raises:
        ConfigurationError: a bad domain, seed list, number or model setting (names ``where``).
    """
    model_values = dict(values.get("model") or {})
    runs_dir = Path(values.get("runs_dir") or request_default("runs_dir"))
    cache_dir = Path(model_values.pop("cache_dir", None) or runs_dir / "cache")
    llm = model_values.pop("llm", None)
    try:
        backend = llm if isinstance(llm, BackendSpec) else BackendSpec.parse(llm)
        model = ModelSpec(BackendSpec(backend.kind, backend.path, **model_values), cache_dir)
        approaches: tuple[ApproachSpec, ...] = tuple(
            values.get("approaches") or (ApproachSpec("generalized-plan"),)
        )
        return GridSpec(
            domains=parse_domains(values.get("domains") or "all", f"{where}: domains"),
            seeds=parse_seeds(values.get("seeds", request_default("seed")), f"{where}: seeds"),
            approaches=approaches,
            model=model,
            runs_dir=runs_dir,
            results_dir=Path(values.get("results") or "results"),
            n_eval=int(values.get("n", PAPER_COUNT)),
            eval_timeout=float(values.get("eval_timeout", request_default("eval_timeout"))),
            size_check=bool(values.get("size_check", request_default("size_check"))),
            per_step=bool(values.get("per_step", request_default("per_step"))),
            eval_workers=int(values.get("eval_workers", 1)),
            problems=_selection(values),
            isolation=Isolation(values.get("isolation", request_default("isolation"))),
            generators=values.get("generators"),
        )
    except (TypeError, ValueError) as error:
        raise ConfigurationError(f"{where}: {error}") from error
