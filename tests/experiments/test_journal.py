"""The grid's JSON Lines: append-only, exactly one record per cell, repaired after a torn write."""

from __future__ import annotations

import json
from pathlib import Path

from genplan.experiments.journal import Journal, read_jsonl


def run(cell: str) -> dict:
    return {"cell": cell, "fraction_solved": 1.0}


def test_a_cell_is_recorded_once(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    assert journal.record(run("a"), [{"problem": "p1"}, {"problem": "p2"}])
    assert not journal.record(run("a"), [{"problem": "p1"}])  # a second outcome of the same cell
    assert not Journal(tmp_path).record(run("a"), [])  # and after reopening
    assert [r["cell"] for r in read_jsonl(tmp_path / "runs.jsonl")] == ["a"]
    assert read_jsonl(tmp_path / "problems.jsonl") == [
        {"cell": "a", "problem": "p1"},
        {"cell": "a", "problem": "p2"},
    ]


def test_opening_cuts_a_torn_line_and_drops_problems_of_unrecorded_cells(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.record(run("a"), [{"problem": "p1"}])
    with (tmp_path / "problems.jsonl").open("a") as stream:  # the client died after b's problems ...
        stream.write(json.dumps({"cell": "b", "problem": "p1"}) + "\n")
    with (tmp_path / "runs.jsonl").open("a") as stream:  # ... in the middle of b's run record
        stream.write('{"cell": "b", "fract')
    reopened = Journal(tmp_path)
    assert reopened.done == {"a"}
    assert read_jsonl(tmp_path / "runs.jsonl") == [run("a")]
    assert read_jsonl(tmp_path / "problems.jsonl") == [{"cell": "a", "problem": "p1"}]
    assert reopened.record(run("b"), [{"problem": "p1"}])
    assert [r["cell"] for r in read_jsonl(tmp_path / "problems.jsonl")] == ["a", "b"]


def test_failures_are_appended(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.record_failure("a", "LLMError: no answer", "host:1")
    journal.record_failure("a", "LLMError: no answer", "host:2")
    assert len(read_jsonl(tmp_path / "failures.jsonl")) == 2
    assert journal.done == set()
