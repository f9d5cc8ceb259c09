"""Benchmark: plan checking and problem loading (issue 2). Prints figures; asserts nothing.

* checking a 1,000-step plan on a problem with about 250 objects: VAL, the simulator, and
  unified-planning's validator when it is installed;
* loading that problem, and the largest heavy evaluation problem (~31,000 init atoms).

Run: ``python scripts/bench_validate.py``
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from timing import median_seconds

from genplan.paths import builtin_domain_file
from genplan.pddl.domain import load_domain
from genplan.pddl.generate import generate_problems, write_problems
from genplan.pddl.problem import _load_problem_cached, load_problem, parse_problem_text
from genplan.plans.validate import check_plan


def _gripper_problem_and_plan(folder: Path):
    """A gripper problem with ~250 objects and a valid 1,000-step plan shuttling balls around."""
    domain = load_domain(builtin_domain_file("gripper"))
    generated = generate_problems("gripper", "eval", 0, n=1, scale=4)[0]
    path = folder / "gripper-250.pddl"
    path.write_text(generated.text)
    problem = parse_problem_text(generated.text, domain)
    robby = next(a[1] for a in problem.init if a[0] == "at-robby")
    rooms = sorted(a[1] for a in problem.init if a[0] == "room")
    where = {a[1]: a[2] for a in problem.init if a[0] == "at"}
    hand = min(a[1] for a in problem.init if a[0] == "gripper")  # the generator's own gripper names
    plan: list[str] = []
    balls = sorted(where)
    index = 0
    while len(plan) < 1000:
        ball = balls[index % len(balls)]
        target = rooms[(index * 7) % len(rooms)]
        index += 1
        if where[ball] == target:
            continue
        if robby != where[ball]:
            plan.append(f"(move {robby} {where[ball]})")
            robby = where[ball]
        plan.append(f"(pick {ball} {robby} {hand})")
        plan.append(f"(move {robby} {target})")
        robby = target
        plan.append(f"(drop {ball} {target} {hand})")
        where[ball] = target
    plan = plan[:1000]
    return path, problem, plan


def _unified_planning_seconds(domain_file: Path, problem_file: Path, plan: list[str]) -> float | None:
    try:
        from unified_planning.engines import PlanGenerationResultStatus  # noqa: F401
        from unified_planning.io import PDDLReader
        from unified_planning.shortcuts import PlanValidator
    except ImportError:
        return None
    reader = PDDLReader()
    up_problem = reader.parse_problem(str(domain_file), str(problem_file))
    with tempfile.NamedTemporaryFile("w", suffix=".plan", delete=False) as stream:
        stream.write("\n".join(plan) + "\n")
    up_plan = reader.parse_plan(up_problem, stream.name)
    with PlanValidator(problem_kind=up_problem.kind) as validator:
        return median_seconds(lambda: validator.validate(up_problem, up_plan), repeat=3)


def main() -> None:
    argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    ).parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path, problem, plan = _gripper_problem_and_plan(Path(folder))
        print(
            f"problem: {len(problem.object_types)} objects, {len(problem.init)} init atoms; plan: {len(plan)} steps"
        )
        assert check_plan(problem, plan, checker="simulator").failing_step is None  # all 1,000 actions apply
        val = median_seconds(lambda: check_plan(problem, plan, checker="val"))
        simulator = median_seconds(lambda: check_plan(problem, plan, checker="simulator"))
        print(f"check 1,000-step plan   VAL        {val * 1000:8.1f} ms")
        print(
            f"                        simulator  {simulator * 1000:8.1f} ms   (VAL / simulator = {val / simulator:.1f}x)"
        )
        up = _unified_planning_seconds(builtin_domain_file("gripper"), path, plan)
        if up is None:
            print(
                "                        unified-planning: not installed (pip install unified-planning to compare)"
            )
        else:
            print(
                f"                        unified-planning {up * 1000:8.1f} ms   (/ simulator = {up / simulator:.1f}x)"
            )

        def load(p: Path, domain: Path) -> None:
            _load_problem_cached.cache_clear()
            load_problem(p, domain)

        load_small = median_seconds(lambda: load(path, builtin_domain_file("gripper")))
        heavy_paths = write_problems("heavy", "eval", 0, Path(folder) / "heavy")
        largest = max(heavy_paths, key=lambda p: p.stat().st_size)
        heavy = load_problem(largest, builtin_domain_file("heavy"))
        load_heavy = median_seconds(lambda: load(largest, builtin_domain_file("heavy")), repeat=3)
        start = time.perf_counter()
        load_problem(largest, builtin_domain_file("heavy"))
        cached = time.perf_counter() - start
        print(f"load gripper problem    {load_small * 1000:8.1f} ms")
        print(
            f"load largest heavy      {load_heavy * 1000:8.1f} ms   ({len(heavy.init)} init atoms; "
            f"{load_heavy / load_small:.0f}x the gripper problem; a second load in one run: {cached * 1e6:.0f} us)"
        )


if __name__ == "__main__":
    main()
