"""The paper's own evaluation problems, shipped with genplan (``--problems paper``).

Silver et al. (AAAI 2024) evaluated each seed's program on 30 problems per domain that their
code ships as files. genplan carries those of seed 0 for the seven domains, each with the
paper's domain file, exactly as that code ships them (lower-cased as its loader reads them),
under ``domains/<domain>/paper/seed0/`` with the MIT license notice of the paper's repository
in ``domains/<domain>/paper/LICENSE``. Evaluating on them makes fractions solved comparable
with the paper's Table 1 whatever genplan's generators do. The paper's domain files name some
domains differently (``trapnewspapers`` for delivery) and declare other requirements, but
define the same predicates and operators as genplan's (``tests/pddl/test_paper_problems.py``), so
the paper's problems are read against the paper's own domain file.

Only seed 0 is shipped (heavy's 30 problems alone take 7.7 MB); a run of any seed evaluates on
these files.
"""

from __future__ import annotations

from pathlib import Path

from genplan.errors import ConfigurationError
from genplan.paths import PAPER_DOMAINS, data_folder
from genplan.pddl.domain import Domain, load_domain
from genplan.pddl.problem_sets import natural_key

PAPER_SEED = 0
"""The seed whose evaluation problems genplan ships."""

PAPER_COUNT = 30
"""Evaluation problems per domain and seed in the paper (Sec. 5.1)."""


def paper_folder(domain: str) -> Path:
    """``domains/<domain>/paper/seed0``: the paper's domain file and evaluation problems.

    Raises:
        ConfigurationError: ``domain`` is not one of the paper's seven domains, or its files are
            missing (an incomplete installation).
    """
    if domain not in PAPER_DOMAINS:
        raise ConfigurationError(
            f"--problems paper: the paper's problems exist for its seven domains ({', '.join(PAPER_DOMAINS)}), "
            f"not for {domain!r}"
        )
    folder = data_folder("domains") / domain / "paper" / f"seed{PAPER_SEED}"
    if not (folder / "domain.pddl").is_file():
        raise ConfigurationError(
            f"the paper's problems for {domain} are missing: no {folder / 'domain.pddl'}"
        )
    return folder


def paper_problem_files(domain: str) -> list[Path]:
    """The paper's evaluation problem files of ``domain``, in the paper's order (``problem0``,
    ``problem1``, ..., ``problem29``; heavy's are ``task0`` ...).

    Raises:
        ConfigurationError: as :func:`paper_folder`.
    """
    folder = paper_folder(domain)
    return sorted((p for p in folder.glob("*.pddl") if p.name != "domain.pddl"), key=natural_key)


def paper_domain(domain: str) -> Domain:
    """The paper's domain file of ``domain``, parsed.

    Raises:
        ConfigurationError: as :func:`paper_folder`.
    """
    return load_domain(paper_folder(domain) / "domain.pddl")
