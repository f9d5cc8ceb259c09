"""The robustness check at evaluation (``--shuffles K``): is the program's plan independent of order?

A program that iterates over its ``objects``, ``init`` or ``goal`` sets sees them in an order
fixed by the sandbox's hash seed (:attr:`genplan.sandbox.Limits.hash_seed`) and by the order
they were built in. A program that is right only for that order (it takes "the first" object,
or assumes atoms arrive sorted) is order-sensitive: it may solve every evaluation problem here
and fail on another machine or Python. Each evaluation problem is run ``K`` more times, run
``i`` with hash seed ``hash_seed + i`` and the objects and atoms shuffled by
``random.Random(i)`` before the program's sets are built; a problem is solved only if every
run returns a valid plan (Correa, Pereira and Seipp 2025 evaluate on shuffled orders too).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from genplan.approaches.generalized_plan.checking import ProblemCheck, check_program
from genplan.approaches.generalized_plan.evaluate import default_workers
from genplan.pddl.problem import Problem
from genplan.plans.failures import FailureKind
from genplan.sandbox import Limits
from genplan.sandbox.limits import MAX_HASH_SEED


def shuffled_limits(limits: Limits, run: int) -> Limits:
    """The limits of shuffled run ``run`` (1 ... K): hash seed ``limits.hash_seed + run``."""
    return dataclasses.replace(limits, hash_seed=(limits.hash_seed + run) % (MAX_HASH_SEED + 1))


@dataclass(frozen=True)
class ShuffledCheck:
    """A problem run in its usual order and ``K`` shuffled orders.

    Attributes:
        base: the run in the usual order (sorted, the run's hash seed).
        shuffled: run ``i`` (1 ... K) at index ``i - 1``.
        hash_seeds: the hash seed of each shuffled run.
    """

    base: ProblemCheck
    shuffled: tuple[ProblemCheck, ...]
    hash_seeds: tuple[int, ...]

    @property
    def solved(self) -> bool:
        """Whether every run returned a valid plan."""
        return self.base.solved and all(check.solved for check in self.shuffled)

    @property
    def order_sensitive(self) -> bool:
        """Whether some runs returned a valid plan and others did not."""
        return len({check.solved for check in (self.base, *self.shuffled)}) > 1

    @property
    def failure(self) -> FailureKind | None:
        """The first failure: the usual order's, else the first shuffled run's; ``None`` if solved."""
        for check in (self.base, *self.shuffled):
            if check.failure is not None:
                return check.failure
        return None

    @property
    def first_failed_run(self) -> int | None:
        """0 for the usual order, ``i`` for shuffled run ``i``, ``None`` when all were valid."""
        for run, check in enumerate((self.base, *self.shuffled)):
            if not check.solved:
                return run
        return None


def check_shuffled(
    program: str, problem: Problem, shuffles: int, *, timeout: float, limits: Limits
) -> ShuffledCheck:
    """Run ``program`` on ``problem`` in its usual order, then in ``shuffles`` shuffled orders
    (run ``i`` with :func:`shuffled_limits` and order seed ``i``), one after the other.

    Args:
        timeout: seconds per run.
        limits: the sandbox handle (its hash seed is the usual order's).
    """
    base = check_program(program, problem, timeout=timeout, limits=limits)
    shuffled = tuple(
        check_program(program, problem, timeout=timeout, limits=shuffled_limits(limits, run), order_seed=run)
        for run in range(1, shuffles + 1)
    )
    seeds = tuple(shuffled_limits(limits, run).hash_seed for run in range(1, shuffles + 1))
    return ShuffledCheck(base, shuffled, seeds)


def evaluate_shuffled(
    program: str,
    problems: Sequence[Problem],
    shuffles: int,
    *,
    timeout: float,
    workers: int | None = None,
    on_result: Callable[[ShuffledCheck, Problem], None] | None = None,
    limits: Limits,
) -> list[ShuffledCheck]:
    """Run ``program`` on every problem in its usual order and ``shuffles`` shuffled orders.

    Runs go in parallel (``workers`` at once, default the usable cores), each through a
    sandbox worker started with its run's hash seed.

    Args:
        program: Python source defining ``get_plan``.
        problems: evaluation problems.
        shuffles: shuffled runs per problem (``K``).
        timeout: seconds per run.
        workers: runs at once.
        on_result: called with each problem's check once all its runs finished.
        limits: the sandbox's limits (its hash seed is the usual order's).

    Returns:
        One :class:`ShuffledCheck` per problem, in the order given.
    """
    seeds = tuple(shuffled_limits(limits, run).hash_seed for run in range(1, shuffles + 1))
    runs: dict[tuple[int, int], ProblemCheck] = {}
    done: dict[int, int] = {}
    results: dict[int, ShuffledCheck] = {}

    def run_one(index: int, run: int) -> None:
        run_limits = limits if run == 0 else shuffled_limits(limits, run)
        check = check_program(
            program, problems[index], timeout=timeout, limits=run_limits, order_seed=run or None
        )
        runs[(index, run)] = check

    with ThreadPoolExecutor(max_workers=workers or default_workers()) as pool:
        futures = {
            pool.submit(run_one, index, run): index
            for index in range(len(problems))
            for run in range(shuffles + 1)
        }
        for future in futures:
            future.result()
            index = futures[future]
            done[index] = done.get(index, 0) + 1
            if done[index] == shuffles + 1:
                results[index] = ShuffledCheck(
                    runs[(index, 0)], tuple(runs[(index, run)] for run in range(1, shuffles + 1)), seeds
                )
                if on_result is not None:
                    on_result(results[index], problems[index])
    return [results[index] for index in range(len(problems))]
