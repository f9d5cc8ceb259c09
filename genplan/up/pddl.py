"""UP problems as genplan problems, and genplan's plans in the UP problem's own names.

A UP ``Problem`` is written to PDDL by UP's own ``PDDLWriter`` and loaded by genplan's readers
(so the PDDL table, :mod:`genplan.pddl.fragment`, judges it as it judges any file). PDDL is
stricter about names than UP (``Robot 1`` becomes ``robot_1``; two names that differ only in case
become ``l1`` and ``l1_0``); the writer keeps the renaming, and :func:`up_plan` maps a plan's
action and object names back through it, so the ``SequentialPlan`` a UP user gets holds the
problem's own ``Action`` and ``Object`` instances.

A UP problem read from an untyped PDDL file has one type, ``object``, and the writer would
declare it (``:typing``, ``?x - object``); genplan would then pass ``get_plan`` ``(name, type)``
pairs where a program written for the untyped domain expects names. Such a problem is written
untyped, as the file it came from was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import unified_planning.model as up_model
from unified_planning.exceptions import UPException
from unified_planning.io import PDDLWriter
from unified_planning.plans import ActionInstance, SequentialPlan

from genplan.errors import ConfigurationError
from genplan.pddl.domain import ROOT_TYPE, parse_domain_text
from genplan.pddl.problem import Problem, parse_problem_text
from genplan.plans.syntax import parse_action
from genplan.plans.validate import read_plan_file
from genplan.up.errors import UnsupportedUpProblem
from genplan.up.kind import supported_kind

_ROOT_TYPE_ANNOTATION = re.compile(rf"\s+-\s+{ROOT_TYPE}(?=[\s)])")


@dataclass(frozen=True)
class PddlText:
    """A UP problem as PDDL, with the names the writer chose.

    Attributes:
        domain: the domain's PDDL text.
        problem: the problem's PDDL text.
        writer: the ``PDDLWriter`` that wrote them; ``writer.get_item_named(name)`` is the UP
            ``Action``, ``Object``, ``Fluent`` or type a PDDL name stands for.
    """

    domain: str
    problem: str
    writer: Any


@dataclass(frozen=True)
class LoadedProblem:
    """A UP problem loaded by genplan.

    Attributes:
        up_problem: the UP ``Problem`` it came from.
        problem: genplan's :class:`~genplan.pddl.problem.Problem` of it (its domain with it).
        text: the PDDL it was loaded from and the writer's names (:class:`PddlText`).
    """

    up_problem: Any
    problem: Problem
    text: PddlText


def is_untyped(problem: Any) -> bool:
    """Whether the UP ``problem``'s only type is ``object`` with no parent (untyped PDDL read by UP)."""
    types = list(problem.user_types)
    return len(types) == 1 and types[0].name == ROOT_TYPE and types[0].father is None


def check_kind(problem: Any) -> None:
    """Raise unless the UP ``problem``'s kind is one genplan models (:func:`~genplan.up.kind.supported_kind`).

    Raises:
        UnsupportedUpProblem: names the problem and the features outside genplan's kind.
    """
    if not isinstance(problem, up_model.Problem):
        raise UnsupportedUpProblem(
            f"genplan takes a unified_planning.model.Problem, not a {type(problem).__name__}"
        )
    kind = problem.kind
    if not kind <= supported_kind():
        outside = sorted(kind.features - supported_kind().features)
        raise UnsupportedUpProblem(
            f"UP problem {problem.name!r} is of a kind genplan does not model: {', '.join(outside)} "
            "(genplan models classical planning with typing, negative preconditions, equality and "
            "action costs; see 'Supported PDDL' in the docs)"
        )


def pddl_text(problem: Any) -> PddlText:
    """The UP ``problem`` written as PDDL by UP's ``PDDLWriter`` (untyped when :func:`is_untyped`).

    Raises:
        UnsupportedUpProblem: the problem's kind is not one genplan models (:func:`check_kind`),
            or the writer cannot write it (UP's reason given).
    """
    check_kind(problem)
    writer = PDDLWriter(problem)
    try:
        domain, text = writer.get_domain(), writer.get_problem()  # this order names things as the writer does
    except (UPException, NotImplementedError) as error:
        raise UnsupportedUpProblem(
            f"UP's PDDL writer cannot write problem {problem.name!r}: {error}"
        ) from error
    if is_untyped(problem):
        domain = _ROOT_TYPE_ANNOTATION.sub("", domain.replace(" :typing", "", 1))
        text = _ROOT_TYPE_ANNOTATION.sub("", text)
    return PddlText(domain, text, writer)


def load_up_problem(problem: Any) -> LoadedProblem:
    """The UP ``problem`` as genplan's :class:`~genplan.pddl.problem.Problem`: written by UP's
    writer (:func:`pddl_text`), then read by genplan's readers as any file is.

    Raises:
        UnsupportedUpProblem: as :func:`pddl_text`.
        UnsupportedPddl: the written PDDL uses a construct genplan does not model that UP's kind
            cannot tell apart (a negated goal, a negative action cost); names the construct.
        PddlError: the written PDDL does not load (a line of the written text is named).
    """
    text = pddl_text(problem)
    domain = parse_domain_text(text.domain)
    return LoadedProblem(problem, parse_problem_text(text.problem, domain), text)


def up_plan(problem: Any, writer: Any, actions: Sequence[str]) -> SequentialPlan:
    """A plan in PDDL names (``"(pick ball1 rooma left)"``, one action per item) as UP's
    ``SequentialPlan`` over ``problem``'s own actions and objects, mapped back through ``writer``
    (the ``PDDLWriter`` that wrote ``problem``).

    Raises:
        ConfigurationError: an item is not a parenthesised action, or names an action or object
            the writer did not write (names the step, counted from 1, and the name).
    """
    objects = problem.environment.expression_manager
    steps = []
    for step, text in enumerate(actions, start=1):
        atom = parse_action(text)
        if atom is None:
            raise ConfigurationError(f"step {step} of the plan is not an action: {text!r}")
        action = _named(writer, atom[0], up_model.Action, step)
        arguments = tuple(objects.ObjectExp(_named(writer, name, up_model.Object, step)) for name in atom[1:])
        steps.append(ActionInstance(action, arguments))
    return SequentialPlan(steps, problem.environment)


def _named(writer: Any, name: str, kind: type, step: int) -> Any:
    try:
        item = writer.get_item_named(name)
    except UPException:
        item = None
    if not isinstance(item, kind):
        raise ConfigurationError(
            f"step {step} of the plan names {name!r}, which is no {kind.__name__.lower()} of the UP problem"
        )
    return item


def read_up_plan(problem: Any, path: Path | str) -> SequentialPlan:
    """A plan file genplan wrote for the UP ``problem`` (``genplan evaluate --plans``, a run's
    ``plans/``; one action per line, ``;`` comments skipped) as UP's ``SequentialPlan`` in the
    problem's own names.

    Raises:
        UnsupportedUpProblem: as :func:`pddl_text`.
        PddlError: the file cannot be read (names it).
        ConfigurationError: a step names an action or object the problem does not have.
    """
    try:
        return up_plan(problem, pddl_text(problem).writer, read_plan_file(path))
    except UnsupportedUpProblem:
        raise
    except ConfigurationError as error:
        raise ConfigurationError(f"{path}: {error}") from error
