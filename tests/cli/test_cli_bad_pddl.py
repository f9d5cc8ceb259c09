"""Bad or unsupported PDDL stops every command with one line naming the file, and exit status 2
(issue 33, items 1 and 3): never a traceback, never the status 1 that means "plan invalid"."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.cli import main
from genplan.paths import builtin_domain_file

FERRY = builtin_domain_file("ferry").read_text()
PROBLEM = """(define (problem p) (:domain ferry)
 (:objects a b l1 l2)
 (:init (car a) (car b) (location l1) (location l2) (not-eq l1 l2) (not-eq l2 l1) (at a l1) (at b l1)
   (at-ferry l1) (empty-ferry))
 (:goal (and (at a l2))))
"""
PLAN = "(board a l1)\n(sail l1 l2)\n(debark a l2)\n"
PROGRAM = "def get_plan(objects, init, goal):\n    return []\n"

BAD = {
    # a problem naming an object twice: the pddl library's PDDLParsingError, exit 1, before
    "duplicate-object": (FERRY, PROBLEM.replace("(:objects a b l1 l2)", "(:objects a b l1 l2 a)"), "problem"),
    # exists without :existential-preconditions: the library's PDDLMissingRequirementError before
    "exists": (
        FERRY.replace("(at-ferry ?from))", "(at-ferry ?from) (exists (?c) (on ?c)))"),
        PROBLEM,
        "domain",
    ),
    # a derived predicate: loaded without a word before, and ignored by the simulator
    "derived": (
        FERRY.replace(":strips)", ":strips :derived-predicates)").replace(
            "  (:action sail", "  (:derived (empty-ferry) (car l1))\n  (:action sail"
        ),
        PROBLEM,
        "domain",
    ),
}


def _folder(tmp_path: Path, case: str) -> Path:
    domain, problem, _ = BAD[case]
    folder = tmp_path / "ipc" / "ferry"
    folder.mkdir(parents=True)
    (folder / "domain.pddl").write_text(domain)
    (folder / "p01.pddl").write_text(problem)
    (tmp_path / "plan.txt").write_text(PLAN)
    (tmp_path / "program.py").write_text(PROGRAM)
    return folder


def _commands(tmp_path: Path, folder: Path) -> dict[str, list[str]]:
    runs = ["--runs-dir", str(tmp_path / "runs")]
    return {
        "validate": [
            "validate",
            str(folder / "domain.pddl"),
            str(folder / "p01.pddl"),
            str(tmp_path / "plan.txt"),
        ],
        "evaluate": ["evaluate", "--program", str(tmp_path / "program.py"), "--domain", str(folder), *runs],
        "solve": [
            "solve",
            str(folder / "p01.pddl"),
            "--domain",
            str(folder / "domain.pddl"),
            "--program",
            str(tmp_path / "program.py"),
            "--isolation",
            "none",
        ],
        "synthesize": [
            "synthesize",
            "--domain",
            str(folder),
            "--llm",
            f"files:{tmp_path / 'answers'}",
            *runs,
        ],
        "run-pg3": ["run", "--approach", "pg3", "--domain", str(folder), *runs],
    }


@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("command", ["validate", "evaluate", "solve", "synthesize", "run-pg3"])
def test_every_command_stops_on_bad_pddl_with_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, command: str
) -> None:
    folder = _folder(tmp_path, case)
    assert main(_commands(tmp_path, folder)[command]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    named = folder / ("p01.pddl" if BAD[case][2] == "problem" else "domain.pddl")
    assert [line for line in error if line.startswith("genplan: error:")] == error[-1:]
    assert error[-1].startswith(f"genplan: error: {named}:"), error
    assert not (tmp_path / "answers").exists() or not any((tmp_path / "answers").iterdir())


def test_a_users_folder_named_like_a_built_in_domain_never_replays_or_blocks_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33 item 4: ``--domain ./ipc/ferry`` with no model replayed the built-in ferry's saved
    run (a folder named ferry), failed, and left runs/ferry/main-seed0/identity.json behind."""
    from genplan.pddl.problem_sets import domain_short_name

    folder = tmp_path / "ipc" / "ferry"
    folder.mkdir(parents=True)
    (folder / "domain.pddl").write_text(FERRY)
    (folder / "p01.pddl").write_text(PROBLEM)
    monkeypatch.chdir(tmp_path)
    assert main(["synthesize", "--domain", str(folder)]) == 2
    error = capsys.readouterr().err
    assert "no language model is set up" in error and "recording" not in error
    assert not (tmp_path / "runs" / "ferry").exists()
    assert domain_short_name(str(folder)).startswith("ferry-") and domain_short_name("ferry") == "ferry"
    assert domain_short_name(str(builtin_domain_file("ferry").parent)) == "ferry"  # the built-in by path


def test_a_start_that_recorded_nothing_does_not_block_a_later_run(tmp_path: Path) -> None:
    from genplan.runs.identity import IDENTITY_FILE, check_identity

    folder = tmp_path / "ferry-1a2b3c4d" / "main-seed0"
    folder.mkdir(parents=True)
    (folder / IDENTITY_FILE).write_text('{"model": "gpt-4o"}')
    (folder / "conversation.jsonl").write_text("")
    check_identity(folder, {"model": "claude"})  # nothing recorded: taken over
    (folder / "conversation.jsonl").write_text('{"index": 0}\n')
    with pytest.raises(Exception, match="holds a run made with other values"):
        check_identity(folder, {"model": "claude"})
