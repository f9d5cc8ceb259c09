"""Benchmark: GBFS expansions per second with a model-style heuristic inside the sandbox, against the same search in-process.

The heuristic approach runs greedy best-first search inside the sandbox's confined child, calling
the model's ``h`` once per state with no round trip to genplan's process. This runs the very same
harness call (``genplan.approaches.heuristic.harness:search``: the task rebuilt from JSON, the
factory, the search) three ways on the same problems, and prints expansions per second side by
side (target: sandboxed >= 0.7x in-process), with the machine's load before and after:

* in-process, the program compiled by plain CPython (no policy, no guards): the reference;
* in-process, the program compiled under the sandbox's policy (its run-time guards included);
* in the sandbox (a confined child of the bubblewrap worker), timed on the caller's clock around
  the whole call (compiling, sending the task, the search, the answer).

Each search stops at the same state cap (or at the goal), so all three do the same work; each
figure is the best of ``--repeat`` rounds (the least disturbed on a shared machine). Asserts
nothing.

Run: ``python scripts/bench_heuristic.py [--domains gripper,delivery,ferry,miconic] [--states 20000]``
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from timing import best_seconds

from genplan.approaches.heuristic import harness
from genplan.approaches.heuristic.probes import task_json
from genplan.pddl.problem_sets import load_domain_problems
from genplan.sandbox import Isolation, Limits, RunStatus, compile_program, run_untrusted
from genplan.sandbox.runtime import new_program_module

HEURISTIC = """
def make_heuristic(objects, init, goal):
    goal_atoms = sorted(goal)

    def h(state):
        missing = 0
        for atom in goal_atoms:
            if atom not in state:
                missing += 1
        return missing

    return h
"""
"""Goal count, written the way a model writes it (a loop over the goal's atoms)."""

SEARCH = "genplan.approaches.heuristic.harness:search"


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def _plain(source: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "plain"}
    exec(compile(source, "<plain>", "exec"), namespace)
    return namespace


def _guarded(source: str) -> dict[str, Any]:
    module = new_program_module()
    exec(compile_program(source), module.__dict__)
    return module.__dict__


def _in_process(
    load: Callable[[str], dict[str, Any]], task: dict[str, Any], options: dict[str, Any]
) -> dict[str, Any]:
    """The harness call as the child makes it: the task crosses JSON, the program is compiled."""
    namespace = load(HEURISTIC)
    value = harness.search(namespace, HEURISTIC, json.loads(json.dumps(task)), dict(options))
    return json.loads(json.dumps(value))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--domains", default="gripper,delivery,ferry,miconic", help="built-in domains")
    parser.add_argument("--states", type=int, default=20_000, help="state cap of each search (default 20000)")
    parser.add_argument("--seconds", type=float, default=120.0, help="time limit of each search")
    parser.add_argument(
        "--repeat", type=int, default=3, help="rounds per figure; the best counts (default 3)"
    )
    parser.add_argument("--isolation", default="bwrap", choices=[i.value for i in Isolation])
    args = parser.parse_args()
    limits = Limits(isolation=Isolation(args.isolation))
    options = {"seconds": args.seconds, "max_states": args.states}
    print(f"GBFS with a goal-count heuristic, state cap {args.states:,}, best of {args.repeat}; {_load()}")
    header = f"{'domain':<10} {'problem':<14} {'expanded':>9} {'plain':>12} {'guarded':>12} {'sandboxed':>12} {'ratio':>6}"
    print(header)
    ratios = []
    with tempfile.TemporaryDirectory() as work:
        for domain in args.domains.split(","):
            problem = load_domain_problems(domain, 0, 1, Path(work)).evaluation[0]
            task = task_json(problem)
            figures: dict[str, tuple[float, dict[str, Any]]] = {}
            for name, action in (
                ("plain", lambda task=task: _in_process(_plain, task, options)),
                ("guarded", lambda task=task: _in_process(_guarded, task, options)),
                ("sandboxed", lambda task=task: _sandboxed(task, options, limits, args.seconds)),
            ):
                answer: dict[str, Any] = {}

                def timed(
                    action: Callable[[], dict[str, Any]] = action, answer: dict[str, Any] = answer
                ) -> None:
                    answer.update(action())

                figures[name] = (best_seconds(timed, args.repeat), answer)
            expanded = {answer["expanded"] for _, answer in figures.values()}
            assert len(expanded) == 1, f"the three searches differ: {figures}"
            count = expanded.pop()
            rate = {name: count / seconds for name, (seconds, _) in figures.items()}
            ratio = rate["sandboxed"] / rate["plain"]
            ratios.append(ratio)
            status = figures["plain"][1]["status"]
            print(
                f"{domain:<10} {problem.name:<14} {count:>9,} {rate['plain']:>9,.0f}/s {rate['guarded']:>9,.0f}/s "
                f"{rate['sandboxed']:>9,.0f}/s {ratio:>5.2f}x  ({status})"
            )
    print(
        f"sandboxed / in-process (plain CPython): {min(ratios):.2f}x to {max(ratios):.2f}x (target >= 0.7x)"
    )
    print(f"after: {_load()}")


def _sandboxed(
    task: dict[str, Any], options: dict[str, Any], limits: Limits, seconds: float
) -> dict[str, Any]:
    outcome = run_untrusted(
        HEURISTIC, SEARCH, [HEURISTIC, task, options], timeout=seconds + 10, limits=limits
    )
    if outcome.status is not RunStatus.SUCCESS:
        raise SystemExit(
            f"the sandboxed search failed: {outcome.status.value} {outcome.reason or outcome.traceback}"
        )
    return dict(outcome.value)


if __name__ == "__main__":
    main()
