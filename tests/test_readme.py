"""The manual's commands (the README and the pages of docs/): CI runs the README's first two, the
runnable examples run here, every other ``genplan`` line parses, its tables (record schemas, exit
codes) match what genplan does, and every page is in the site's navigation.

``mkdocs build --strict`` is not run here: it is a line of the README's test block, which CI runs
as written (checked below), so the site is built once, where it is published from."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from manual import DOCS, README, ROOT, blocks, manual_text, page_name, pages, section, text

from genplan.cli import build_parser
from genplan.paths import data_folder

BLOCKS = blocks(README)  # the README's: the first two are the quick start's
# Every bash block of the manual but the quick start's, with the page it is on.
MANUAL_BLOCKS = [
    (page_name(page), index, block)
    for page in pages()
    for index, block in enumerate(blocks(page))
    if page != README or index >= 2
]
MAIN_JOB = "genplan synthesize --domain heavy"


def _commands(block: str) -> list[str]:
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.startswith("genplan ")]


def _run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A README command as a user runs it: ``genplan`` is this interpreter's genplan."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "GENPLAN"))}
    arguments = shlex.split(command)
    return subprocess.run(
        [sys.executable, "-m", "genplan", *arguments[1:]],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_ci_sets_up_runs_the_main_job_and_tests_exactly_as_the_readme_says() -> None:
    install_and_run, test = BLOCKS[0].strip(), BLOCKS[1].strip()
    assert install_and_run.endswith(f" && {MAIN_JOB}")
    assert "[" not in install_and_run.split("pip install", 1)[1], (
        "the quick start installs only what the main job needs"
    )
    extras = re.search(r'pip install "\.\[([^]]+)\]"', test).group(1).split(",")  # type: ignore[union-attr]
    assert "docs" in extras and "mkdocs build --strict" in test.splitlines(), "CI builds the manual"

    def quiet_flags_removed(text: str) -> str:  # CI installs quietly; apt-get's -qq stays
        return re.sub(r" -q(?=\s|$)", "", text, flags=re.MULTILINE)

    ci = quiet_flags_removed((ROOT / ".ci" / "run").read_text())
    assert quiet_flags_removed(install_and_run) in ci
    ci_lines, position = ci.splitlines(), 0
    for line in quiet_flags_removed(test).splitlines():  # each line of the README's, in its order
        assert line in ci_lines[position:], f".ci/run does not run {line!r} where the README says"
        position = ci_lines.index(line, position) + 1


@pytest.mark.slow
def test_the_main_job_runs_offline(tmp_path: Path) -> None:
    result = _run(MAIN_JOB, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Evaluation: 30/30 solved" in result.stdout


@pytest.mark.slow
def test_other_commands_and_the_python_example_run_from_the_clone_root(tmp_path: Path) -> None:
    for name in ("domains", "synthesized"):  # the clone root, without writing into it
        (tmp_path / name).symlink_to(data_folder(name), target_is_directory=True)
    commands = _commands(re.findall(r"```bash\n(.*?)```", section("Other commands"), re.DOTALL)[0])
    assert [c.split()[1] for c in commands] == ["generate", "solve", "validate", "evaluate"]
    for command in commands:
        result = _run(command, tmp_path)
        assert result.returncode == 0, (command, result.stdout, result.stderr)
    assert json.loads((tmp_path / "results.json").read_text())["summary"]["fraction_solved"] == 1.0
    example = re.findall(r"```python\n(.*?)```", section("Other commands"), re.DOTALL)[0]
    script = example + "\nprint(len(plan))\n"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip()) == len((tmp_path / "sas_plan").read_text().splitlines()) - 1


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(line, id=f"{page}:{line}")
        for page, _, block in MANUAL_BLOCKS
        for line in _commands(block)
    ],
)
def test_every_genplan_command_of_the_manual_parses(line: str) -> None:
    arguments = shlex.split(line)[1:]
    build_parser(arguments).parse_args(arguments)


def test_every_page_is_in_the_navigation_and_every_entry_is_a_page() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())

    def entries(nav: object) -> list[str]:
        if isinstance(nav, str):
            return [nav]
        if isinstance(nav, list):
            return [entry for item in nav for entry in entries(item)]
        assert isinstance(nav, dict), nav
        return [entry for value in nav.values() for entry in entries(value)]

    listed = entries(config["nav"])
    assert len(listed) == len(set(listed)), "a page is listed twice"
    on_disk = {page.relative_to(DOCS).as_posix() for page in DOCS.rglob("*.md")}
    assert set(listed) - on_disk == set(), "nav entries without a page"
    assert on_disk - set(listed) == set(), "pages missing from the nav"


def test_the_readme_stays_what_a_newcomer_reads_first() -> None:
    """Issue 35: the details live on the docs pages; the README keeps at most about 250 lines."""
    assert len(text(README).splitlines()) <= 250


def test_the_api_reference_links_the_names_docstrings_give_as_sphinx_roles() -> None:
    """``docs/griffe_roles.py`` (loaded by mkdocs.yml) turns ``:class:`~a.B``` into an optional
    cross-reference shown as ``B``, and ``:func:`.m.f``` into one to ``f`` in the same package."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("griffe_roles", DOCS / "griffe_roles.py")
    assert spec is not None and spec.loader is not None
    roles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(roles)
    written = "Parsed once into :class:`~genplan.llm.spec.BackendSpec` by :func:`.spec.parse` (:mod:`x`)."
    assert roles.cross_references(written, lambda name: f"genplan.llm{name}" if name[0] == "." else name) == (
        'Parsed once into <autoref identifier="genplan.llm.spec.BackendSpec" optional><code>BackendSpec'
        '</code></autoref> by <autoref identifier="genplan.llm.spec.parse" optional><code>spec.parse</code>'
        '</autoref> (<autoref identifier="x" optional><code>x</code></autoref>).'
    )


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub and MkDocs make it: lower case, punctuation dropped."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).strip().replace(" ", "-")


