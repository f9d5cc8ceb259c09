"""The prompts of the ASP approach, after LLM+AL's (Ishay and Lee, AAAI 2025, Appendix B).

Each stage is one self-contained prompt (a single user message, as in LLM+AL's code), so a
model that sees only that prompt can answer it: signature generation (B.1), knowledge
generation (B.2, without the formal description), rule and query generation (B.3), the
satisfiability-check revision (B.4), sample query generation (B.5) and the sample and main
query feedback (B.6). Where LLM+AL describes BC+ and Cplus2ASP, these describe genplan's ASP
interface (:mod:`genplan.approaches.asp.interface`) and clingo; every prompt ends with the exact
answer format :mod:`genplan.approaches.asp.program` reads.
"""

from __future__ import annotations

from genplan.approaches.asp.interface import AspNames
from genplan.approaches.asp.program import Program
from genplan.approaches.asp.task import AspTask

INTERFACE = """\
[GENPLAN'S ASP INTERFACE]
Write the dynamics of the domain as an answer-set program for clingo 5, in the three parts of
clingo's incremental mode:
  #program base.      % knowledge that does not depend on time (text before any #program is base too)
  #program step(t).   % the transition from state t-1 to state t, for t = 1, 2, ...
  #program check(t).  % rules about every state t = 0, 1, 2, ... (state constraints); optional
A fluent is a term F; holds(F,T) means F is true in state T. An action is a term A;
occurs(A,t) means A happens in the transition into state t.
genplan adds, and you must not write:
  holds(F,0) :- init(F).                          % the initial state
  holds(F,t) :- holds(F,t-1), not deleted(F,t).   % inertia
  at most one action per step (a step without one is idle and not part of the plan); with the
  fact "parallel." in base, several actions may share a step (they must then be executable in
  any order);
  the goal test (every goal(F) holds in the last state), the horizon (0, 1, 2, ... steps, so the
  first plan found has the fewest steps) and, when planning, that no state repeats.
In step(t) you write: a choice rule that generates occurs(A,t) for the possible actions;
preconditions as constraints on state t-1, e.g. ":- occurs(move(X,Y),t), not holds(at(X),t-1).";
effects as "holds(F,t) :- occurs(A,t), ..." (F becomes true) and "deleted(F,t) :- occurs(A,t), ..."
(F becomes false; an atom both deleted and made true stays true).
Rules: use t and t-1 only inside step(t) and check(t); never derive holds/2 for a time other
than t; put only inertial fluents in holds/2 (derive other state properties with your own
predicates, with t as an argument); every variable must occur in a positive body atom.
Reserved: object/1, type/2, init/1, goal/1, holds/2, occurs/2, deleted/2, parallel/0, and any
name starting with genplan_. Never write #script, #include, #python, #lua or the character @
(not even in comments): genplan rejects such a text unread.
Example (not your domain): a robot moves along corridors.
  #program step(t).
  { occurs(move(X,Y),t) : init(corridor(X,Y)) }.
  :- occurs(move(X,Y),t), not holds(at(X),t-1).
  holds(at(Y),t) :- occurs(move(X,Y),t).
  deleted(at(X),t) :- occurs(move(X,Y),t).
  #program check(t).
  :- holds(at(X),t), holds(at(Y),t), X != Y.
"""

QUERIES = """\
[SAMPLE QUERIES]
genplan runs each sample query with your encoding for a fixed number of steps (its horizon),
without the goal test, and reports whether it has an answer set and, if so, its states and
actions. A query is text added to base: init(F) facts give its initial state{objects}, and
constraints over occurs(A,T) and holds(F,T), T between 0 and the horizon, say what should
happen, e.g.
  :- not occurs(move(a,b),1).   % move(a,b) happens at step 1
  :- not holds(at(b),1).        % and the robot is at b after it
A query marked (satisfiable) should have an answer set; one marked (unsatisfiable) should not
(for example, one that tries an action that must be impossible).
"""

