"""UP problems as a problem-set folder that genplan's ``--domain`` takes.

``write_problem_set(problems, "my-domain")`` writes ``my-domain/domain.pddl`` and one problem file
per UP problem, by UP's PDDL writer (:mod:`genplan.up.pddl`); then ``genplan synthesize --domain
my-domain``, ``genplan run ... --domain my-domain`` and ``genplan evaluate --program P --domain
my-domain --plans plans/`` work on them as on any folder, and :func:`~genplan.up.pddl.read_up_plan`
reads a plan they saved back in the UP problem's names. With ``training`` problems the folder has
``train/`` and ``eval/`` subfolders; without, it is flat (genplan then trains on the 10 smallest,
see "Domains and problem sets" in the docs).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

from genplan.errors import ConfigurationError
from genplan.up.errors import UnsupportedUpProblem
from genplan.up.pddl import load_up_problem

_DOMAIN_NAME = re.compile(r"\(domain ([^\s()]+)\)")


@dataclass(frozen=True)
class WrittenProblemSet:
    """What :func:`write_problem_set` wrote.

    Attributes:
        folder: the folder (give it to ``--domain``).
        domain: its ``domain.pddl``.
        training: the training problems' files, in the order given (empty for a flat folder).
        evaluation: the evaluation problems' files, in the order given.
    """

    folder: Path
    domain: Path
    training: tuple[Path, ...]
    evaluation: tuple[Path, ...]


def write_problem_set(
    problems: Sequence[Any], folder: Path | str, *, training: Sequence[Any] = ()
) -> WrittenProblemSet:
    """Write UP problems of one domain as a folder genplan's ``--domain`` takes.

    Each problem is written by UP's PDDL writer and loaded by genplan before anything is
    written, so a problem genplan would refuse stops here, naming it. Files are named after the
    problems (``Robot 1`` -> ``robot_1.pddl``; a repeated name gets ``-2``, ``-3``).

    Args:
        problems: the evaluation problems (UP ``Problem`` objects of one domain).
        folder: where to write; created if missing; must hold no ``domain.pddl`` yet.
        training: training problems: written to ``train/``, the others to ``eval/``.

    Returns:
        The files written (:class:`WrittenProblemSet`).

    Raises:
        ConfigurationError: no problems, a folder that already holds a problem set, or problems
            whose domains differ (names the two problems and the first line that differs).
        UnsupportedUpProblem: a problem genplan does not model or UP cannot write as PDDL
            (:func:`~genplan.up.pddl.load_up_problem`).
        UnsupportedPddl, PddlError: the written PDDL does not load in genplan (names the problem).
    """
    if not problems:
        raise ConfigurationError("write_problem_set: no problems given")
    folder = Path(folder)
    if (folder / "domain.pddl").exists():
        raise ConfigurationError(
            f"{folder} already holds a domain.pddl; write the problem set to a new folder"
        )
    everything = [*training, *problems]
    texts = [load_up_problem(problem).text for problem in everything]
    name = _domain_name(texts[0].domain)
    domain = _renamed_domain(texts[0].domain, name)
    for problem, text in zip(everything[1:], texts[1:]):
        _check_same_domain(everything[0], problem, domain, _renamed_domain(text.domain, name))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "domain.pddl").write_text(domain, encoding="utf-8")
    written = []
    for index, (text, stem) in enumerate(zip(texts, _stems(everything))):
        place = (folder / ("train" if index < len(training) else "eval")) if training else folder
        place.mkdir(exist_ok=True)
        path = place / f"{stem}.pddl"
        own_name = f"(:domain {_domain_name(text.domain)})"
        path.write_text(text.problem.replace(own_name, f"(:domain {name})", 1), encoding="utf-8")
        written.append(path)
    return WrittenProblemSet(
        folder, folder / "domain.pddl", tuple(written[: len(training)]), tuple(written[len(training) :])
    )


def _domain_name(domain_text: str) -> str:
    match = _DOMAIN_NAME.search(domain_text)
    if match is None:  # the writer always names the domain
        raise UnsupportedUpProblem("UP's PDDL writer wrote a domain without a name")
    return match.group(1)


def _renamed_domain(domain_text: str, name: str) -> str:
    return _DOMAIN_NAME.sub(f"(domain {name})", domain_text, count=1)


def _check_same_domain(first: Any, other: Any, expected: str, domain: str) -> None:
    if domain == expected:
        return
    line = next(
        (number, a, b)
        for number, (a, b) in enumerate(
            zip_longest(expected.splitlines(), domain.splitlines(), fillvalue=""), 1
        )
        if a != b
    )
    raise ConfigurationError(
        f"UP problems {first.name!r} and {other.name!r} have different domains: line {line[0]} of "
        f"the written domain is {line[1].strip()!r} for the first and {line[2].strip()!r} for the "
        "second; a problem set holds problems of one domain"
    )


def _stems(problems: Sequence[Any]) -> list[str]:
    stems: list[str] = []
    for index, problem in enumerate(problems):
        base = re.sub(r"[^0-9a-z_-]", "_", (problem.name or f"problem{index}").lower()) or f"problem{index}"
        stem, count = base, 1
        while stem in stems or stem == "domain":
            count += 1
            stem = f"{base}-{count}"
        stems.append(stem)
    return stems