def test_the_readme_links_to_pages_and_anchors_that_exist() -> None:
    """The README's links into the manual are relative (they work on GitHub and in a clone);
    MkDocs checks the pages' own links when it builds."""
    links = re.findall(r"\]\((docs/[^)#]+)(?:#([^)]+))?\)", text(README))
    assert len(links) >= 10
    for target, anchor in links:
        page = ROOT / target
        assert page.is_file(), target
        if anchor:
            headings = re.findall(r"^#{1,6} (.+)$", text(page), re.MULTILINE)
            assert anchor in {_slug(h) for h in headings}, f"{target} has no heading #{anchor}"


def _documented_keys(table_intro: str, *, optional: bool = False) -> list[str]:
    """The keys of a schema table, in order; with ``optional``, only those whose type says
    ``optional`` (absent from some records)."""
    table = section("Run records").split(table_intro, 1)[1].split("\n\n", 2)[1]
    rows = [row.split("|") for row in table.splitlines()[2:]]
    return [row[1].strip().strip("`") for row in rows if not optional or "optional" in row[2]]


def test_the_record_schemas_list_exactly_the_keys_of_the_saved_runs() -> None:
    saved = sorted(data_folder("synthesized").glob("*/*/metadata.json"))
    assert saved
    metadata_intro, results_intro = "`metadata.json`, one object per run:", "`results.json`, an array"
    metadata_keys = _documented_keys(metadata_intro)
    metadata_optional = set(_documented_keys(metadata_intro, optional=True))
    results_keys = _documented_keys(results_intro)
    results_optional = set(_documented_keys(results_intro, optional=True))
    assert results_optional == {"plan_cost", "checked_by", "check_note", "details"}
    assert metadata_optional == {"scores", "machine", "checked_by"}
    for path in saved:
        keys = list(json.loads(path.read_text()))
        assert keys == [k for k in metadata_keys if k in keys], path
        assert set(metadata_keys) - set(keys) <= metadata_optional, path
        for row in json.loads((path.parent / "results.json").read_text()):
            assert set(row) <= set(results_keys) and set(results_keys) - set(row) <= results_optional, path


def test_a_new_record_has_every_documented_key() -> None:
    from genplan.approaches.base import ProblemResult, RunRecord

    record = RunRecord("generalized-plan", "main", {}, "heavy", 0, "fake", "fake", "2026-01-01")
    record.problems = [ProblemResult("eval/eval-00.pddl", "solved", 3, 0.1, plan_cost=3.0)]
    record.scores = {"quality": {"all": 1.0}}
    assert list(record.to_json()) == _documented_keys("`metadata.json`, one object per run:")
    row = record.problems[0].to_json()
    assert list(row) == [k for k in _documented_keys("`results.json`, an array") if k != "details"]


