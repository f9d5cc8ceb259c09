"""Shared test set-up: the tests folder is importable (fake programs, oracles) from every
subfolder, and every test runs in its own empty working folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))


@pytest.fixture(autouse=True)
def _runs_and_caches_in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run every test in ``tmp_path``: what genplan writes by default relative to the working
    folder (run folders, generated problems and the answer cache in ``./runs``, grid results in
    ``./results``, Dask's scratch space) lands there, never in the checkout or another test's
    folder; no model configured in the environment is reached."""
    monkeypatch.chdir(tmp_path)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--expensive",
        action="store_true",
        default=False,
        help="also run the tests marked expensive: every command of the manual and benchmark script run as "
        "written (tens of minutes to hours on 2 cores)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``expensive`` run only with ``--expensive`` (pyperplan's ``--slow`` opt-in): they
    run the manual's commands and benchmarks as written, which takes far longer than the suite's budget."""
    if config.getoption("--expensive"):
        return
    skip = pytest.mark.skip(reason="expensive: run with --expensive")
    for item in items:
        if "expensive" in item.keywords:
            item.add_marker(skip)