CHECKLIST = """\
[CHECKLIST]
1. Preconditions read state t-1; effects write state t.
2. A fluent an action makes false needs deleted(F,t); otherwise inertia keeps it.
3. Every variable of a rule occurs in a positive body atom (clingo reports unsafe variables).
4. Facts that no action changes can be read from init/1 (or your own base facts) anywhere.
5. A state constraint belongs in check(t), so that it holds in state 0 too.
6. Do not write inertia, the initial state or the goal test: genplan adds them.
"""

RULES_FORMAT_PDDL = "```\n% ENCODING\n<the encoding>\n```"
RULES_FORMAT_TEXT = "```\n% ENCODING\n<the encoding>\n% MAIN QUERY\n<init and goal facts>\n```"
QUERY_FORMAT = (
    "```\n% Query 1: <what it checks, in English> (satisfiable)\n% horizon: <steps>\n"
    "<init facts and constraints>\n% Query 2: <what it checks> (unsatisfiable)\n% horizon: <steps>\n...\n```"
)


def _operator_forms(task: AspTask) -> str:
    """``pick(Obj,Room,Gripper)  for (pick ?obj ?room ?gripper)``, one line per operator."""
    assert task.problems is not None and task.names is not None
    lines = []
    for name, operator in task.problems.domain.operators.items():
        variables = [_variable(v) for v, _ in operator.parameters]
        term = task.names.asp(name) + (f"({','.join(variables)})" if variables else "")
        lines.append(f"  {term:<30} for {operator.signature}")
    return "\n".join(lines)


def _predicate_forms(task: AspTask) -> str:
    assert task.problems is not None and task.names is not None
    lines = []
    for name, types in task.problems.domain.predicates.items():
        arguments = [f"X{i}" for i in range(1, len(types) + 1)]
        term = task.names.asp(name) + (f"({','.join(arguments)})" if arguments else "")
        pddl = "(" + " ".join([name, *(f"?x{i}" for i in range(1, len(types) + 1))]) + ")"
        lines.append(f"  {term:<30} for {pddl}")
    return "\n".join(lines)


def _variable(pddl_variable: str) -> str:
    text = "".join(part.capitalize() for part in pddl_variable.lstrip("?").replace("-", "_").split("_"))
    return text if text and text[0].isalpha() else "X" + text


def _renamed(names: AspNames) -> str:
    pairs = names.renamed()
    if not pairs:
        return "PDDL names are ASP constants as they are."
    shown = ", ".join(f"{p} -> {a}" for p, a in pairs[:40])
    more = f" (and {len(pairs) - 40} more, the same way)" if len(pairs) > 40 else ""
    return f'PDDL names become ASP constants in lower case with "-" as "_": {shown}{more}.'


def _packed(facts: str, width: int = 100) -> str:
    """Facts several to a line (up to ``width`` characters), to keep prompts short."""
    lines: list[str] = []
    for fact in facts.split():
        if lines and len(lines[-1]) + 1 + len(fact) <= width:
            lines[-1] += " " + fact
        else:
            lines.append(fact)
    return "\n".join(lines)


def task_text(task: AspTask) -> str:
    """The task as every prompt shows it: the English description, or the PDDL domain with its
    ASP forms and the example problem as PDDL and as genplan's facts."""
    if task.described is not None:
        return f"[TASK]\n{task.described.description.strip()}\n"
    assert task.problems is not None and task.names is not None
    example = task.example
    return (
        "[TASK]\nWrite an encoding of this PDDL domain that plans for every problem of it.\n"
        f"The domain:\n{task.problems.domain.to_pddl().strip()}\n\n"
        "genplan gives each problem to your encoding as facts in base: object(O) for each object, "
        "type(O,T) for each type of O (typed domains; supertypes included), init(F) for each atom of "
        "the initial state, goal(F) for each goal atom. "
        f"{_renamed(task.names)}\n"
        "Write each action as the operator applied to its parameters in PDDL order (genplan reads the "
        "plan back from occurs(A,T) as PDDL actions and checks it with VAL):\n"
        f"{_operator_forms(task)}\n"
        "and each fluent as the predicate applied to its arguments:\n"
        f"{_predicate_forms(task)}\n"
        f"The smallest training problem, {example.name}, in PDDL:\n{example.to_pddl().strip()}\n"
        f"and as genplan's facts:\n{_packed(task.example_facts())}\n"
    )


