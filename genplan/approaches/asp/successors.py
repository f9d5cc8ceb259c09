"""The successor check: the encoding's transitions against the PDDL domain's, on random states.

LLM+AL could only ask the model whether clingo's output "makes sense"; with a PDDL domain,
genplan knows the true successor function (:class:`genplan.plans.successors.SuccessorGenerator`,
the one AutoToS checks against and the random-walk baseline walks with). States come from random walks on the training
problems (each walk from the initial state, of a random length up to ``walk_length``, so every
state is reachable); for each, clingo enumerates every one-action transition the encoding
allows (horizon 1) and genplan compares them with PDDL's:

* an action the encoding allows that PDDL forbids (not applicable, or not even an action of the
  problem), or one PDDL allows that the encoding does not (an action that changes nothing in
  PDDL, such as ``(move r r)``, may be left out);
* for an action both allow, a different successor state (compared on the atoms of predicates
  some operator changes: static predicates such as ``room`` may live in ``init`` only), or
  several successor states;
* a state the encoding rejects outright (it is reachable, so no state constraint may reject it).

The first state with a counterexample is reported, with up to :data:`MAX_REPORTED` mismatches.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from genplan.approaches.asp.feedback import FeedbackKind, Finding, Issue
from genplan.approaches.asp.interface import AspNames, action_text, problem_facts
from genplan.approaches.asp.solver import Clingo, ClingoStatus, StateTransitions
from genplan.pddl.domain import Atom
from genplan.pddl.problem import Problem
from genplan.plans.simulator import unsatisfied_preconditions
from genplan.plans.successors import SuccessorGenerator
from genplan.plans.syntax import check_syntax

MAX_REPORTED = 3


@dataclass(frozen=True)
class SampledState:
    """A state reached by a random walk.

    Attributes:
        problem: the training problem walked in.
        path: the actions from its initial state, as plan lines.
        atoms: the state.
    """

    problem: Problem
    path: tuple[str, ...]
    atoms: frozenset[Atom]


def sample_states(
    problems: Sequence[Problem], count: int, walk_length: int, rng: random.Random
) -> list[SampledState]:
    """``count`` states (fewer when walks meet), by random walks on ``problems`` in turn.

    Each walk starts at a problem's initial state and takes up to ``rng.randint(0, walk_length)``
    uniformly random applicable actions (stopping early at a dead end).
    """
    states: list[SampledState] = []
    seen: set[tuple[str, frozenset[Atom]]] = set()
    generators: dict[Problem, SuccessorGenerator] = {}
    for index in range(count):
        problem = problems[index % len(problems)]
        if problem not in generators:
            generators[problem] = SuccessorGenerator.for_problem(problem)
        generator = generators[problem]
        atoms = frozenset(problem.init)
        path: list[str] = []
        for _ in range(rng.randint(0, walk_length)):
            actions = generator.applicable(atoms)
            if not actions:
                break
            action = rng.choice(actions)
            atoms = generator.apply(action, atoms)
            path.append(action_text(action))
        key = (problem.name, atoms)
        if key not in seen:
            seen.add(key)
            states.append(SampledState(problem, tuple(path), atoms))
    return states


def _restricted(atoms: frozenset[Atom], changing: frozenset[str]) -> frozenset[Atom]:
    return frozenset(atom for atom in atoms if atom[0] in changing)


def _show(atoms: Sequence[Atom] | frozenset[Atom], names: AspNames) -> str:
    return " ".join(names.term(atom) for atom in sorted(atoms)) or "(nothing)"


def compare_state(state: SampledState, found: StateTransitions, names: AspNames) -> list[tuple[str, Issue]]:
    """Mismatches between the encoding's transitions from ``state`` and PDDL's, each with its
    Table 3 category (empty when they agree)."""
    problem = state.problem
    domain = problem.domain
    changing = domain.fluent_predicates
    arity = {name: len(types) for name, types in domain.predicates.items()}
    if not found.accepted:
        return [
            (
                "your encoding rejects this state (it has no answer set at horizon 0), but it is reachable",
                Issue.RULES_H,
            )
        ]
    mismatches: list[tuple[str, Issue]] = []
    encoded: dict[Atom, set[frozenset[Atom]]] = {}
    for transition in found.transitions:
        (planned,) = transition.actions
        if planned.flat is None:
            mismatches.append(
                (f"your encoding allows occurs({planned.term}), which is not a PDDL action", Issue.RULES_MN)
            )
            continue
        pddl_action = names.pddl_atom(planned.flat)
        syntax = check_syntax([action_text(pddl_action)], problem)
        if not syntax.valid:
            reason = syntax.message.split(" because ", 1)[-1]
            mismatches.append(
                (
                    f"your encoding allows occurs({planned.term}), which is not an action of this problem: {reason}",
                    Issue.RULES_MN,
                )
            )
            continue
        after = set()
        for _, fluent in transition.holds:
            if fluent is None:
                continue
            atom = names.pddl_atom(fluent)
            if atom[0] in changing and arity.get(atom[0]) == len(atom) - 1:
                after.add(atom)
        encoded.setdefault(pddl_action, set()).add(frozenset(after))
    truth = dict(SuccessorGenerator.for_problem(problem).successors(state.atoms))
    for action in sorted(encoded.keys() - truth.keys()):
        missing = unsatisfied_preconditions(domain.operators[action[0]], action[1:], set(state.atoms))
        why = ", ".join(f"({' '.join(atom)}) is {'false' if value else 'true'}" for atom, value in missing)
        mismatches.append(
            (
                f"your encoding allows {action_text(action)}, which PDDL forbids here: {why or 'not applicable'}",
                Issue.RULES_MN,
            )
        )
    for action in sorted(truth.keys() - encoded.keys()):
        if _restricted(truth[action], changing) == _restricted(state.atoms, changing):
            continue  # an action that changes nothing may be left out
        mismatches.append((f"PDDL allows {action_text(action)} here, your encoding does not", Issue.RULES_H))
    for action in sorted(truth.keys() & encoded.keys()):
        expected = _restricted(truth[action], changing)
        results = encoded[action]
        if len(results) > 1:
            mismatches.append(
                (
                    f"after {action_text(action)} your encoding allows {len(results)} different states; PDDL gives one",
                    Issue.RULES_MN,
                )
            )
            continue
        (result,) = results
        if result != expected:
            lacking, extra = sorted(expected - result), sorted(result - expected)
            parts = []
            if lacking:
                parts.append(f"it lacks {_show(lacking, names)}")
            if extra:
                parts.append(f"it has {_show(extra, names)}, which PDDL does not")
            issue = Issue.RULES_MN if lacking else Issue.RULES_H
            mismatches.append(
                (f"after {action_text(action)} your encoding's state differs: " + "; ".join(parts), issue)
            )
    return mismatches


def successor_check(
    encoding: str,
    problems: Sequence[Problem],
    names: AspNames,
    clingo: Clingo,
    *,
    count: int,
    walk_length: int,
    time_limit: float,
    seed: int,
) -> tuple[str, tuple[Finding, ...]]:
    """Run the successor check; returns the text for the model and its findings.

    The random states depend on ``seed`` only, so every round checks the same states.
    """
    states = sample_states(problems, count, walk_length, random.Random(f"asp-successors/{seed}"))
    changing = problems[0].domain.fluent_predicates
    texts = [problem_facts(s.problem, names, state=s.atoms, with_goal=False) for s in states]
    result = clingo.successors(encoding, "", texts, time_limit=time_limit)
    for sampled, found in zip(states, result.states):
        mismatches = compare_state(sampled, found, names)
        if found.truncated:
            mismatches.append(
                ("your encoding allows more transitions than genplan enumerates", Issue.RULES_MN)
            )
        if mismatches:
            reached = " ".join(sampled.path) if sampled.path else "no action (it is the initial state)"
            lines = [
                f"Counterexample: a state of {sampled.problem.name}, reached from its initial state by {reached}.",
                "Its changing fluents: " + _show(_restricted(sampled.atoms, changing), names),
            ]
            lines += [f"- {text}" for text, _ in mismatches[:MAX_REPORTED]]
            if len(mismatches) > MAX_REPORTED:
                lines.append(f"- ... and {len(mismatches) - MAX_REPORTED} more")
            issues = tuple(issue for _, issue in mismatches)
            return "\n".join(lines), (Finding(FeedbackKind.SUCCESSOR_MISMATCH, issues),)
    if result.status is not ClingoStatus.SAT:
        limit = result.status in (ClingoStatus.TIMEOUT, ClingoStatus.CRASHED)
        kind = FeedbackKind.CLINGO_LIMIT if limit else FeedbackKind.GROUNDING
        checked = f" (after {len(result.states)} of {len(states)} states agreed)" if result.states else ""
        return f"{result.status.value.upper()}{checked}:\n" + "\n".join(result.messages), (Finding(kind),)
    return f"passed: the transitions agree with the PDDL domain's on all {len(states)} states.", ()
