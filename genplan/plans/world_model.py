"""A world model with a meter: the STRIPS simulator behind "apply this action in this state" and
"roll out this plan from the initial state", with typed errors and every query counted.

Query-efficient planning (Gonzalez-Pumariaga et al., *Query-Efficient Planning with Language
Models*, Sec. 2) treats the world model ``M: S x A -> S'`` as the expensive resource: a planner
queries it with a state-action pair ``q = (s, a)`` and gets ``r = (s', e)``, the next state and an
error when the action is invalid. SymPlanner (Xiong et al., Sec. 2.2) uses the same simulator as
the arbiter of validity and wants a *typed* error (which precondition failed) rather than a
silent no-op, so the model can repair its action (Iterative Correction, Sec. 2.3).

How queries are counted (:attr:`WorldModel.queries`):

* A query is one state-action pair answered by the simulator, valid or not: an action whose
  precondition fails still cost the world model an evaluation (Gonzalez-Pumariaga et al., Sec. 2: the response
  carries an error "if the action is invalid").
* A pair asked before (the same state, the same ground action) is answered from memory and not
  counted again: Boomerang "re-use[s] any queries made to the world model in previous iterations
  during this verification" (Gonzalez-Pumariaga et al., Sec. 3.2). genplan applies this to every method, so
  ReAct walking back to a state it left, or ToI re-expanding one, pays once per pair too;
  :attr:`WorldModel.reused` counts the answers served from memory.
* Text that names no action of the problem (unparsable, an unknown operator or object, the wrong
  number or type of arguments) is rejected before the world model is asked, and not counted:
  ``M`` is defined on the actions ``A`` of the problem only (Gonzalez-Pumariaga et al., Sec. 2).
* Listing the actions applicable in a state (:meth:`WorldModel.applicable`) is not counted: the
  paper's prompts show "Valid Actions" for the current state (Gonzalez-Pumariaga et al., App. A.4.3, A.4.4) and
  its query counts do not include them.

With a ``budget``, a query that would be counted beyond it raises :class:`BudgetExhausted`
(success "without exceeding the query budget", Gonzalez-Pumariaga et al., Sec. 4.1); answers from memory are
always free.
"""

from __future__ import annotations

import enum
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.simulator import applicable_actions, apply, unsatisfied_preconditions

State = frozenset[Atom]
"""A state: the ground atoms that hold (closed world)."""


class ActionErrorKind(enum.Enum):
    """Why an action was refused; only :attr:`PRECONDITION` comes from an actual query."""

    UNPARSABLE = "unparsable"
    UNKNOWN_OPERATOR = "unknown-operator"
    WRONG_ARITY = "wrong-arity"
    UNKNOWN_OBJECT = "unknown-object"
    WRONG_TYPE = "wrong-type"
    PRECONDITION = "precondition"


@dataclass(frozen=True)
class ActionError:
    """A typed error: what was wrong with an action.

    Attributes:
        kind: the kind of error.
        action: the action as written by whoever asked (or its PDDL form once parsed).
        message: one line for a person or a model, e.g. ``"(stack a b) is not applicable:
            (holding a) is false, (clear b) is false"``.
        unmet: for :attr:`ActionErrorKind.PRECONDITION`, the failed preconditions as
            ``(atom, value needed)`` pairs.
    """

    kind: ActionErrorKind
    action: str
    message: str
    unmet: tuple[tuple[Atom, bool], ...] = ()


class BudgetExhausted(Exception):
    """A counted query was asked after the world model's query budget was used up."""

    def __init__(self, budget: int):
        self.budget = budget
        super().__init__(f"the world-model query budget of {budget} is used up")