def _main_query_note(task: AspTask) -> str:
    if task.is_pddl:
        return ""
    return (
        "Main query: for this task you also write the problem itself as facts in base: init(F) for "
        "every fluent true at the start and goal(F) for every fluent that must hold at the end. genplan "
        "plans with the encoding and the main query for 0, 1, 2, ... steps and reports the first plan "
        "found (it has the fewest steps) or that there is none.\n"
    )


def _queries(task: AspTask) -> str:
    objects = (
        f" (genplan also adds the object/1 and type/2 facts of {task.example.name}, but no init or goal)"
        if task.is_pddl
        else ""
    )
    return QUERIES.format(objects=objects)


def program_text(program: Program, task: AspTask) -> str:
    """The current program as prompts show it."""
    text = f"[ENCODING]\n```\n{program.encoding.strip()}\n```\n"
    if not task.is_pddl:
        text += f"[MAIN QUERY]\n```\n{program.main_query.strip()}\n```\n"
    return text


def signature_prompt(task: AspTask) -> str:
    """B.1: readings of the actions and fluents (the signature)."""
    fixed = (
        "The actions and fluents are fixed by the domain (their ASP forms are given above); add helper "
        "predicates only where they help. "
        if task.is_pddl
        else ""
    )
    return (
        "You will write a declarative model of a planning task as an answer-set program for clingo, in "
        "several steps. In this first step, choose the names only.\n\n"
        f"{INTERFACE}\n{task_text(task)}\n"
        "[INSTRUCTIONS]\nList the actions and fluents your encoding will use and any static predicates "
        "(facts no action changes), each with its arguments and its reading in English. "
        f"{fixed}Do not use one name for two different things.\n"
        "Answer with one fenced code block in exactly this format:\n"
        "```\nActions:\n- <term, e.g. move(X,Y)>: <reading>\nFluents:\n- <term>: <reading>\n"
        "Static predicates:\n- <term>: <reading>\n```\n"
    )


def knowledge_prompt(task: AspTask, signature: str) -> str:
    """B.2: knowledge statements in English (no formal language in this prompt, as in LLM+AL)."""
    return (
        "Given a description of a problem, write knowledge about the domain that an action model of it "
        "must represent: logical constraints and cause and effect. For example, a task about moving "
        "objects involves what is required to move an object and what moving does (its location "
        "changes, its previous location is now empty). Include the commonsense knowledge the "
        "description leaves implicit.\n\n"
        f"{task_text(task)}\n[NAMES]\n{signature.strip()}\n\n"
        "[INSTRUCTIONS]\nWrite the knowledge in English only, one statement per line starting with "
        '"% ", using the terms of the description and the names above but no program code.\n'
        "Answer with one fenced code block in exactly this format:\n```\n% <knowledge 1>\n% <knowledge 2>\n...\n```\n"
    )


def rules_prompt(task: AspTask, signature: str, knowledge: str) -> str:
    """B.3: the encoding (and, for a task in English, the main query)."""
    what = "the encoding" if task.is_pddl else "the encoding and the main query"
    form = RULES_FORMAT_PDDL if task.is_pddl else RULES_FORMAT_TEXT
    return (
        f"{INTERFACE}{_main_query_note(task)}\n{task_text(task)}\n[NAMES]\n{signature.strip()}\n\n"
        f"[KNOWLEDGE]\n{knowledge.strip()}\n\n"
        f"[INSTRUCTIONS]\nWrite {what} in genplan's interface. Represent each knowledge statement, with "
        'a numbered comment before its rules ("% 1. <statement>").\n'
        f"Answer with one fenced code block in exactly this format:\n{form}\n"
    )


