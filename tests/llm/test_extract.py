"""Code extraction from model answers: a table of answer shapes and the code expected."""

from __future__ import annotations

import pytest

from genplan.llm.extract import extract_code, fenced_blocks

GET_PLAN = "def get_plan(objects, init, goal):\n    return []"

CASES = [
    ("one python block", f"Here it is:\n```python\n{GET_PLAN}\n```\nDone.", GET_PLAN + "\n"),
    ("untagged block", f"```\n{GET_PLAN}\n```", GET_PLAN + "\n"),
    ("py tag", f"```py\n{GET_PLAN}\n```", GET_PLAN + "\n"),
    (
        "helper then main block",
        "First a helper:\n```python\ndef helper():\n    return 1\n```\nThen:\n```python\n"
        + GET_PLAN
        + "\n```",
        "def helper():\n    return 1\n\n" + GET_PLAN + "\n",
    ),
    ("pddl block skipped", f"```pddl\n(define (domain x))\n```\n```python\n{GET_PLAN}\n```", GET_PLAN + "\n"),
    ("unclosed final block", f"```python\n{GET_PLAN}\n", GET_PLAN + "\n"),
    ("no fences", f"Sure.\n\n{GET_PLAN}\n\nThis returns an empty plan.", GET_PLAN + "\n"),
    ("no fences with import", f"import math\n{GET_PLAN}", "import math\n" + GET_PLAN + "\n"),
    ("tilde fence", f"~~~python\n{GET_PLAN}\n~~~", GET_PLAN + "\n"),
    ("four backticks", f"````python\n{GET_PLAN}\n````", GET_PLAN + "\n"),
]


@pytest.mark.parametrize(("label", "answer", "expected"), CASES, ids=[c[0] for c in CASES])
def test_extract_code(label: str, answer: str, expected: str) -> None:
    assert extract_code(answer) == expected


@pytest.mark.parametrize(
    "answer",
    ["The strategy is to pack the heaviest item first.", "```text\nno code\n```", "", "```python\n\n```"],
)
def test_answers_without_code_give_none(answer: str) -> None:
    assert extract_code(answer) is None


def test_fenced_blocks_report_tags_in_order() -> None:
    text = "```python\na = 1\n```\n```bash\nls\n```\n```\nb = 2\n```"
    assert fenced_blocks(text) == [("python", "a = 1\n"), ("bash", "ls\n"), ("", "b = 2\n")]
