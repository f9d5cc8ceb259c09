"""Benchmark: loading problems and domains, genplan's readers beside the ``pddl`` library (issue 12).

Prints, in one run on the same files, the best of several wall-clock times (the least disturbed
run on a shared machine; the load is printed too) of:

* the largest heavy evaluation problem (31,126 init atoms): genplan's reader, the ``pddl``
  library's parser built once, and the library as genplan called it before (a new parser per
  call), plus binding the generated problem as data (what evaluation does now);
* a small problem and every built-in domain, the same way.

Target: the heavy problem at least 20x faster than before. Asserts nothing.

Run: ``python scripts/bench_load.py``
"""

from __future__ import annotations

import argparse
import os

from timing import best_seconds

from genplan.paths import builtin_domain_file, builtin_domain_names
from genplan.pddl.domain import load_domain, parse_domain_text
from genplan.pddl.generate import generate_problems
from genplan.pddl.library import library_domain, library_problem
from genplan.pddl.problem import Problem, _checked_problem, bind_problem, parse_problem_text
from genplan.pddl.text import add_missing_requirements, strip_comments_and_lower

TARGET = 20.0


def _library(text: str, domain_name: str, *, rebuild: bool) -> Problem:
    """The problem through the ``pddl`` library alone, with genplan's checks, as before the fast path."""
    from genplan.pddl import library

    if rebuild:
        library._problem_parser.cache_clear()  # the old code built a ProblemParser per call
    normalised = add_missing_requirements(strip_comments_and_lower(text))
    name, domain, objects, init, goal = library_problem(normalised, None)
    parsed = load_domain(builtin_domain_file(domain_name))
    return _checked_problem(name, domain, objects, init, goal, parsed, None, normalised)


def _row(label: str, ours: float, once: float, before: float) -> None:
    print(
        f"{label:<34} {ours * 1000:9.2f} ms {once * 1000:10.2f} ms {before * 1000:10.2f} ms"
        f"   {before / ours:6.1f}x faster than before"
    )


def main() -> None:
    argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    ).parse_args()
    print(f"machine: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("each figure: the best of 3 to 9 runs, the same count for every column")
    heavy = load_domain(builtin_domain_file("heavy"))
    largest = max(generate_problems("heavy", "eval", 0), key=lambda g: len(g.problem.init))
    small = generate_problems("gripper", "train", 0)[0]
    gripper = load_domain(builtin_domain_file("gripper"))
    print(f"{'':<34} {'genplan':>12} {'pddl, once':>13} {'pddl, before':>13}")
    for label, generated, domain, name, repeat in (
        (f"heavy eval ({len(largest.problem.init)} atoms)", largest, heavy, "heavy", 3),
        (f"gripper train ({len(small.problem.init)} atoms)", small, gripper, "gripper", 5),
    ):
        text = generated.text
        assert parse_problem_text(text, domain) == _library(text, name, rebuild=False)
        ours = best_seconds(lambda t=text, d=domain: parse_problem_text(t, d), repeat)
        once = best_seconds(lambda t=text, n=name: _library(t, n, rebuild=False), repeat)
        before = best_seconds(lambda t=text, n=name: _library(t, n, rebuild=True), repeat)
        _row(label, ours, once, before)
        bound = best_seconds(lambda g=generated, d=domain: bind_problem(g.problem, d), repeat)
        print(f"{'  bound from data, no text':<34} {bound * 1000:9.2f} ms")
    print(f"target: the heavy problem >= {TARGET:.0f}x faster than before")
    from genplan.pddl import library

    for name in builtin_domain_names():
        text = builtin_domain_file(name).read_text()
        normalised = add_missing_requirements(strip_comments_and_lower(text))
        ours = best_seconds(lambda t=text: parse_domain_text(t), 9)
        once = best_seconds(lambda n=normalised: library_domain(n, None), 9)

        def rebuilt(n: str = normalised) -> None:
            library._domain_parser.cache_clear()
            library_domain(n, None)

        before = best_seconds(rebuilt, 9)
        _row(f"domain {name}", ours, once, before)
    print(f"machine: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
