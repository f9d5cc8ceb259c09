"""The trusted function that grounds and solves a model-written encoding with clingo.

:func:`run_request` takes and returns JSON-able dicts, so it can run in an isolated child
process (see :mod:`genplan.approaches.asp.isolation`); it must never run in genplan's own
process, because grounding an untrusted program can take any amount of memory and time.

Before clingo builds anything, each untrusted text (the encoding, a query) is checked against
:mod:`genplan.approaches.asp.policy` again (in this process, whoever called), then parsed into
an AST and refused when it holds a script or an external function; grounding gets a context
object without functions, so an ``@name`` term can never reach host code (without one, clingo
would look in ``__main__``).

Requests (``mode``):

* ``plan`` — clingo's incremental mode: ground ``base`` and ``check(0)``, then ``step(t)`` and
  ``check(t)`` for ``t = 1, 2, ...`` until the goal holds at ``t`` (the first plan has the
  fewest steps), the ``horizon`` is passed, or ``time_limit`` runs out;
* ``query`` — a fixed ``horizon``, grounded at once (so the query's rules may speak of any
  step): is there an answer set?
* ``satisfiability`` — the encoding without a query: horizon 1, zero or one action, no goal,
  and an initial state the solver chooses among the ``candidates`` text's ``init``/``goal``
  atoms (closed-world ASP would otherwise only try the empty state, which a correct encoding
  may rightly reject; the action language of LLM+AL leaves the initial state free as well);
* ``successors`` — for each of ``states`` (``init`` facts), whether the encoding accepts the
  state (horizon 0) and every one-action transition it allows from it (horizon 1, all answer
  sets, at most ``max_models``), with the fluents after it.

With ``distinct`` set, no state may repeat along a plan (``FRAME_DISTINCT``).

Every response has ``status`` (``sat``, ``unsat``, ``timeout``, ``error``, ``rejected``),
``messages`` (clingo's errors and warnings, located as ``encoding:LINE:COL`` or
``query:LINE:COL``) and ``seconds``.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import clingo
import clingo.ast as clingo_ast

from genplan.approaches.asp.interface import FRAME_BASE, FRAME_CHECK, FRAME_DISTINCT, frame_step
from genplan.approaches.asp.policy import policy_violations

MAX_MESSAGES = 12
MAX_MESSAGE_CHARS = 1500


class _NoFunctions:
    """A grounding context without any function: every ``@name`` lookup fails."""

    def __getattribute__(self, name: str) -> Any:
        raise AttributeError(name)


class Rejected(Exception):
    """An untrusted text holds a construct clingo must not see (script, external function)."""


class _Relocate(clingo_ast.Transformer):
    """Names every location of a parsed text after the text (``encoding``, ``query``), so
    clingo's messages say ``encoding:3:1`` instead of ``<string>:3:1``; also refuses scripts
    and external functions."""

    def __init__(self, name: str):
        self.name = name

    def visit(self, ast: Any, *args: Any, **kwargs: Any) -> Any:
        if ast.ast_type == clingo_ast.ASTType.Script:
            raise Rejected(f"{self.name}: embedded scripts are not allowed")
        if ast.ast_type == clingo_ast.ASTType.Function and ast.external:
            raise Rejected(f"{self.name}: external functions (@...) are not allowed")
        ast = super().visit(ast, *args, **kwargs)
        if hasattr(ast, "location"):
            begin, end = ast.location.begin, ast.location.end
            ast = ast.update(
                location=clingo_ast.Location(
                    clingo_ast.Position(self.name, begin.line, begin.column),
                    clingo_ast.Position(self.name, end.line, end.column),
                )
            )
        return ast


_INC_MARK = re.compile(r"\[#inc_\w+(?:\([^)\]]*\))?\];?")


def _clean(message: str) -> str:
    """clingo's message without incremental-mode internals (``[#inc_base];``, ``#Inc0``)."""
    text = _INC_MARK.sub("", message).replace("#Inc0", "t").replace(":-;", ":-").rstrip()
    return text if len(text) <= MAX_MESSAGE_CHARS else text[:MAX_MESSAGE_CHARS] + " ..."