@dataclass(frozen=True)
class Step:
    """The answer to one query.

    Attributes:
        action: the ground action as ``(operator, object, ...)``, or ``None`` if the text named
            no action of the problem.
        state: the next state; the state queried when the action failed.
        error: why the action was refused, or ``None`` when it applied.
        counted: whether this query counted against the budget (a new valid-or-invalid pair).
    """

    action: Atom | None
    state: State
    error: ActionError | None
    counted: bool

    @property
    def ok(self) -> bool:
        """Whether the action applied."""
        return self.error is None


@dataclass(frozen=True)
class Rollout:
    """A plan executed from a state, up to its first error or the goal.

    Attributes:
        steps: one :class:`Step` per executed action, the failing one last.
        reached_goal: the goal held after the last step (or in the start state).
        error: the first failing action's error, or ``None``.
        failing_index: 0-based index of that action in the plan, or ``None``.
        final_state: the state reached by the steps that applied.
    """

    steps: tuple[Step, ...]
    reached_goal: bool
    error: ActionError | None
    failing_index: int | None
    final_state: State

    @property
    def applied(self) -> list[Atom]:
        """The actions that applied, in order (a valid prefix of the plan)."""
        return [step.action for step in self.steps if step.ok and step.action is not None]


_TYPE_SUFFIX = re.compile(r":[\w-]+$")


def action_text(action: Atom) -> str:
    """A ground action in PDDL form: ``('stack', 'a', 'b')`` -> ``"(stack a b)"``."""
    return "(" + " ".join(action) + ")"


def parse_action_text(text: str) -> Atom | None:
    """Read an action written as ``(stack a b)``, ``stack(a, b)``, ``stack(a:default,b:default)``
    (Gonzalez-Pumariaga et al.'s format) or ``stack a b``; lower-cased, with quotes, backticks and trailing
    punctuation removed. ``None`` when the text has no such shape, or holds a character that is
    not ASCII (a Kelvin sign lower-cases to ``k``: names are matched as written)."""
    cleaned = text.strip().strip("`'\"*.,;").strip()
    if not cleaned.isascii():
        return None
    cleaned = cleaned.lower()
    call = re.fullmatch(r"([\w-]+)\s*\((.*)\)", cleaned)
    if call:
        words = [call.group(1), *(part.strip() for part in call.group(2).split(",") if part.strip())]
    else:
        if cleaned.startswith("(") and cleaned.endswith(")"):
            cleaned = cleaned[1:-1]
        words = cleaned.replace(",", " ").split()
    words = [_TYPE_SUFFIX.sub("", word) for word in words]
    if not words or any(not re.fullmatch(r"[\w-]+", word) for word in words):
        return None
    return tuple(words)


