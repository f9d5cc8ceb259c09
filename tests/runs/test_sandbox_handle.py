"""The sandbox handle is required wherever the generalized plan runs model code: a forgotten
handle is an error, never silently the default limits and isolation."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from genplan.approaches.generalized_plan.candidates import validate
from genplan.approaches.generalized_plan.checking import check_program, check_training
from genplan.approaches.generalized_plan.evaluate import evaluate_program
from genplan.approaches.generalized_plan.robustness import check_shuffled, evaluate_shuffled
from genplan.approaches.generalized_plan.scaling import check_scaling
from genplan.approaches.generalized_plan.synthesize import synthesize

RUN_MODEL_CODE = [
    synthesize,
    check_program,
    check_training,
    validate,
    check_scaling,
    evaluate_program,
    evaluate_shuffled,
    check_shuffled,
]


@pytest.mark.parametrize("function", RUN_MODEL_CODE, ids=lambda f: f.__name__)
def test_the_sandbox_handle_has_no_default(function: Callable[..., Any]) -> None:
    limits = inspect.signature(function).parameters["limits"]
    assert limits.default is inspect.Parameter.empty


def test_a_forgotten_handle_is_an_error() -> None:
    with pytest.raises(TypeError, match="limits"):
        evaluate_program("def get_plan(objects, init, goal):\n    return []\n", [])  # type: ignore[call-arg]