class _Program:
    """One clingo control with genplan's frame, trusted facts and untrusted texts."""

    def __init__(self, messages: list[str], arguments: Iterable[str] = ()):
        self.messages = messages
        self.parsing = "<string>"
        self.control = clingo.Control(list(arguments), logger=self._log, message_limit=MAX_MESSAGES)

    def _log(self, code: clingo.MessageCode, message: str) -> None:
        if len(self.messages) < MAX_MESSAGES:
            self.messages.append(_clean(message.replace("<string>:", f"{self.parsing}:")))

    def add_trusted(self, part: str, parameters: list[str], text: str) -> None:
        """Add genplan's own text to ``part``."""
        if text.strip():
            self.control.add(part, parameters, text)

    def add_untrusted(self, name: str, text: str) -> None:
        """Parse ``text`` (named ``name`` in messages), check it, and add it (its own ``#program``
        directives choose the parts; text before any is ``base``).

        Raises:
            Rejected: the policy's forbidden constructs (checked again here, in the child), a
                script or an external function in the parsed program.
            RuntimeError: a syntax error (the message is in :attr:`messages`).
        """
        self.add_statements(self.parse(name, text))

    def parse(self, name: str, text: str) -> list[Any]:
        """The checked statements of an untrusted ``text`` (see :meth:`add_untrusted`)."""
        violations = policy_violations(text)
        if violations:
            raise Rejected("; ".join(violation.describe(name) for violation in violations))
        statements: list[Any] = []
        relocate = _Relocate(name)
        self.parsing = name
        clingo_ast.parse_string(
            text, lambda statement: statements.append(relocate(statement)), logger=self._log
        )
        self.parsing = "<string>"
        return statements

    def add_statements(self, statements: list[Any]) -> None:
        """Add parsed statements."""
        with clingo_ast.ProgramBuilder(self.control) as builder:
            for statement in statements:
                builder.add(statement)

    def ground(self, parts: list[tuple[str, list[int]]]) -> None:
        """Ground ``parts`` (``("step", [3])``) with a function-free context.

        Raises:
            RuntimeError: grounding failed (the message is in :attr:`messages`).
        """
        self.control.ground(
            [(name, [clingo.Number(v) for v in values]) for name, values in parts], context=_NoFunctions()
        )


def build(
    request: dict[str, Any],
    messages: list[str],
    *,
    require_action: bool,
    arguments: Iterable[str] = (),
    extra_step: str = "",
    encoding: list[Any] | None = None,
) -> _Program:
    """A program with the frame, ``request["facts"]`` (trusted), and the untrusted encoding and
    query; clingo's messages go to ``messages``. ``encoding``: the encoding's statements when
    already parsed (see :meth:`_Program.parse`)."""
    program = _Program(messages, arguments)
    program.add_trusted("base", [], FRAME_BASE + request.get("facts", ""))
    program.add_trusted("step", ["t"], frame_step(require_action=require_action) + extra_step)
    program.add_trusted("check", ["t"], FRAME_CHECK + (FRAME_DISTINCT if request.get("distinct") else ""))
    if encoding is None:
        program.add_untrusted("encoding", request["encoding"])
    else:
        program.add_statements(encoding)
    if request.get("query"):
        program.add_untrusted("query", request["query"])
    return program


def flat(symbol: clingo.Symbol) -> list[str] | None:
    """A term of constants and numbers as ``[name, arg, ...]`` (``pick(b1,r,left)`` ->
    ``['pick', 'b1', 'r', 'left']``, ``box_empty`` -> ``['box_empty']``); ``None`` for anything
    else (nested terms, strings, tuples)."""
    if symbol.type != clingo.SymbolType.Function or not symbol.name or not symbol.positive:
        return None
    parts = [symbol.name]
    for argument in symbol.arguments:
        if argument.type == clingo.SymbolType.Number:
            parts.append(str(argument.number))
        elif (
            argument.type == clingo.SymbolType.Function
            and argument.name
            and argument.positive
            and not argument.arguments
        ):
            parts.append(argument.name)
        else:
            return None
    return parts