def satisfiability_prompt(task: AspTask, program: Program, feedback: str) -> str:
    """B.4: revise the program after a failed satisfiability check."""
    form = RULES_FORMAT_PDDL if task.is_pddl else RULES_FORMAT_TEXT
    scope = "the encoding" if task.is_pddl else "the encoding, and the main query if needed"
    return (
        f"{INTERFACE}{_main_query_note(task)}\n{CHECKLIST}\n{task_text(task)}\n{program_text(program, task)}\n"
        f"[FEEDBACK]\n{feedback.strip()}\n\n"
        f"[INSTRUCTIONS]\nBased on the feedback, revise {scope}. Give the whole program again.\n"
        f"Answer with one fenced code block in exactly this format:\n{form}\n"
    )


def sample_queries_prompt(task: AspTask, program: Program, limit: int) -> str:
    """B.5: a few sample queries, each marked (satisfiable) or (unsatisfiable)."""
    return (
        f"{INTERFACE}{_main_query_note(task)}\n{_queries(task)}\n{task_text(task)}\n{program_text(program, task)}\n"
        "[INSTRUCTIONS]\nWrite a few simple sample queries (no more than "
        f"{limit}) that check that the encoding works as intended: actions have the expected effects, "
        "preconditions are respected, forbidden situations are rejected. Append (satisfiable) or "
        "(unsatisfiable) to each, by whether it should have an answer set. The initial state of each "
        "query must itself be allowed by the rules (if a query is unsatisfiable, it should not be because "
        "its initial state is).\n"
        f"Answer with one fenced code block in exactly this format:\n{QUERY_FORMAT}\n"
    )


def feedback_prompt(task: AspTask, program: Program, outputs: str, note: str = "") -> str:
    """B.6: the outputs of every check; the model marks each segment [CHANGED] or [UNCHANGED]."""
    segments = "- PROGRAM\n" + ("" if task.is_pddl else "- MAIN QUERY\n") + "- SAMPLE QUERIES\n"
    main = (
        ""
        if task.is_pddl
        else "% MAIN QUERY CHANGED? [CHANGED/UNCHANGED]\n<the main query: init and goal facts>\n"
    )
    checks = (
        "4) [PDDL CHECKS] A plan VAL rejects, or a counterexample of the successor check, shows that the "
        "encoding differs from the PDDL domain: fix the encoding.\n"
        if task.is_pddl
        else ""
    )
    plan_check = (
        "3) [MAIN QUERY OUTPUT] Check that each action of the plan makes sense in the state before it and "
        "that the next state follows. The main query should keep the meaning of the task's query: only "
        "the initial state (init) and the goal (goal).\n"
        if not task.is_pddl
        else "3) [PLANS] Check that each action of the plans shown makes sense in the state before it.\n"
    )
    extra = f"\n[NOTE]\n{note.strip()}\n" if note else ""
    return (
        f"{INTERFACE}{_main_query_note(task)}\n{_queries(task)}\n{CHECKLIST}\n{task_text(task)}\n"
        f"{program_text(program, task)}[SAMPLE QUERIES]\n```\n{program.render_queries().strip()}\n```\n\n"
        f"[OUTPUTS]\nThe outputs of genplan's checks of this program:\n\n{outputs.strip()}\n{extra}\n"
        "[INSTRUCTIONS]\n1) [FEEDBACK OUTLINE] Based on the outputs, if any of these segments is incorrect, "
        f"mark it [CHANGED] and revise it:\n{segments}"
        "Otherwise mark it [UNCHANGED] (you may then leave its text out). If everything is correct, mark "
        "every segment [UNCHANGED]: that ends the revision.\n"
        "2) [SAMPLE QUERY GUIDANCE] A query marked (satisfiable) should be satisfiable and one marked "
        "(unsatisfiable) unsatisfiable; the query itself may be wrong (then rewrite it), but if the "
        "outputs show a violated constraint or a wrong precondition or effect, revise the program. Keep "
        "changes succinct: change the relevant parts only.\n"
        f"{plan_check}{checks}"
        "Answer with one fenced code block in exactly this format:\n"
        "```\n% PROGRAM CHANGED? [CHANGED/UNCHANGED]\n<the whole encoding>\n"
        f"{main}% SAMPLE QUERIES CHANGED? [CHANGED/UNCHANGED]\n<the sample queries in their format, "
        "without outputs>\n```\n"
    )
