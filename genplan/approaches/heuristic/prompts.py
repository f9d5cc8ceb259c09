"""The prompts of the heuristic approach, in genplan's own words.

Corrêa, Pereira and Seipp (NeurIPS 2025) ask the model for a domain-dependent heuristic with a
prompt that gives the PDDL domain, example training tasks, the planner's state representation,
the code interface the heuristic implements and a short checklist of common pitfalls. There is
no copy of their prompt here; :func:`heuristic_prompt` writes the same parts in genplan's words,
for genplan's interface (:data:`~genplan.approaches.heuristic.harness.FACTORY`, states of
ground-atom tuples). :func:`repair_prompt` is counterexample repair's revision request, beyond
the paper: every line of it is genplan's text or numbers and atoms genplan checked, never text
the program wrote.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from genplan.approaches.heuristic.harness import FACTORY, FACTORY_USAGE
from genplan.approaches.heuristic.probes import Counterexample, Probe
from genplan.pddl.domain import Atom, Domain
from genplan.pddl.problem import Problem

TOY_EXAMPLE = """\
from collections import deque


def make_heuristic(objects, init, goal):
    # Toy domain (not yours): a robot moves between cells joined by (link ?a ?b) facts, which
    # no action changes; the goal asks for ("robot-at", cell).
    links = {}
    for atom in init:
        if atom[0] == "link":
            links.setdefault(atom[1], []).append(atom[2])
    targets = [atom[1] for atom in goal if atom[0] == "robot-at"]
    distance = {}  # steps from each cell to the nearest target, computed once per task
    queue = deque(targets)
    for target in targets:
        distance[target] = 0
    while queue:
        cell = queue.popleft()
        for other in links.get(cell, []):
            if other not in distance:
                distance[other] = distance[cell] + 1
                queue.append(other)

    def h(state):
        for atom in state:
            if atom[0] == "robot-at":
                return distance.get(atom[1], float("inf"))
        return float("inf")

    return h
"""
"""The interface on an unrelated toy domain, shown in every prompt."""

MAX_SHOWN_ATOMS = 80
"""Atoms of one state a revision request lists (the rest are counted)."""
MAX_COUNTEREXAMPLES = 3
"""Counterexamples one revision request shows (the rest are counted)."""


def representation_text(domain: Domain) -> str:
    """How the search hands a task and its states to the heuristic, for ``domain``."""
    objects = (
        "a set of (name, type) pairs such as ('ball1', 'ball')"
        if domain.typed
        else "a set of object names (the domain is untyped)"
    )
    static = domain.static_predicates
    static_text = (
        f"In this domain the static predicates are: {', '.join(static)}."
        if static
        else "This domain has no static predicates."
    )
    return f"""\
- A ground atom is a tuple of strings, the predicate first, e.g. ('at', 'ball1', 'rooma').
- {FACTORY_USAGE} is called once per task, before the search starts.
  `objects` is {objects}, domain constants included; `init` is the set of ground atoms true in
  the initial state; `goal` is the set of ground atoms that must all hold in a goal state. Each
  is a Python set of the function's own.
- It returns h. The search calls h(state) on every state it generates (often hundreds of
  thousands of times). `state` is a frozenset of the ground atoms true in it, *except* the atoms
  of static predicates (predicates no action adds or deletes), which hold in every state as in
  `init` and are left out of states. Every atom not in the state (and not static) is false.
  {static_text}"""


def heuristic_prompt(domain_pddl: str, domain: Domain, examples: Sequence[Problem]) -> str:
    """The request for one candidate heuristic: the domain, example problems, the state
    representation, the interface with a toy example, and the checklist."""
    shown = "\n\n".join(f"```pddl\n{problem.to_pddl().strip()}\n```" for problem in examples)
    example_text = (
        f"Example problems of this domain (the heuristic is selected on problems like these, then used on "
        f"larger ones):\n\n{shown}\n\n"
        if examples
        else ""
    )
    return f"""\
Write a domain-dependent heuristic for greedy best-first search in the planning domain below. The
search expands the generated state with the lowest heuristic value first (ties: the state
generated first), so a heuristic that ranks states closer to a goal lower finds plans with fewer
expansions. It need not be admissible: it is judged by how many problems greedy best-first
search solves with it within a time limit, then by how few states it expands.

