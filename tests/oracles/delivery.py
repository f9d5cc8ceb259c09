"""Test oracle for delivery: pick up one paper per wanting location, then visit each (all safe)."""

from genplan.pddl.problem import Problem


def solve(problem: Problem) -> list[str]:
    home = next(a[1] for a in problem.init if a[0] == "ishomebase")
    wanting = sorted(a[1] for a in problem.init if a[0] == "wantspaper")
    papers = sorted(a[1] for a in problem.init if a[0] == "unpacked")
    plan = [f"(pick-up {p} {home})" for p in papers[: len(wanting)]]
    here = home
    for paper, place in zip(papers, wanting):
        plan += [f"(move {here} {place})", f"(deliver {paper} {place})"]
        here = place
    return plan
