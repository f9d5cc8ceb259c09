"""Hostile encodings: clingo never runs code, reads files or calls host functions for a model.

clingo executes embedded scripts where its build has the interpreter (the PyPI wheel of this
machine has none, others do), calls host functions for ``@name`` terms, and reads any
``#include``d file while parsing. Each hostile text must come back ``rejected`` before clingo
sees it, from genplan's side and again inside the child, and must leave no trace.
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from pathlib import Path

import clingo.ast
import pytest

from genplan.approaches.asp import clingo_run, isolation
from genplan.approaches.asp.isolation import run_isolated
from genplan.approaches.asp.policy import policy_violations
from genplan.approaches.asp.solver import Clingo, ClingoStatus

MARKER = Path("/tmp/genplan-asp-escape-marker")
PY = f'import os\nos.system("touch {MARKER}")\n'

HOSTILE: dict[str, str] = {
    "python script": f"#script (python)\n{PY}#end.\na.\n",
    "python script, no space": f"#script(python)\n{PY}#end.\n",
    "python script with main": f"#script (python)\ndef main(prg):\n    {PY.replace(chr(10), '; ')}\n#end.\n",
    "lua script": f'#script (lua)\nos.execute("touch {MARKER}")\n#end.\n',
    "clingo 4 python block": f"#python\n{PY}#end.\n",
    "clingo 4 lua block": f'#lua\nos.execute("touch {MARKER}")\n#end.\n',
    "script after a comment": f"% harmless\n#program step(t).\n#script (python)\n{PY}#end.\n",
    "script hidden in a block comment": f"%* *% #script (python)\n{PY}#end.\n",
    "include a system file": '#include "/etc/passwd".\n',
    "include relative": '#include "../../secrets.lp".\n',
    "include a built-in": "#include <incmode>.\n",
    "external function": "p(@system(1)).\n",
    "external function on main": "p(@main(1)).\n",
    "external function in a body": "p(X) :- X = @exit(0).\n",
    "too long": "a.\n" * 100_000,
}


@pytest.fixture(autouse=True)
def no_marker():
    MARKER.unlink(missing_ok=True)
    yield
    assert not MARKER.exists(), "a hostile encoding ran code"


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_genplan_rejects_the_encoding_before_clingo_sees_it(text: str) -> None:
    assert policy_violations(text)
    result = Clingo().plan(text, "", max_horizon=1, time_limit=10)
    assert result.status is ClingoStatus.REJECTED
    assert result.seconds == 0.0  # no child was started
    assert result.messages[0].startswith("encoding:")


@pytest.mark.parametrize(
    "name", ["python script", "lua script", "include a system file", "external function"]
)
def test_a_hostile_query_or_candidate_text_is_rejected_too(name: str) -> None:
    text = HOSTILE[name]
    assert Clingo().query("a.\n", "", text, horizon=1, time_limit=10).status is ClingoStatus.REJECTED
    assert Clingo().satisfiability("a.\n", "", candidates=text, time_limit=10).status is ClingoStatus.REJECTED


@pytest.mark.parametrize(
    "name", ["python script", "lua script", "include a system file", "external function on main"]
)
def test_the_child_rejects_the_encoding_when_genplan_s_check_is_bypassed(name: str) -> None:
    response = run_isolated({"mode": "plan", "encoding": HOSTILE[name], "facts": "", "time_limit": 10})
    assert response["status"] == "rejected"
    assert "passwd" not in " ".join(response["messages"])


@pytest.mark.parametrize(
    "text",
    ["#script (lua)\nx = 1\n#end.\n", "p(@f(1)).\n", "q :- X = @g, p(X).\n"],
    ids=["script", "term", "body"],
)
def test_the_parsed_program_is_refused_with_a_script_or_an_external_function(text: str) -> None:
    relocate = clingo_run._Relocate("encoding")
    with pytest.raises(clingo_run.Rejected):
        clingo.ast.parse_string(text, relocate)


def test_grounding_calls_no_host_function_even_when_a_term_reaches_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Both text layers stop every "@"; this is the third: the context of grounding. Without
    # it clingo would call the function of that name in __main__.
    called: list[int] = []
    monkeypatch.setattr(
        sys.modules["__main__"], "genplan_probe", lambda x: called.append(1) or x, raising=False
    )
    program = clingo_run._Program([])
    program.add_trusted("base", [], "p(@genplan_probe(1)).\n")
    with pytest.raises(AttributeError):
        program.ground([("base", [])])
    assert called == []


def test_a_rejection_names_the_construct_and_its_line() -> None:
    (violation,) = policy_violations('a.\nb.\n#include "x.lp".\n')
    assert violation.describe("encoding") == "encoding:3: #include is not allowed (#include reads files)"


def test_an_ordinary_encoding_passes_the_policy() -> None:
    assert (
        policy_violations('% a comment with 50% and a string\np("x"). q(X) :- p(X).\n#program step(t).\n')
        == []
    )


ENDLESS_ANSWER = "import sys\nwhile True:\n    sys.stdout.buffer.write(b'x' * 65536)\n"
"""A child that answers without end (a runaway answer, as a hostile encoding's could be)."""


def test_an_oversized_answer_is_refused_while_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolation, "child_command", lambda *limits: [sys.executable, "-c", ENDLESS_ANSWER])
    tracemalloc.start()
    try:
        started = time.monotonic()
        response = run_isolated(
            {"mode": "plan", "encoding": "a.\n", "facts": "", "time_limit": 20}, max_answer_bytes=1024**2
        )
        seconds = time.monotonic() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert response["status"] == "error"
    assert "larger than 1,048,576 bytes" in response["messages"][0]
    assert seconds < 10  # stopped at the limit, not at the time limit
    assert peak < 8 * 1024**2  # never more than the limit (and a chunk) held


def test_a_real_answer_under_the_limit_is_read_whole() -> None:
    response = run_isolated(
        {"mode": "plan", "encoding": "a.\n", "facts": "", "time_limit": 10}, max_answer_bytes=1024**2
    )
    assert response["status"] != "error", response


@pytest.mark.parametrize("letter", ["\u0131", "\u017f"], ids=["dotless i", "long s"])
@pytest.mark.parametrize("where", ["#{}nclude", "#{}cript", "#pytho{}"])
def test_a_letter_that_case_folds_to_ascii_in_a_comment_is_no_crash(letter: str, where: str) -> None:
    # re.IGNORECASE matched "#ſcript" (U+017F folds to s) and then found no reason for the word
    text = f"% do not use {where.format(letter)} here\na.\n"
    assert policy_violations(text) == []
    result = Clingo().plan(text, "", max_horizon=1, time_limit=10)
    assert result.status is not ClingoStatus.REJECTED or "not allowed" not in result.messages[0]
    assert any("U+" in message or "ASCII" in message for message in result.messages), result.messages