@pytest.mark.slow
def test_the_exit_codes_are_the_documented_ones(tmp_path: Path) -> None:
    table = section("Exit codes")
    assert [
        row.split("|")[1].strip() for row in table.splitlines() if row.startswith("| ") and "code" not in row
    ][1:] == ["0", "1", "2", "130"]
    domain = data_folder("domains") / "heavy" / "domain.pddl"
    problem = tmp_path / "p.pddl"
    problem.write_text(
        "(define (problem p) (:domain heavy-pack) (:objects o1) (:init (box-empty) (unpacked o1))"
        " (:goal (and (packed o1))))"
    )
    valid, invalid = tmp_path / "valid", tmp_path / "invalid"
    valid.write_text("(pack-first o1)\n")
    invalid.write_text("(stack o1 o1)\n")
    assert _run(f"genplan validate {domain} {problem} {valid}", tmp_path).returncode == 0
    assert _run(f"genplan validate {domain} {problem} {invalid}", tmp_path).returncode == 1
    assert _run(f"genplan validate {domain} {problem} {tmp_path / 'missing'}", tmp_path).returncode == 2
    failing = tmp_path / "failing.py"
    failing.write_text("def get_plan(objects, init, goal):\n    return []\n")
    evaluate = f"genplan evaluate --program {failing} --domain heavy --n 1 --work-dir {tmp_path / 'w'}"
    assert _run(evaluate, tmp_path).returncode == 1
    assert _run("genplan synthesize --domain hevy", tmp_path).returncode == 2