class WorldModel:
    """The simulator of one problem behind a meter (see the module docstring for what counts).

    Safe to use from several threads (one problem's candidates queried at once).

    Attributes:
        problem: the problem simulated.
        budget: counted queries allowed, or ``None`` for no limit.
        queries: counted queries so far.
        reused: queries answered from memory.
    """

    def __init__(self, problem: Problem, budget: int | None = None):
        self.problem = problem
        self.budget = budget
        self.queries = 0
        self.reused = 0
        self.initial_state: State = frozenset(problem.init)
        self._memory: dict[tuple[State, Atom], Step] = {}
        self._lock = threading.Lock()

    def is_goal(self, state: State) -> bool:
        """Whether every goal atom holds in ``state``."""
        return self.problem.goal <= state

    def unmet_goals(self, state: State) -> list[Atom]:
        """Goal atoms false in ``state``, sorted."""
        return sorted(self.problem.goal - state)

    def applicable(self, state: State) -> list[Atom]:
        """Every ground action applicable in ``state``, sorted; not counted as queries."""
        return applicable_actions(self.problem, state)

    def parse(self, text: str | Atom) -> Atom | ActionError:
        """The ground action ``text`` names, or the typed error saying why it names none.

        Checks the shape, the operator, the number of arguments, that every object exists, and
        argument types in typed domains. Never counted.
        """
        action = parse_action_text(text) if isinstance(text, str) else tuple(text)
        if not action:
            shown = text if isinstance(text, str) else repr(text)
            return ActionError(
                ActionErrorKind.UNPARSABLE,
                shown,
                f"{shown.strip()!r} is not an action: write the operator then its objects, e.g. "
                + self._example(),
            )
        domain = self.problem.domain
        operator = domain.operators.get(action[0])
        shown = action_text(action)
        if operator is None:
            return ActionError(
                ActionErrorKind.UNKNOWN_OPERATOR,
                shown,
                f"{shown}: the domain has no operator {action[0]} (operators: {', '.join(domain.operators)})",
            )
        arguments = action[1:]
        if len(arguments) != len(operator.parameters):
            return ActionError(
                ActionErrorKind.WRONG_ARITY,
                shown,
                f"{shown}: {operator.name} takes {len(operator.parameters)} objects "
                f"{operator.signature}, {len(arguments)} given",
            )
        for position, (argument, (variable, type_name)) in enumerate(zip(arguments, operator.parameters), 1):
            object_type = self.problem.object_types.get(argument)
            if object_type is None:
                return ActionError(
                    ActionErrorKind.UNKNOWN_OBJECT, shown, f"{shown}: the problem has no object {argument}"
                )
            if domain.typed and not domain.is_subtype(object_type, type_name):
                return ActionError(
                    ActionErrorKind.WRONG_TYPE,
                    shown,
                    f"{shown}: argument {position} ({variable}) must be of type {type_name}, "
                    f"but {argument} is of type {object_type}",
                )
        return action

    def step(self, state: State, action: str | Atom) -> Step:
        """Query ``action`` in ``state``: the next state, or the typed error.

        Raises:
            BudgetExhausted: the pair is new and the budget is used up.
        """
        parsed = self.parse(action)
        if isinstance(parsed, ActionError):
            return Step(None, state, parsed, counted=False)
        key = (state, parsed)
        with self._lock:
            known = self._memory.get(key)
            if known is not None:
                self.reused += 1
                return Step(known.action, known.state, known.error, counted=False)
            if self.budget is not None and self.queries >= self.budget:
                raise BudgetExhausted(self.budget)
            self.queries += 1
            result = self._simulate(state, parsed)
            self._memory[key] = result
            return result

    def _simulate(self, state: State, action: Atom) -> Step:
        operator = self.problem.domain.operators[action[0]]
        unmet = unsatisfied_preconditions(operator, action[1:], state)
        if unmet:
            failed = ", ".join(
                f"{action_text(atom)} is {'false' if value else 'true'}" for atom, value in unmet
            )
            message = f"{action_text(action)} is not applicable: {failed}"
            error = ActionError(ActionErrorKind.PRECONDITION, action_text(action), message, tuple(unmet))
            return Step(action, state, error, counted=True)
        successor = set(state)
        apply(operator, action[1:], successor)
        return Step(action, frozenset(successor), None, counted=True)

    def rollout(self, plan: Sequence[str | Atom], start: State | None = None) -> Rollout:
        """Execute ``plan`` from ``start`` (the initial state by default), querying each action.

        Stops at the first refused action, or as soon as the goal holds (the rest of the plan
        is not queried; the plan's prefix is a valid plan).

        Raises:
            BudgetExhausted: a new query was needed after the budget was used up.
        """
        state = self.initial_state if start is None else start
        steps: list[Step] = []
        if self.is_goal(state):
            return Rollout((), True, None, None, state)
        for index, action in enumerate(plan):
            step = self.step(state, action)
            steps.append(step)
            if step.error is not None:
                return Rollout(tuple(steps), False, step.error, index, state)
            state = step.state
            if self.is_goal(state):
                return Rollout(tuple(steps), True, None, None, state)
        return Rollout(tuple(steps), False, None, None, state)

    def _example(self) -> str:
        operator = next(iter(self.problem.domain.operators.values()))
        return operator.signature
