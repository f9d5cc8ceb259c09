"""Test oracle for spanner: walk the one-way corridor picking up every spanner, then tighten at the gate."""

from genplan.pddl.problem import Problem


def solve(problem: Problem) -> list[str]:
    man = next(name for name, kind in problem.object_types.items() if kind == "man")
    link = {a[1]: a[2] for a in problem.init if a[0] == "link"}
    here = next(a[2] for a in problem.init if a[0] == "at" and a[1] == man)
    spanners_at: dict[str, list[str]] = {}
    for atom in problem.init:
        if atom[0] == "at" and problem.object_types[atom[1]] == "spanner":
            spanners_at.setdefault(atom[2], []).append(atom[1])
    nuts_at: dict[str, list[str]] = {}
    for atom in problem.init:
        if atom[0] == "at" and problem.object_types[atom[1]] == "nut":
            nuts_at.setdefault(atom[2], []).append(atom[1])
    carried: list[str] = []
    plan = []
    while True:
        for spanner in sorted(spanners_at.get(here, [])):
            plan.append(f"(pickup_spanner {here} {spanner} {man})")
            carried.append(spanner)
        for nut in sorted(nuts_at.get(here, [])):
            plan.append(f"(tighten_nut {here} {carried.pop()} {man} {nut})")
        if here not in link:
            return plan
        plan.append(f"(walk {here} {link[here]} {man})")
        here = link[here]
