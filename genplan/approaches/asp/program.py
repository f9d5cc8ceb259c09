"""What the model maintains (encoding, main query, sample queries) and reading it from answers.

Answers are parsed leniently: the fenced blocks of an answer are joined (any language tag), or
the whole answer is taken when it has none; a missing or malformed part is reported back as
feedback (kind ``malformed-answer``), never a crash.

The formats (stated in every prompt that asks for them, after LLM+AL, Appendix B):

* rules and query, and the satisfiability revision: ``% ENCODING`` then the encoding, and for a
  task in English ``% MAIN QUERY`` then its ``init``/``goal`` facts;
* sample queries (B.5): for each, ``% Query N: <what it checks> (satisfiable)`` (or
  ``(unsatisfiable)``), ``% horizon: H``, then its facts and constraints;
* the feedback revision (B.6): ``% PROGRAM CHANGED? [CHANGED]`` (or ``[UNCHANGED]``) then the
  encoding, ``% MAIN QUERY CHANGED? [...]`` then the main query (tasks in English),
  ``% SAMPLE QUERIES CHANGED? [...]`` then the sample queries; an unchanged segment keeps its
  previous text whatever follows its marker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from genplan.llm.extract import fenced_blocks

DEFAULT_QUERY_HORIZON = 1
MAX_QUERY_HORIZON = 30


@dataclass(frozen=True)
class SampleQuery:
    """One of the model's sample queries (LLM+AL Sec. 3.5, "Sample Query Generation").

    Attributes:
        number: its number as written (``% Query 2: ...``).
        label: what it checks, in English, as written.
        expected_satisfiable: the model's mark, ``(satisfiable)`` or ``(unsatisfiable)``.
        horizon: steps to ground (``% horizon: H``; :data:`DEFAULT_QUERY_HORIZON` when missing).
        text: its ASP facts and constraints.
        note: what genplan assumed while reading it (a missing horizon), or empty.
    """

    number: int
    label: str
    expected_satisfiable: bool
    horizon: int
    text: str
    note: str = ""

    def header(self) -> str:
        """The query as the model wrote it, minus its ASP text: two comment lines."""
        mark = "satisfiable" if self.expected_satisfiable else "unsatisfiable"
        return f"% Query {self.number}: {self.label} ({mark})\n% horizon: {self.horizon}"

    def render(self) -> str:
        """The query in the sample-query format."""
        return f"{self.header()}\n{self.text.strip()}\n"


@dataclass(frozen=True)
class Program:
    """The model's current program.

    Attributes:
        encoding: the encoding (see :mod:`genplan.approaches.asp.interface`).
        main_query: for a task in English, the ``init``/``goal`` facts the model wrote; empty
            for PDDL domains (genplan writes each problem's facts).
        sample_queries: the model's sample queries.
    """

    encoding: str
    main_query: str = ""
    sample_queries: tuple[SampleQuery, ...] = field(default=())

    def render_queries(self) -> str:
        """The sample queries in their format, one after another."""
        return "\n".join(query.render() for query in self.sample_queries)


def answer_text(answer: str) -> str:
    """The code of an answer: its fenced blocks joined, or the whole answer when it has none."""
    blocks = fenced_blocks(answer)
    if not blocks:
        return answer
    filled = [code.rstrip("\n") for _, code in blocks if code.strip()]
    return "\n".join(filled) + "\n" if filled else ""


_SECTION = re.compile(r"^[ \t]*%+[ \t]*(ENCODING|MAIN QUERY)[ \t]*:?[ \t]*$", re.IGNORECASE | re.MULTILINE)


def parse_rules(answer: str, *, with_main_query: bool) -> tuple[str, str, str | None]:
    """The encoding and main query of a rules answer (or a satisfiability revision).

    Returns:
        ``(encoding, main query, problem)``: ``problem`` says what was missing or ``None``.
        Without section markers, the whole code is the encoding (and the main query is empty).
    """
    text = answer_text(answer)
    marks = list(_SECTION.finditer(text))
    if not marks:
        if not text.strip():
            return "", "", "the answer holds no encoding"
        problem = "the answer has no '% MAIN QUERY' section" if with_main_query else None
        return text, "", problem
    parts: dict[str, str] = {}
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        parts.setdefault(mark.group(1).upper(), text[mark.end() : end].strip("\n") + "\n")
    encoding = parts.get("ENCODING", "")
    main_query = parts.get("MAIN QUERY", "")
    if not encoding.strip():
        return encoding, main_query, "the '% ENCODING' section is empty"
    if with_main_query and not main_query.strip():
        return encoding, main_query, "the '% MAIN QUERY' section is missing or empty"
    return encoding, main_query, None


_QUERY_HEAD = re.compile(
    r"^[ \t]*%+[ \t]*Query[ \t]*(\d+)[ \t]*[:.)-]?[ \t]*(.*)$", re.IGNORECASE | re.MULTILINE
)
_HORIZON = re.compile(r"^[ \t]*%+[ \t]*horizon[ \t]*[:=]?[ \t]*(\d+)", re.IGNORECASE | re.MULTILINE)
_MARK = re.compile(r"\((un)?satisfiable\)", re.IGNORECASE)


def parse_sample_queries(text: str, *, limit: int) -> tuple[list[SampleQuery], list[str]]:
    """Sample queries from ``text`` (an answer, or a segment of one), at most ``limit``.

    Returns:
        ``(queries, problems)``: ``problems`` lists what could not be read (a query without its
        ``(satisfiable)``/``(unsatisfiable)`` mark is skipped; one without a horizon gets
        :data:`DEFAULT_QUERY_HORIZON`; one beyond ``limit`` is dropped).
    """
    code = answer_text(text)
    heads = list(_QUERY_HEAD.finditer(code))
    queries: list[SampleQuery] = []
    problems: list[str] = []
    for index, head in enumerate(heads):
        body_end = heads[index + 1].start() if index + 1 < len(heads) else len(code)
        body = code[head.end() : body_end]
        number = int(head.group(1))
        title = head.group(2).strip()
        marks = list(_MARK.finditer(title))
        if not marks:
            problems.append(f"Query {number} has no (satisfiable) or (unsatisfiable) mark and was skipped")
            continue
        label = (title[: marks[-1].start()] + title[marks[-1].end() :]).strip()
        note = ""
        horizon_match = _HORIZON.search(body)
        if horizon_match:
            horizon = min(int(horizon_match.group(1)), MAX_QUERY_HORIZON)
            if int(horizon_match.group(1)) > MAX_QUERY_HORIZON:
                note = f"horizon capped at {MAX_QUERY_HORIZON}"
            body = body[: horizon_match.start()] + body[horizon_match.end() :]
        else:
            horizon = DEFAULT_QUERY_HORIZON
            note = f"no '% horizon:' line; genplan used {DEFAULT_QUERY_HORIZON}"
        queries.append(
            SampleQuery(number, label, marks[-1].group(1) is None, horizon, body.strip() + "\n", note)
        )
    if not heads:
        problems.append("no '% Query N: ... (satisfiable)' header was found")
    if len(queries) > limit:
        problems.append(f"only the first {limit} sample queries are run")
        queries = queries[:limit]
    return queries, problems


_SEGMENT = re.compile(
    r"^[ \t]*%+[ \t]*(PROGRAM|MAIN QUERY|SAMPLE QUERIES)[ \t]+CHANGED\??[ \t]*\[?[ \t]*(CHANGED|UNCHANGED)[ \t]*\]?.*$",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class Revision:
    """A feedback answer read (LLM+AL B.6).

    Attributes:
        program: the program after the answer (unchanged segments kept).
        changed: the segments the answer changed (``program``, ``main query``, ``sample queries``),
            judged by their marks and by their text (a segment marked changed whose text is
            the same is unchanged, as in LLM+AL's code).
        problems: what could not be read; non-empty means the answer was malformed.
    """

    program: Program
    changed: tuple[str, ...]
    problems: tuple[str, ...]


def parse_revision(answer: str, current: Program, *, with_main_query: bool, query_limit: int) -> Revision:
    """Read a feedback answer against the ``current`` program."""
    text = answer_text(answer)
    marks = list(_SEGMENT.finditer(text))
    if not marks:
        return Revision(current, (), ("no '% PROGRAM CHANGED? [CHANGED/UNCHANGED]' marker was found",))
    segments: dict[str, tuple[bool, str]] = {}
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        name = mark.group(1).lower()
        segments.setdefault(
            name, (mark.group(2).upper() == "CHANGED", text[mark.end() : end].strip("\n") + "\n")
        )
    problems: list[str] = []
    program = current
    changed: list[str] = []
    flag, body = segments.get("program", (False, ""))
    if flag and body.strip() and body.strip() != current.encoding.strip():
        program = replace(program, encoding=body)
        changed.append("program")
    elif flag and not body.strip():
        problems.append("the program is marked [CHANGED] but its text is empty; the previous one was kept")
    if with_main_query:
        flag, body = segments.get("main query", (False, ""))
        if flag and body.strip() and body.strip() != current.main_query.strip():
            program = replace(program, main_query=body)
            changed.append("main query")
    flag, body = segments.get("sample queries", (False, ""))
    if flag and body.strip():
        queries, query_problems = parse_sample_queries(body, limit=query_limit)
        problems.extend(query_problems)
        if queries and tuple(queries) != current.sample_queries:
            program = replace(program, sample_queries=tuple(queries))
            changed.append("sample queries")
    return Revision(program, tuple(changed), tuple(problems))
