"""Benchmark: the policy search of PG3, PE and PC per domain, beside Table 1 of Silver et al. (2024).

For each domain the chosen scores learn a lifted decision list from the domain's seed-0 training
problems (``genplan.approaches.pg3``, its default budget unless flags change it), and the policy
is executed on the evaluation problems, each plan checked like every other plan. Printed per
domain and score: the policy search's wall-clock seconds, why it stopped (``solved``: a policy
solves every training problem; ``policies`` / ``seconds``: that budget ran out), candidates
scored, the training problems the policy solves, and the fraction of evaluation problems solved
beside the paper's figure (Table 1, mean over 10 seeds).

Target: PG3 finds its policy within the budget on the six domains where the paper's PG3 succeeds
(all but heavy): the ``target`` column says ``met`` when the search stopped ``solved`` where the
paper's PG3 solved every problem (or when it did not where the paper's figure is 0.00), ``missed``
otherwise, ``-`` for PE and PC (no target). The machine's load (:func:`os.getloadavg`, 1-minute
average, on a machine of ``os.cpu_count()`` cores) is printed before the first search and after
each row, since the seconds depend on it.

Run: ``python scripts/bench_pg3.py [--domains gripper,ferry] [--scores pg3,pe,pc] [--n 30]
[--max-policies 1000] [--max-seconds 1800] [--json out.json]``
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from genplan.approaches.base import problem_key
from genplan.approaches.pg3.approach import evaluate_policy, fast_downward_planner
from genplan.approaches.pg3.execution import execute_policy
from genplan.approaches.pg3.learning import learn_policy
from genplan.approaches.pg3.policy import policy_to_text
from genplan.approaches.pg3.settings import PolicySearchSettings
from genplan.pddl.problem_sets import load_domain_problems

DOMAINS = ("delivery", "forest", "gripper", "miconic", "ferry", "spanner", "heavy")
PAPER = {  # Silver et al. 2024, Table 1: PG3, PE, PC
    "delivery": (1.00, 0.00, 0.10),
    "forest": (1.00, 1.00, 0.16),
    "gripper": (1.00, 0.00, 0.20),
    "miconic": (1.00, 0.00, 0.10),
    "ferry": (1.00, 0.00, 0.90),
    "spanner": (1.00, 1.00, 0.56),
    "heavy": (0.00, 0.00, 0.00),
}
COLUMN = {"pg3": 0, "pe": 1, "pc": 2}


def load() -> str:
    """The 1-, 5- and 15-minute load averages and the core count, e.g. ``load 1.02 0.80 0.75 on 2 cores``."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def target(kind: str, stop: str, paper: float | None) -> str:
    """``met`` / ``missed`` for PG3 (see the module), ``-`` for the other scores."""
    if kind != "pg3" or paper is None:
        return "-"
    return "met" if (stop == "solved") == (paper >= 1.0) else "missed"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--domains", default=",".join(DOMAINS))
    parser.add_argument("--scores", default="pg3,pe,pc")
    parser.add_argument("--n", type=int, default=30, help="evaluation problems per domain")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-policies", type=int, default=PolicySearchSettings.max_policies)
    parser.add_argument("--max-seconds", type=float, default=PolicySearchSettings.max_seconds)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per evaluation problem")
    parser.add_argument("--policies", type=Path, default=None, help="folder to write each policy.txt")
    parser.add_argument("--json", type=Path, default=None, help="append one JSON line per domain and score")
    args = parser.parse_args()
    settings = PolicySearchSettings(max_policies=args.max_policies, max_seconds=args.max_seconds)
    print(
        f"budget: {settings.max_policies} candidate policies, {settings.max_seconds:g} s per search; {load()}",
        flush=True,
    )
    header = (
        f"{'domain':<10} {'score':<5} {'search s':>9} {'stop':<9} {'scored':>6} {'rules':>5} {'train':>6} "
        f"{'solved':>7} {'paper':>6} {'target':<7} load"
    )
    print(header, flush=True)
    verdicts: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="bench-pg3-") as work:
        for domain in args.domains.split(","):
            problems = load_domain_problems(domain, args.seed, args.n, Path(work))
            training = list(problems.training[:-1] if problems.size_check else problems.training)
            for kind in args.scores.split(","):
                planner = fast_downward_planner(settings) if kind == "pc" else None
                started = time.perf_counter()
                learned = learn_policy(kind, training, settings, planner)
                total = time.perf_counter() - started
                result = learned.result
                policy = result.policy
                train = sum(execute_policy(policy, p, settings.max_steps).reached_goal for p in training)
                solved = sum(
                    evaluate_policy(policy, p, problem_key(p, problems.root), args.timeout).solved
                    for p in problems.evaluation
                )
                fraction = solved / len(problems.evaluation)
                paper = PAPER.get(domain, (None, None, None))[COLUMN[kind]]
                verdict = target(kind, result.stop, paper)
                if kind == "pg3":
                    verdicts[domain] = verdict
                now = load()
                print(
                    f"{domain:<10} {kind:<5} {result.seconds:>9.1f} {result.stop:<9} {result.scored:>6} "
                    f"{len(policy.rules):>5} {train:>3}/{len(training):<2} {fraction:>7.2f} "
                    f"{'-' if paper is None else f'{paper:.2f}':>6} {verdict:<7} {now.split(' on ')[0][5:]}",
                    flush=True,
                )
                if args.policies is not None:
                    args.policies.mkdir(parents=True, exist_ok=True)
                    (args.policies / f"{domain}-{kind}.txt").write_text(policy_to_text(policy, domain))
                if args.json is not None:
                    row = {
                        "domain": domain,
                        "score": kind,
                        "search_seconds": round(result.seconds, 2),
                        "total_seconds": round(total, 2),
                        "stop": result.stop,
                        "scored": result.scored,
                        "rules": len(policy.rules),
                        "training_solved": train,
                        "training": len(training),
                        "fraction_solved": fraction,
                        "paper": paper,
                        "target": verdict,
                        "load": os.getloadavg()[0],
                    }
                    with args.json.open("a") as stream:
                        stream.write(json.dumps(row) + "\n")
    if verdicts:
        met = [d for d, v in verdicts.items() if v == "met"]
        print(
            f"PG3 target met on {len(met)} of {len(verdicts)} domains ({', '.join(met) or 'none'}); {load()}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