The domain, in PDDL:

```pddl
{domain_pddl.strip()}
```

{example_text}How the search represents a task and its states:
{representation_text(domain)}

The interface: define, at the top level of one Python program, a function
{FACTORY_USAGE} that returns a function h(state). h returns an int or a float >= 0, or
float("inf") for a state from which you know no goal state can be reached (the search then drops
it). An example of the interface on an unrelated toy domain:

```python
{TOY_EXAMPLE.rstrip()}
```

Checklist:
- h(state) is 0 on every goal state and greater than 0 on every other state.
- Precompute in {FACTORY} whatever depends on the task only (indexes of static facts, distances,
  the goal's atoms by predicate); keep h fast: linear in the size of the state, no search over
  states inside h.
- Read object types and facts from the arguments; do not rely on object names, on the order in
  which sets iterate, or on the example problems' sizes: problems can have many more objects.
- Never change the state or the arguments; return an int or a float, never None, a bool or a
  string; float("inf") only for a true dead end.
- Only pure standard-library modules can be imported (collections, heapq, itertools, math,
  functools, ...); no files, processes or network.

Answer with the whole program in one Python code block."""


def _atom_text(atom: Atom) -> str:
    return "(" + " ".join(atom) + ")"


def atoms_text(atoms: Iterable[Atom], limit: int = MAX_SHOWN_ATOMS) -> str:
    """Ground atoms as PDDL, sorted, at most ``limit`` of them (then how many more)."""
    ordered = sorted(atoms)
    shown = " ".join(_atom_text(atom) for atom in ordered[:limit])
    more = len(ordered) - limit
    return shown + (f" ... and {more} more" if more > 0 else "") if ordered else "(none)"


def _value_text(value: float | str) -> str:
    if value == "inf":
        return "float('inf')"
    return f"{float(value):g}"


def _counterexample_text(number: int, example: Counterexample, probes: Sequence[Probe]) -> str:
    probe = probes[example.probe]
    state = probe.states[example.state]
    remaining = probe.remaining[example.state]
    if example.kind == "goal-not-zero":
        what = "This is a goal state (every goal atom holds), so h must be 0."
    elif example.kind == "zero-off-goal":
        static = set(probe.problem.domain.static_predicates)
        missing = [atom for atom in probe.problem.goal if atom not in state and atom[0] not in static]
        plan = f"; a plan of {remaining} actions reaches the goal from it" if remaining else ""
        what = (
            f"This is not a goal state (goal atoms false in it: {atoms_text(missing, 20)}){plan}; every "
            "action costs 1, so h must be greater than 0."
        )
    else:
        what = (
            f"A plan of {remaining} actions reaches the goal from this state, so it is no dead end and h "
            "must be finite."
        )
    return (
        f"{number}. Problem {probe.problem.name} (its goal: {atoms_text(probe.problem.goal, 40)}), the state "
        f"(static facts left out): {atoms_text(state)}\n   h returned {_value_text(example.value)}. {what}"
    )


def repair_prompt(found: Sequence[Counterexample], probes: Sequence[Probe]) -> str:
    """The revision request of counterexample repair: at most :data:`MAX_COUNTEREXAMPLES` of
    ``found`` (one per kind first), each with its problem, state, value and the property it breaks."""
    chosen: list[Counterexample] = []
    for kind in ("goal-not-zero", "zero-off-goal", "dead-end-on-plan"):
        chosen += [c for c in found if c.kind == kind][:1]
    chosen += [c for c in found if c not in chosen]
    chosen = chosen[:MAX_COUNTEREXAMPLES]
    lines = [_counterexample_text(i, c, probes) for i, c in enumerate(chosen, start=1)]
    more = len(found) - len(chosen)
    extra = (
        f"\n({more} more state{'s contradict' if more != 1 else ' contradicts'} these properties.)"
        if more > 0
        else ""
    )
    return (
        "Your heuristic gives values that cannot be right on states of small training problems, whose "
        "plans are known:\n\n" + "\n".join(lines) + extra + "\n\nThink step by step about why h gives "
        f"these values, then fix it. Keep the interface {FACTORY_USAGE}. Answer with the whole program "
        "in one Python code block."
    )
