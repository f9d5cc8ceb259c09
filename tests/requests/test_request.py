"""The run request: each default written once (on RunRequest), read by the command line and the
grid alike; every command's settings flags generated from the settings dataclasses; the one parser."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from genplan.approaches import approach_names, get_approach
from genplan.approaches.generalized_plan.settings import SynthesisSettings
from genplan.cli import build_parser
from genplan.cli.request_options import request_from_arguments
from genplan.cli.settings_options import SETTING_PREFIX
from genplan.errors import ConfigurationError
from genplan.experiments.grid import cell_request
from genplan.experiments.grid_file import build_grid
from genplan.experiments.spec import grid_cells
from genplan.llm import BackendSpec
from genplan.pddl.paper_problems import PAPER_COUNT
from genplan.requests.request import RunRequest, parse_request, request_default

CHOSEN = {"approach", "domain", "settings"}
"""What every command line names itself (no default)."""


@pytest.fixture(autouse=True)
def no_model_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENPLAN_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def _defaults_differing(request: RunRequest) -> dict[str, Any]:
    """The request's values that are not RunRequest's defaults (the chosen ones left out)."""
    return {
        item.name: getattr(request, item.name)
        for item in dataclasses.fields(RunRequest)
        if item.name not in CHOSEN and getattr(request, item.name) != request_default(item.name)
    }


def _parsed(argv: list[str]) -> Any:
    return build_parser(argv).parse_args(argv)


def test_the_defaults_have_one_place_that_every_command_reads() -> None:
    assert request_default("eval_timeout") == 30.0
    run = _parsed(["run", "--approach", "io", "--domain", "gripper"])
    assert _defaults_differing(request_from_arguments(run, "io", get_approach("io").settings_type)) == {}
    synthesize = _parsed(["synthesize", "--domain", "heavy"])
    request = request_from_arguments(synthesize, "generalized-plan", SynthesisSettings)
    assert _defaults_differing(request) == {} and request.settings == SynthesisSettings()
    from genplan.cli import evaluate

    given = _parsed(["evaluate", "--program", "p.py", "--domain", "heavy"])
    settings_type = get_approach(evaluate.PROGRAM).settings_type
    request = request_from_arguments(
        given, evaluate.PROGRAM, settings_type, flags=evaluate.EVALUATE_FLAGS, extra={"size_check": False}
    )
    assert _defaults_differing(request) == {"size_check": False}  # evaluating trains nothing


def test_a_grid_file_with_no_keys_gives_the_request_defaults(tmp_path: Path) -> None:
    spec = build_grid({"domains": "heavy", "model": {}})
    for cell in grid_cells(spec):
        request = cell_request(spec, cell)
        differing = _defaults_differing(request)
        # The grid's own: the paper's 30 problems for every domain (a folder too), one problem at a
        # time per cell (cells run at once), its runs folder resolved for the workers, the
        # generators of the recording each cell replays.
        assert differing.pop("n") == PAPER_COUNT
        assert differing.pop("workers") == 1
        assert differing.pop("runs_dir") == Path(request_default("runs_dir")).resolve()
        assert differing.pop("generators") == cell.generators
        assert differing.pop("cache_dir") == Path(request_default("runs_dir")) / "cache"
        assert differing == {}
        assert request.backend == BackendSpec()


def _setting_flags(parser_argv: list[str]) -> set[str]:
    parser = build_parser(parser_argv)
    command = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    sub = command.choices[parser_argv[0]]  # type: ignore[attr-defined]
    return {a.dest.removeprefix(SETTING_PREFIX) for a in sub._actions if a.dest.startswith(SETTING_PREFIX)}


def _fields(settings_type: type) -> set[str]:
    return {item.name for item in dataclasses.fields(settings_type)}


@pytest.mark.parametrize("approach", approach_names())
def test_run_has_one_flag_per_setting_of_the_approach(approach: str) -> None:
    flags = _setting_flags(["run", "--approach", approach])
    assert flags == _fields(get_approach(approach).settings_type)


def test_synthesize_and_evaluate_flags_are_their_settings() -> None:
    assert _setting_flags(["synthesize"]) == _fields(SynthesisSettings)  # --prompt-problems too
    evaluated = _fields(get_approach("evaluate-program").settings_type) | _fields(
        get_approach("evaluate-policy").settings_type
    )
    assert _setting_flags(["evaluate"]) == evaluated == {"program", "name_mapping", "policy"}


def test_the_papers_spellings_still_parse() -> None:
    argv = ["synthesize", "--domain", "heavy", "--no-cot", "--no-debug", "--no-names", "--timeout", "5"]
    argv += ["--prompt-problems", "3"]
    settings = request_from_arguments(_parsed(argv), "generalized-plan", SynthesisSettings).settings
    assert settings == SynthesisSettings(
        chain_of_thought=False, debugging=False, names=False, timeout=5.0, prompt_problems=3
    )
    assert settings.label == "no-cot+no-debug+no-names+timeout-5+prompt-problems-3"
    long = ["run", "--approach", "generalized-plan", "--domain", "heavy", "--no-chain-of-thought"]
    assert (
        request_from_arguments(_parsed(long), "generalized-plan", SynthesisSettings).settings.label
        == "no-cot"
    )


def test_the_parser_names_what_it_refuses() -> None:
    with pytest.raises(ConfigurationError, match="unknown run value"):
        parse_request({"approach": "io", "domain": "heavy", "timeout": 3})
    with pytest.raises(ConfigurationError, match="io settings: unknown setting 'rounds'"):
        parse_request({"approach": "io", "domain": "heavy", "settings": {"rounds": 2}})
    with pytest.raises(ConfigurationError, match="--eval-timeout must be a positive"):
        parse_request({"approach": "io", "domain": "heavy", "eval_timeout": 0})
    with pytest.raises(ConfigurationError, match="no domain given"):
        parse_request({"approach": "io"})
    request = parse_request({"approach": "io", "domain": "blocksworld", "problems": "planbench", "n": 4})
    assert request.domain_name == "blocksworld-planbench-x4" and request.answer_cache == Path("runs/cache")


def test_the_evaluation_time_out_has_no_default_below_the_request() -> None:
    """Functions and the run context that take the evaluation time-out get it from the request;
    none carries its own 30 s (before, ~15 signatures did)."""
    import inspect

    from genplan.approaches.generalized_plan.checking import check_program
    from genplan.approaches.generalized_plan.evaluate import evaluate_program
    from genplan.approaches.generalized_plan.robustness import check_shuffled, evaluate_shuffled
    from genplan.experiments.figure3 import measure_runtime_vs_size
    from genplan.runs.session import RunContext

    for function in (
        check_program,
        evaluate_program,
        check_shuffled,
        evaluate_shuffled,
        measure_runtime_vs_size,
    ):
        assert inspect.signature(function).parameters["timeout"].default is inspect.Parameter.empty, function
    assert inspect.signature(RunContext).parameters["eval_timeout"].default is inspect.Parameter.empty
    from genplan.experiments.evaluation import EvaluationJob
    from genplan.experiments.spec import GridSpec

    assert (
        EvaluationJob("d", "", ()).timeout
        == GridSpec((), (), ()).eval_timeout
        == request_default("eval_timeout")
    )
