"""A small PDDL domain, correct and broken encodings of it, and scripted answers for the ASP tests."""

from __future__ import annotations

from pathlib import Path

from oracles.asp_encodings import FOLDER

from genplan.approaches.asp.settings import AspSettings

DOMAIN = """\
(define (domain lamps)
  (:requirements :strips :typing)
  (:types lamp)
  (:predicates (plugged ?l - lamp) (on ?l - lamp) (off ?l - lamp))
  (:action plug-in :parameters (?l - lamp) :precondition (and (off ?l)) :effect (plugged ?l))
  (:action turn-on :parameters (?l - lamp) :precondition (and (plugged ?l) (off ?l))
    :effect (and (on ?l) (not (off ?l))))
  (:action turn-off :parameters (?l - lamp) :precondition (and (on ?l))
    :effect (and (off ?l) (not (on ?l)))))
"""

PROBLEMS = {
    "p1.pddl": "(define (problem p1) (:domain lamps) (:objects l1 l2 - lamp)"
    " (:init (off l1) (off l2)) (:goal (and (on l1))))",
    "p2.pddl": "(define (problem p2) (:domain lamps) (:objects l1 l2 l3 - lamp)"
    " (:init (off l1) (off l2) (off l3)) (:goal (and (on l1) (on l3))))",
    "p3.pddl": "(define (problem p3) (:domain lamps) (:objects l1 l2 - lamp)"
    " (:init (on l1) (off l2) (plugged l2)) (:goal (and (off l1) (on l2))))",
}

TURN_ON_NEEDS_PLUG = ":- occurs(turn_on(L),t), not holds(plugged(L),t-1).\n"
TURN_OFF_NEEDS_ON = ":- occurs(turn_off(L),t), not holds(on(L),t-1).\n"
ENCODING = (
    "#program step(t).\n"
    "{ occurs(plug_in(L),t) : type(L,lamp) ; occurs(turn_on(L),t) : type(L,lamp) ;\n"
    "  occurs(turn_off(L),t) : type(L,lamp) }.\n"
    ":- occurs(plug_in(L),t), not holds(off(L),t-1).\n"
    "holds(plugged(L),t) :- occurs(plug_in(L),t).\n"
    + TURN_ON_NEEDS_PLUG
    + ":- occurs(turn_on(L),t), not holds(off(L),t-1).\n"
    "holds(on(L),t) :- occurs(turn_on(L),t).\n"
    "deleted(off(L),t) :- occurs(turn_on(L),t).\n"
    + TURN_OFF_NEEDS_ON
    + "holds(off(L),t) :- occurs(turn_off(L),t).\n"
    "deleted(on(L),t) :- occurs(turn_off(L),t).\n"
)
"""A correct encoding of the lamps domain."""

SIGNATURE = "```\nActions:\n- plug_in(L): plug lamp L in\nFluents:\n- on(L): lamp L is on\n```\n"
KNOWLEDGE = "```\n% Turning a lamp on needs it plugged in.\n```\n"
NO_QUERIES = "```\n% Query 1: the initial state alone (satisfiable)\n% horizon: 0\ninit(off(l1)).\n```\n"
UNCHANGED_PDDL = "```\n% PROGRAM CHANGED? [UNCHANGED]\n% SAMPLE QUERIES CHANGED? [UNCHANGED]\n```\n"
UNCHANGED_TEXT = "```\n% PROGRAM CHANGED? [UNCHANGED]\n% MAIN QUERY CHANGED? [UNCHANGED]\n% SAMPLE QUERIES CHANGED? [UNCHANGED]\n```\n"

MCP_ENCODING = (FOLDER / "mcp.lp").read_text()
MCP_QUERY = (FOLDER / "mcp.query.lp").read_text()
MCP_SAFETY = ":- holds(num(L,missionaries,M),t), holds(num(L,cannibals,C),t), M > 0, C > M.\n"
FAST = AspSettings(check_timeout=20.0, successor_states=12, walk_length=4)
"""Settings for tests: the paper's budgets, shorter clingo runs and fewer successor states."""


def rules(encoding: str, main_query: str | None = None) -> str:
    """A rules answer (B.3) as a model would write it."""
    text = f"Here is the program.\n```\n% ENCODING\n{encoding}"
    if main_query is not None:
        text += f"% MAIN QUERY\n{main_query}"
    return text + "```\n"


def revision(
    encoding: str | None, queries: str | None = None, main_query: str | None = None, *, text: bool = False
) -> str:
    """A feedback answer (B.6): a segment given as None is marked [UNCHANGED]."""
    parts = ["```"]
    parts.append(
        "% PROGRAM CHANGED? [CHANGED]\n" + encoding
        if encoding is not None
        else "% PROGRAM CHANGED? [UNCHANGED]"
    )
    if text:
        parts.append(
            "% MAIN QUERY CHANGED? [CHANGED]\n" + main_query
            if main_query is not None
            else "% MAIN QUERY CHANGED? [UNCHANGED]"
        )
    parts.append(
        "% SAMPLE QUERIES CHANGED? [CHANGED]\n" + queries
        if queries is not None
        else "% SAMPLE QUERIES CHANGED? [UNCHANGED]"
    )
    return "\n".join(parts) + "\n```\n"


def lamps_folder(root: Path) -> Path:
    """The lamps domain with its three problems in ``root/lamps``."""
    folder = root / "lamps"
    folder.mkdir()
    (folder / "domain.pddl").write_text(DOMAIN)
    for name, text in PROBLEMS.items():
        (folder / name).write_text(text)
    return folder
