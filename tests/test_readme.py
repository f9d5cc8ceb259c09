"""The README's first two commands are what CI runs, and its example commands parse."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from genplan.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```bash\n(.*?)```", README, re.DOTALL)


def test_ci_installs_and_tests_exactly_as_the_readme_says() -> None:
    install_and_run, test = BLOCKS[0].strip(), BLOCKS[1].strip()
    assert install_and_run.endswith(" && genplan synthesize --domain heavy")
    install = install_and_run.removesuffix(" && genplan synthesize --domain heavy")
    ci = (ROOT / ".ci" / "run").read_text().replace(" -q", "")  # CI installs quietly
    assert install.replace(" -q", "") in ci and test.replace(" -q", "") in ci


@pytest.mark.parametrize(
    "line",
    [line for block in BLOCKS[2:] for line in block.splitlines() if line.startswith("genplan ")],
)
def test_readme_genplan_commands_parse(line: str) -> None:
    arguments = shlex.split(line.split("#")[0])[1:]
    build_parser(arguments).parse_args(arguments)
