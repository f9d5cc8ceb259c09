"""Reading the LLM-as-planner methods' answers: labelled fields, action lists, ratings, options.

Answers are free text in the formats the papers ask for (``Think: ...`` / ``Action Sequence: a,
b, c`` in Gonzalez-Pumariaga et al., App. A.4; ``"Action 3": "..."`` and ``"Conclusion": "Option 2"`` in SymPlanner,
App. A). A model may bold a label, quote it, put the actions on the next lines, number them or
write them as ``stack(a, b)``; these readers take all of that and return ``None`` (or an empty
list) when the field is missing, so the caller can send feedback instead of failing.
"""

from __future__ import annotations

import re
from collections.abc import Collection

_PDDL_ACTION = re.compile(r"\(\s*[A-Za-z][\w-]*(?:\s+[\w:-]+)*\s*\)")
_CALL_ACTION = re.compile(r"[A-Za-z][\w-]*\([^()]*\)")


def _label_pattern(label: str) -> re.Pattern[str]:
    words = r"\s+".join(re.escape(word) for word in label.split())
    return re.compile(rf"^[ \t>*#_-]*[\"*]*{words}[\"*]*\s*[:=][ \t]*(.*)$", re.IGNORECASE | re.MULTILINE)


def labelled(text: str, label: str, *, following: tuple[str, ...] = ()) -> str | None:
    """The text after the last line starting with ``label:`` (bold or quoted labels too), up to
    the next line starting with one of ``following`` labels, or the end; ``None`` if absent."""
    matches = list(_label_pattern(label).finditer(text))
    if not matches:
        return None
    rest = text[matches[-1].start(1) :]
    end = len(rest)
    for other in following:
        found = _label_pattern(other).search(rest)
        if found is not None:
            end = min(end, found.start())
    return rest[:end].strip()


def find_actions(text: str, operators: Collection[str] = ()) -> list[str]:
    """Every action written in ``text``, in order: PDDL form ``(stack a b)`` or call form
    ``stack(a, b)``; with neither, comma- or line-separated items that start with one of
    ``operators`` (``stack a b, put-down c``)."""
    found: list[tuple[int, str]] = []
    for pattern in (_CALL_ACTION, _PDDL_ACTION):
        for match in pattern.finditer(text):
            if not any(match.start() < start + len(seen) and start < match.end() for start, seen in found):
                found.append((match.start(), match.group(0)))
    if found:
        return [action for _, action in sorted(found)]
    items = re.split(r"[,\n;]+", text)
    cleaned = [re.sub(r"^\s*(\d+[.)]|[-*])\s*", "", item).strip().strip("`\"'") for item in items]
    known = {operator.lower() for operator in operators}
    return [
        item
        for item in cleaned
        if re.fullmatch(r"[A-Za-z][\w-]*(\s+[\w-]+)*", item) and item.split()[0].lower() in known
    ]


def actions_after(text: str, label: str, operators: Collection[str] = ()) -> list[str] | None:
    """The actions of field ``label`` (``Action Sequence``, ``Actions``, ``Action``), or ``None``
    when the answer has no such field; a fenced block after the label is read too."""
    field = labelled(text, label)
    if field is None:
        return None
    return find_actions(field.replace("```", "\n"), operators)


def rating(text: str, choices: tuple[str, ...]) -> str | None:
    """The ``Rating:`` field's choice among ``choices`` (first one named), or ``None``."""
    field = labelled(text, "Rating")
    if field is None:
        return None
    first_line = field.splitlines()[0].lower() if field else ""
    for word in re.findall(r"[a-z]+", first_line):
        if word in choices:
            return word
    return None


def number_after(text: str, label: str) -> int | None:
    """The first integer of field ``label`` (``"Rating": 7``), or ``None``."""
    field = labelled(text, label)
    found = re.search(r"\d+", field or "")
    return int(found.group(0)) if found else None


def option_choice(text: str, count: int) -> int | None:
    """The 1-based option a ``"Conclusion": "Option k"`` answer chose among ``count``, or ``None``."""
    field = labelled(text, "Conclusion")
    if field is None:
        return None
    found = re.search(r"option\s*(\d+)", field, re.IGNORECASE)
    if found is None:
        return None
    choice = int(found.group(1))
    return choice if 1 <= choice <= count else None


def step_action(text: str, number: int, operators: Collection[str] = ()) -> str | None:
    """SymPlanner's next action: the value of ``"Action <number>"`` if present, else of the first
    ``"Action k"`` line, else the first action written anywhere; ``None`` if there is none."""
    for label in (f"Action {number}", "Action"):
        pattern = re.compile(rf"^[ \t>*-]*\"?{label}(?:\s+\d+)?\"?\s*:\s*(.+)$", re.IGNORECASE | re.MULTILINE)
        match = pattern.search(text)
        if match:
            actions = find_actions(match.group(1), operators)
            if actions:
                return actions[0]
    actions = find_actions(text, operators)
    return actions[0] if actions else None


def fenced_plan(text: str, operators: Collection[str] = ()) -> list[str] | None:
    """The actions of the last fenced block of ``text`` that holds any, or ``None``."""
    blocks = re.findall(r"```[\w-]*\n(.*?)(?:```|$)", text, re.DOTALL)
    for block in reversed(blocks):
        actions = find_actions(block, operators)
        if actions:
            return actions
    return None