def _timeline(
    symbols: Iterable[clingo.Symbol],
) -> tuple[dict[int, list[str]], dict[int, list[clingo.Symbol]]]:
    """``holds`` atoms by step (as text, sorted) and ``occurs`` terms by step (sorted)."""
    states: dict[int, list[str]] = {}
    actions: dict[int, list[clingo.Symbol]] = {}
    for atom in symbols:
        if len(atom.arguments) != 2 or atom.arguments[1].type != clingo.SymbolType.Number:
            continue
        step = atom.arguments[1].number
        if atom.name == "holds":
            states.setdefault(step, []).append(str(atom.arguments[0]))
        elif atom.name == "occurs":
            actions.setdefault(step, []).append(atom.arguments[0])
    return {k: sorted(v) for k, v in states.items()}, {k: sorted(v) for k, v in actions.items()}


def _at_step(atom: clingo.Symbol, name: str, step: int) -> bool:
    """Whether ``atom`` is ``name(X,step)``."""
    return (
        atom.name == name
        and len(atom.arguments) == 2
        and atom.arguments[1].type == clingo.SymbolType.Number
        and atom.arguments[1].number == step
    )


def _atoms_at(program: _Program, name: str, step: int) -> list[tuple[int, list[Any]]]:
    """The ground atoms ``name(X,step)`` as ``(literal, [text of X, flat X])``, sorted by text."""
    found = [
        (atom.literal, [str(atom.symbol.arguments[0]), flat(atom.symbol.arguments[0])])
        for atom in program.control.symbolic_atoms.by_signature(name, 2)
        if _at_step(atom.symbol, name, step)
    ]
    return sorted(found, key=lambda pair: pair[1][0])


def _answer(symbols: Sequence[clingo.Symbol], horizon: int, *, trace: bool) -> dict[str, Any]:
    """The plan (``[step, term, flat]`` per action) and, when asked, the states of an answer set."""
    states, actions = _timeline(symbols)
    plan = [[step, str(term), flat(term)] for step in sorted(actions) for term in actions[step]]
    answer: dict[str, Any] = {"actions": plan}
    if trace:
        answer["trace"] = [
            {
                "step": step,
                "holds": states.get(step, []),
                "actions": [str(a) for a in actions.get(step + 1, [])],
            }
            for step in range(horizon + 1)
        ]
    return answer