def test_an_interrupted_command_exits_130(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from genplan.cli import main
    from genplan.cli import validate as validate_command

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(validate_command, "run", interrupted)
    assert main(["validate", "d.pddl", "p.pddl", "plan"]) == 130


def test_the_license_is_the_one_the_package_declares() -> None:
    declared = re.search(r'license = \{ text = "([^"]+)" \}', (ROOT / "pyproject.toml").read_text()).group(1)
    assert (ROOT / "LICENSE").read_text().startswith(f"{declared} License\n")
    assert (
        "## Citing" in text(README)
        and "@inproceedings{silver2024generalized" in text(README)
        and "@software{genplan" in text(README)
    )


# Every command of the manual that needs no model runs here, offline, as written, and must exit 0. A
# command needs a model when it names one (a backend, a server, a model the saved runs were not
# made with) or data a clone does not hold; or when its settings have no saved run to replay
# (it must then say so and exit 2). The long ones are slow; one runs smaller (it takes hours).
NEEDS_A_MODEL = (
    "--llm openai",
    "--llm files:",
    "--llm manual",
    "--base-url",
    "--scheduler",
    "--model gpt-4o",
)
NEEDS_DATA = ("./my-domain", "./ipc2023", "~/")
NO_SAVED_RUN = {
    "genplan run --approach autotos --domain gripper --checks partial --no-completeness-test",
    "genplan run --approach asp --domain mcp-two-rowers --revisions 4",
    "genplan run --approach asp --domain ferry --no-successor-check --no-val-check",
    "genplan run --approach symplanner --domain blocksworld --problems by-length:2,4,6,8,10,12",
    "genplan run --approach toi-dfs --domain logistics --problems small --n 100 --budget 50",
    # its label, no-cot+feedback-rounds-2, has no saved run (settings name the run: issue 22)
    "genplan run --approach generalized-plan --domain gripper --no-chain-of-thought --feedback-rounds 2",
}
SMALLER = {"genplan experiments --figure3 --domains all": " --scales 1,2 --per-size 1 --eval-timeout 5"}
FAST = {  # a few seconds each
    "genplan synthesize --domain gripper --no-cot",
    "genplan synthesize --domain gripper --problems paper --llm replay:synthesized/gripper/main-seed0/conversation.jsonl",
}
UNDER_A_MINUTE = {  # the README's example of each approach: the slow tier (CI) runs them
    "genplan synthesize --domain gripper",
    "genplan run --approach autotos --domain forest",
    "genplan run --approach boomerang --domain blocksworld --problems by-length:4,8,12 --per-length 2",
    "genplan run --approach asp --domain mcp",
    "genplan run --approach pg3 --domain delivery",
    "genplan run --approach heuristic --domain spanner",
}
PROSE_SCRIPTS = sorted(
    {
        re.sub(r" --out \.\.\.$", " --out planner-reports", match)
        for match in re.findall(r"`(python scripts/[^`]+)`", manual_text())
        if not match.startswith("python scripts/make_planner_reports.py runs/")  # a run of your own
        and match != "python scripts/bench_asp.py"  # hours: its documented smaller form runs
    }
)


def _lines(block: str) -> list[str]:
    """A bash block's commands (a ``for`` loop is one), comments cut."""
    text = re.sub(r"\\\n\s*", "", block)
    if text.startswith("for "):
        return [text.strip()]
    return [line.split("  #")[0].strip() for line in text.splitlines() if line.strip()]


def _needs_a_model(command: str) -> bool:
    return any(mark in command for mark in NEEDS_A_MODEL + NEEDS_DATA) or command in NO_SAVED_RUN


def _offline_blocks() -> list[tuple[str, list[str]]]:
    """The manual's bash blocks after installation, other than "Other commands" (run above), with
    their commands that need no model, in order (``make_reports.py`` is left out after a grid that
    needs one: it reports that grid's results), each named by its page and place there."""
    other = re.findall(r"```bash\n(.*?)```", section("Other commands"), re.DOTALL)[0]
    offline = []
    for page, index, block in MANUAL_BLOCKS:
        if block == other:
            continue
        commands = []
        results_of_a_model = False
        for command in _lines(block):
            if not command.startswith(("genplan ", "python scripts/", "for ")):
                continue  # a server of your own (vllm, ollama, llama-server)
            if command.startswith("genplan experiments"):
                results_of_a_model = _needs_a_model(command)
            if _needs_a_model(command) or (
                command.startswith("python scripts/make_reports") and results_of_a_model
            ):
                continue
            commands.append(command)
        if commands:
            offline.append((f"{page}:block{index}", commands))
    return offline


def _clone_root(tmp_path: Path) -> Path:
    for name in ("domains", "synthesized", "scripts"):  # the clone root, without writing into it
        (tmp_path / name).symlink_to(ROOT / name if name == "scripts" else data_folder(name))
    return tmp_path


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` in bash as a user types it, ``genplan`` and ``python`` being this environment's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "GENPLAN"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=7200
    )


def _ablations() -> list[str]:
    """``genplan synthesize --domain gripper --no-cot  # ablations: --no-cot --no-debug --no-names``:
    each ablation the comment names."""
    line = next(
        line for _, _, block in MANUAL_BLOCKS for line in block.splitlines() if "# ablations:" in line
    )
    base = line.split("  #")[0].strip().rsplit(" ", 1)[0]
    return [f"{base} {flag}" for flag in line.split("# ablations:")[1].split()]


OFFLINE = _offline_blocks()


def test_every_command_of_the_manual_is_run_here_or_needs_a_model() -> None:
    assert OFFLINE and PROSE_SCRIPTS
    written = {c for _, _, block in MANUAL_BLOCKS for c in _lines(block)}
    assert written >= NO_SAVED_RUN, "a listed command left the manual"
    run_offline = {c for _, commands in OFFLINE for c in commands}
    assert set(SMALLER) | FAST | UNDER_A_MINUTE <= run_offline
    assert (
        "python scripts/bench_validate.py" in PROSE_SCRIPTS
        and "python scripts/bench_sandbox.py" in PROSE_SCRIPTS
    )


def _params() -> list[object]:
    params = []
    for where, commands in OFFLINE:
        if all(command in FAST for command in commands):
            marks = []
        elif all(command in FAST | UNDER_A_MINUTE for command in commands):
            marks = [pytest.mark.slow]
        else:
            marks = [pytest.mark.slow, pytest.mark.expensive]
        params.append(pytest.param(commands, id=where, marks=marks))
    return params


@pytest.mark.parametrize("commands", _params())
def test_a_block_of_the_manual_runs_offline_as_written(commands: list[str], tmp_path: Path) -> None:
    cwd = _clone_root(tmp_path)
    for command in commands:
        result = _shell(command + SMALLER.get(command, ""), cwd)
        assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr[-2000:])


@pytest.mark.parametrize("command", sorted(NO_SAVED_RUN))
def test_a_command_of_the_manual_with_no_saved_run_says_a_model_is_needed(
    command: str, tmp_path: Path
) -> None:
    result = _shell(command, _clone_root(tmp_path))
    assert result.returncode == 2 and "no language model is set up" in result.stderr, (command, result.stderr)


@pytest.mark.parametrize("command", _ablations())
def test_each_ablation_the_manual_names_replays_offline(command: str, tmp_path: Path) -> None:
    result = _shell(command, _clone_root(tmp_path))
    assert result.returncode == 0, (command, result.stderr[-2000:])


@pytest.mark.slow
@pytest.mark.expensive
@pytest.mark.parametrize("command", PROSE_SCRIPTS)
def test_a_script_the_manual_names_runs_offline(command: str, tmp_path: Path) -> None:
    result = _shell(command, _clone_root(tmp_path))
    assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr[-2000:])
