"""Running a "No Names" program on problems as they are named (Silver et al. 2024, Sec. 5.1).

A program synthesized in the No-Names ablation reads obfuscated names (``predicate3``,
``operator1``, ``type0``): the run saved its mapping as ``name_mapping.json`` beside
``program.py``. To use the program on problems with their real names (``genplan evaluate``,
``genplan solve``, :func:`~genplan.approaches.generalized_plan.solver.load_solver`), each problem
is renamed through the mapping before the program sees it, and the plan is translated back.
Objects the run never saw get new names after the mapped ones
(:func:`~genplan.pddl.obfuscate.extend_mapping`), as the run itself named its evaluation objects.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from genplan.errors import ConfigurationError
from genplan.pddl.obfuscate import (
    CATEGORIES,
    NameMapping,
    extend_mapping,
    is_pddl_name,
    obfuscate_domain,
    obfuscate_problem,
)
from genplan.pddl.problem import Problem
from genplan.plans.untrusted_text import shown_text

NAME_MAPPING_FILE = "name_mapping.json"
"""The file a No-Names run saves its mapping in, beside ``program.py``."""


def find_name_mapping(program: Path, given: Path | None = None) -> Path | None:
    """The name mapping to apply for ``program``: ``given``, else the ``name_mapping.json`` beside
    the program when there is one, else ``None`` (the program reads real names)."""
    if given is not None:
        return given
    beside = Path(program).parent / NAME_MAPPING_FILE
    return beside if beside.is_file() else None


def load_name_mapping(path: Path) -> NameMapping:
    """Read a run's ``name_mapping.json``, every name checked.

    The names are data: they are written into the problems the program sees and, translated
    back, into the plan a user gets (a plan file, the terminal), so each must be a PDDL name
    (:func:`~genplan.pddl.obfuscate.is_pddl_name`; no control character, space or line break).

    Raises:
        ConfigurationError: the file cannot be read, is not a mapping of categories
            (:data:`~genplan.pddl.obfuscate.CATEGORIES`) to ``{original: obfuscated}``, or holds a
            name that is not a PDDL name (names the file, the category and the name, escaped).
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ConfigurationError(f"cannot read the name mapping {path}: {error}") from error
    if not isinstance(data, dict) or not all(
        isinstance(names, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in names.items())
        for names in data.values()
    ):
        raise ConfigurationError(
            f"{path} is not a name mapping (a No-Names run's name_mapping.json: category -> "
            "{original: obfuscated})"
        )
    for category, names in data.items():
        if category not in CATEGORIES:
            raise ConfigurationError(
                f"{path}: unknown category {shown_text(category)!r} in the name mapping "
                f"(categories: {', '.join(CATEGORIES)})"
            )
        for original, obfuscated in names.items():
            for name in (original, obfuscated):
                if not is_pddl_name(name, category):
                    raise ConfigurationError(
                        f"{path}: the {category} name {shown_text(name)!r} in the name mapping is not a PDDL "
                        "name (a letter, then letters, digits, '-' or '_'"
                        + (", after a '?')" if category == "variable" else ")")
                    )
    return NameMapping.from_json(data)


def rename_problems(problems: Sequence[Problem], mapping: NameMapping) -> tuple[list[Problem], NameMapping]:
    """``problems`` (all of one domain) in the mapping's names, and the mapping extended with
    their new objects and problem names (for :func:`plan_to_original`).

    Raises:
        ConfigurationError: the mapping does not cover the domain's names (a mapping of another
            domain); names the first missing name.
    """
    if not problems:
        return [], mapping
    extended = extend_mapping(mapping, problems)
    try:
        domain, _ = obfuscate_domain(problems[0].domain, extended)
        return [obfuscate_problem(problem, extended, domain) for problem in problems], extended
    except KeyError as error:
        raise ConfigurationError(
            f"the name mapping does not cover {error.args[0]!r} of domain {problems[0].domain.name}: "
            "it belongs to a run of another domain"
        ) from error


def plan_to_original(plan: Sequence[str], mapping: NameMapping) -> list[str]:
    """A plan in the mapping's names (``(operator1 object3 object7)``) in original names; a word
    the mapping does not know is kept as written (the plan checker then names it)."""
    operators = {v: k for k, v in mapping.forward["operator"].items()}
    objects = {v: k for k, v in mapping.forward["object"].items()}
    translated = []
    for action in plan:
        words = action.strip().strip("()").split()
        if not words:
            translated.append(action)
            continue
        head, arguments = operators.get(words[0], words[0]), [objects.get(w, w) for w in words[1:]]
        translated.append("(" + " ".join([head, *arguments]) + ")")
    return translated