def _solve(program: _Program, deadline: float, on_model: Callable[[clingo.Model], None]) -> str:
    """Solve until done or ``deadline`` (``time.monotonic()``): ``sat``, ``unsat`` or ``timeout``."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return "timeout"
    timer = threading.Timer(remaining, program.control.interrupt)
    timer.start()
    try:
        result = program.control.solve(on_model=on_model)
    finally:
        timer.cancel()
    if result.satisfiable:
        return "sat"
    return "unsat" if result.unsatisfiable else "timeout"


def _last_model(store: list[Sequence[clingo.Symbol]]) -> Callable[[clingo.Model], None]:
    def keep(model: clingo.Model) -> None:
        store[:] = [model.symbols(atoms=True)]

    return keep


def _plan(request: dict[str, Any], deadline: float, messages: list[str]) -> dict[str, Any]:
    program = build(request, messages, require_action=False)
    max_horizon = int(request.get("horizon", 130))
    growth = float(request.get("growth", 1.0))
    trace = bool(request.get("trace"))
    response: dict[str, Any] = {"messages": program.messages}
    program.ground([("base", []), ("check", [0])])
    step = 0
    while True:
        query = clingo.Function("genplan_query", [clingo.Number(step)])
        program.control.assign_external(query, True)
        store: list[Sequence[clingo.Symbol]] = []
        status = _solve(program, deadline, _last_model(store))
        response["horizon"] = step
        if status == "sat" and store:
            response.update(_answer(store[0], step, trace=trace))
            return {**response, "status": "sat"}
        if status == "timeout":
            return {**response, "status": "timeout"}
        program.control.release_external(query)
        if step >= max_horizon:
            return {**response, "status": "unsat"}
        if time.monotonic() >= deadline:
            return {**response, "status": "timeout"}
        target = min(max_horizon, max(step + 1, math.ceil(step * growth)))
        program.ground(
            [part for t in range(step + 1, target + 1) for part in (("step", [t]), ("check", [t]))]
        )
        step = target


def _query(request: dict[str, Any], deadline: float, messages: list[str]) -> dict[str, Any]:
    horizon = int(request.get("horizon", 1))
    program = build(request, messages, require_action=False)
    response: dict[str, Any] = {"messages": program.messages, "horizon": horizon}
    parts: list[tuple[str, list[int]]] = [("base", [])] + [("check", [t]) for t in range(horizon + 1)]
    parts += [("step", [t]) for t in range(1, horizon + 1)]
    program.ground(parts)
    store: list[Sequence[clingo.Symbol]] = []
    status = _solve(program, deadline, _last_model(store))
    if status == "sat" and store:
        response.update(_answer(store[0], horizon, trace=True))
    return {**response, "status": status}


def _candidates(request: dict[str, Any]) -> str:
    """``genplan_candidate(F).`` for every ``init``/``goal`` atom of ``request["candidates"]``
    (grounded alone; a text clingo cannot ground gives none)."""
    text = request.get("candidates") or ""
    if not text.strip():
        return ""
    scratch = _Program([])
    try:
        scratch.add_untrusted("candidates", text)
        scratch.ground([("base", [])])
    except (RuntimeError, Rejected):
        return ""
    terms = {
        str(atom.symbol.arguments[0])
        for signature in (("init", 1), ("goal", 1))
        for atom in scratch.control.symbolic_atoms.by_signature(*signature)
    }
    return "".join(f"genplan_candidate({term}).\n" for term in sorted(terms))


def _satisfiability(request: dict[str, Any], deadline: float, messages: list[str]) -> dict[str, Any]:
    program = build(request, messages, require_action=False)
    program.add_trusted(
        "base",
        [],
        "#defined genplan_candidate/1.\n{ init(F) : genplan_candidate(F) }.\n" + _candidates(request),
    )
    response: dict[str, Any] = {"messages": program.messages, "horizon": 1}
    program.ground([("base", []), ("check", [0]), ("step", [1]), ("check", [1])])
    store: list[Sequence[clingo.Symbol]] = []
    status = _solve(program, deadline, _last_model(store))
    if status == "sat" and store:
        response.update(_answer(store[0], 1, trace=True))
    return {**response, "status": status}


def _successors(request: dict[str, Any], deadline: float, messages: list[str]) -> dict[str, Any]:
    max_models = int(request.get("max_models", 1000))
    results: list[dict[str, Any]] = []
    encoding = _Program(messages).parse("encoding", request["encoding"])
    for state in request.get("states", []):
        if time.monotonic() >= deadline:
            return {"status": "timeout", "messages": messages, "states": results}
        del messages[:]  # each state's program reports afresh; the last one's messages are kept
        program = build(
            {**request, "facts": request.get("facts", "") + state},
            messages,
            require_action=True,
            arguments=["--project=project"],
            extra_step=":- #count{ A : occurs(A,t) } > 1.\n"
            "#project occurs(A,t) : occurs(A,t).\n#project holds(F,t) : holds(F,t).\n",
            encoding=encoding,
        )
        program.ground([("base", []), ("check", [0])])
        accepted = _solve(program, deadline, lambda model: None)
        if accepted != "sat":
            results.append({"accepted": accepted != "unsat", "status": accepted, "transitions": []})
            if accepted == "timeout":
                return {"status": "timeout", "messages": messages, "states": results}
            continue
        program.ground([("step", [1]), ("check", [1])])
        solving = program.control.configuration.solve
        assert isinstance(solving, clingo.Configuration)  # clingo types each option as a union
        solving.models = max_models
        transitions: list[dict[str, Any]] = []

        fluents = _atoms_at(program, "holds", 1)
        actions = _atoms_at(program, "occurs", 1)

        def collect(
            model: clingo.Model,
            into: list[dict[str, Any]] = transitions,
            actions: list[tuple[int, list[Any]]] = actions,
            fluents: list[tuple[int, list[Any]]] = fluents,
        ) -> None:
            into.append(
                {
                    "actions": [entry for literal, entry in actions if model.is_true(literal)],
                    "holds": [entry for literal, entry in fluents if model.is_true(literal)],
                }
            )

        status = _solve(program, deadline, collect)
        results.append(
            {
                "accepted": True,
                "status": status,
                "transitions": transitions,
                "truncated": len(transitions) >= max_models,
            }
        )
        if status == "timeout":
            return {"status": "timeout", "messages": messages, "states": results}
    return {"status": "sat", "messages": messages, "states": results}


MODES: dict[str, Callable[[dict[str, Any], float, list[str]], dict[str, Any]]] = {
    "plan": _plan,
    "query": _query,
    "satisfiability": _satisfiability,
    "successors": _successors,
}


def _first_non_ascii(request: dict[str, Any]) -> str | None:
    """A clingo-style syntax message for the first character that is not ASCII in the request's
    texts (the encoding, the facts, the query), or ``None``: comments included, since clingo's
    parser aborts its process on any of them, and the model must be told where."""
    import unicodedata

    for field in ("encoding", "facts", "query"):
        text = request.get(field)
        if type(text) is not str or text.isascii():
            continue
        for number, line in enumerate(text.split("\n"), start=1):
            for column, character in enumerate(line, start=1):
                if not character.isascii():
                    name = unicodedata.name(character, "")
                    shown = f"U+{ord(character):04X}" + (f" {name}" if name else "")
                    return (
                        f"{field}:{number}:{column}: error: syntax error, the character {shown} is not "
                        "ASCII (clingo reads ASCII only, comments included)"
                    )
    return None


def run_request(request: dict[str, Any]) -> dict[str, Any]:
    """Carry out one request (see the module docstring); never raises for a bad encoding.

    Args:
        request: ``mode``, ``encoding``, and as the mode needs ``facts``, ``query``,
            ``candidates``, ``states``, ``horizon``, ``time_limit`` (seconds), ``max_models``,
            ``trace``.

    Returns:
        The response dict; ``status`` is ``error`` with clingo's messages for a syntax or
        grounding error, ``rejected`` for a forbidden construct.
    """
    started = time.monotonic()
    deadline = started + float(request.get("time_limit", 30.0))
    mode = MODES.get(str(request.get("mode")))
    if mode is None:
        return {"status": "error", "messages": [f"unknown mode {request.get('mode')!r}"], "seconds": 0.0}
    messages: list[str] = []
    not_ascii = _first_non_ascii(request)
    if not_ascii is not None:  # clingo's parser aborts its process on any non-ASCII character
        return {"status": "error", "messages": [not_ascii], "seconds": 0.0}
    try:
        response = mode(request, deadline, messages)
    except Rejected as error:
        response = {"status": "rejected", "messages": [str(error)]}
    except MemoryError:
        response = {"status": "crashed", "messages": ["clingo ran out of memory while grounding or solving"]}
    except RuntimeError as error:
        if "bad_alloc" in str(error):
            response = {
                "status": "crashed",
                "messages": ["clingo ran out of memory while grounding or solving"],
            }
        else:
            response = {"status": "error", "messages": messages or [_clean(str(error))]}
    response["seconds"] = round(time.monotonic() - started, 6)
    return response
