"""Evaluation fanned out as one task per program and problem."""

from __future__ import annotations

from fake_programs import CORRECT, RAISES, heavy_problem

from genplan.experiments.engines import Finished, SequentialEngine, Task
from genplan.experiments.evaluation import EvaluationJob, evaluate_jobs, evaluation_tasks, makespan


def test_every_problem_is_a_task_and_results_keep_the_problems_order() -> None:
    problems = (heavy_problem("h3", 3), heavy_problem("h5", 5))
    jobs = [EvaluationJob("right", CORRECT, problems, 10), EvaluationJob("wrong", RAISES, problems, 10)]
    assert [t.key for t in evaluation_tasks(jobs)] == [
        "eval-right-0",
        "eval-right-1",
        "eval-wrong-0",
        "eval-wrong-1",
    ]
    seen: list[str] = []
    results = evaluate_jobs(jobs, SequentialEngine(), on_result=lambda name, result: seen.append(name))
    assert [r["problem"] for r in results["right"]] == ["h3", "h5"]
    assert [r["status"] for r in results["right"]] == ["solved", "solved"]
    assert [r["plan_length"] for r in results["right"]] == [3, 5]
    assert [r["status"] for r in results["wrong"]] == ["python-exception"] * 2
    assert all(r["task_seconds"] >= r["seconds"] for rows in results.values() for r in rows)
    assert sorted(seen) == ["right", "right", "wrong", "wrong"]


class _LosesTheSecondTask(SequentialEngine):
    def run(self, tasks, *, tick=1.0):  # type: ignore[no-untyped-def]
        for index, finished in enumerate(super().run(tasks, tick=tick)):
            yield Finished(finished.task, None, RuntimeError("worker lost")) if index == 1 else finished


def test_a_task_that_failed_is_a_crashed_problem() -> None:
    problems = (heavy_problem("h3", 3), heavy_problem("h4", 4))
    results = evaluate_jobs([EvaluationJob("d", CORRECT, problems, 10)], _LosesTheSecondTask())
    assert [r["status"] for r in results["d"]] == ["solved", "crashed"]
    assert results["d"][1]["message"] == "RuntimeError: worker lost" and results["d"][1]["problem"] == "h4"


def test_makespan_hands_tasks_to_the_worker_free_first() -> None:
    assert makespan([3, 1, 1, 1], 1) == 6
    assert makespan([3, 1, 1, 1], 2) == 3
    assert makespan([1, 1, 1, 3], 2) == 4  # in order, no look-ahead
    assert makespan([], 4) == 0


def test_a_sequential_task_error_does_not_stop_the_others() -> None:
    def boom() -> None:
        raise ValueError("bad")

    outcomes = list(SequentialEngine().run([Task("a", boom, ()), Task("b", int, ("7",))]))
    assert isinstance(outcomes[0].error, ValueError) and outcomes[1].value == 7
