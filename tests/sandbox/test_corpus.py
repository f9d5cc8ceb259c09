"""Zero false rejections: every saved program and the idioms real models write run unchanged.

A false rejection costs the user a feedback round, so the corpus is every program in
``synthesized/`` (the final ``program.py`` of each run and every program in its recorded
conversation) plus ``idioms/``: programs of our own with the constructs models use (classes
with special methods, dataclasses, enums, named tuples, heapq, itertools, collections,
functools.lru_cache/cmp_to_key/wraps, recursion, sorting with keys, ``self._cache``,
``import queue``, match, generators, exceptions, ``self.__class__.__name__``, ``__new__``,
``__getattr__``, ``vars(obj)``, ``import time`` and ``import sys``). Each idiom program gives,
in the sandbox, the very plan plain CPython gives.
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from genplan.llm.extract import extract_code
from genplan.paths import builtin_domain_file, data_folder
from genplan.pddl.described import DescribedTask
from genplan.pddl.domain import load_domain
from genplan.pddl.generate import generate_problems
from genplan.pddl.problem import Problem, load_problem
from genplan.pddl.selection import load_chosen_problems, parse_selection
from genplan.plans.validate import check_plan
from genplan.sandbox import RunStatus, compile_program, load_trusted, run_program

IDIOMS = sorted((Path(__file__).parent / "idioms").glob("*.py"))
SAVED = sorted(data_folder("synthesized").glob("*/*/program.py"))


def _conversation_programs() -> list[tuple[str, str]]:
    programs = []
    for conversation in sorted(data_folder("synthesized").glob("*/*/conversation.jsonl")):
        for number, line in enumerate(conversation.read_text().splitlines()):
            response = json.loads(line).get("response")
            code = extract_code(response) if isinstance(response, str) else None
            if code and "def get_plan" in code:
                programs.append(
                    (f"{conversation.parent.parent.name}/{conversation.parent.name}#{number}", code)
                )
    return programs


CONVERSATION_PROGRAMS = _conversation_programs()


def test_the_corpus_is_there() -> None:
    assert len(SAVED) >= 11 and len(CONVERSATION_PROGRAMS) >= len(SAVED) and len(IDIOMS) >= 5


@pytest.mark.parametrize(
    "label, code", CONVERSATION_PROGRAMS, ids=[label for label, _ in CONVERSATION_PROGRAMS]
)
def test_every_recorded_program_compiles_and_loads(label: str, code: str) -> None:
    compile_program(code)
    load_trusted(code)


@pytest.mark.parametrize("path", SAVED, ids=[f"{p.parent.parent.name}/{p.parent.name}" for p in SAVED])
def test_every_saved_program_solves_in_the_sandbox(path: Path, tmp_path: Path) -> None:
    metadata = json.loads((path.parent / "metadata.json").read_text())
    # the run's domain from its record: the folder may name a problem set too (blocksworld-planbench)
    for problem in _two_training_problems(metadata, tmp_path):
        outcome = run_program(path.read_text(), problem.objects, problem.init, problem.goal, timeout=30)
        assert outcome.status is RunStatus.SUCCESS, outcome
        if path.parent.name.startswith("no-names"):  # written for obfuscated names: runs, plans nothing here
            continue
        assert check_plan(problem, outcome.plan).valid
        assert check_plan(
            problem, load_trusted(path.read_text())(problem.objects, problem.init, problem.goal)
        ).valid


PROBLEM = (
    {"a", "b", "c", "dd"},
    {("at", "a", "b"), ("free", "c"), ("on", "a", "b", "c", "dd"), ("at", "b", "c")},
    {("at", "a", "c")},
)


def _plain_cpython(source: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    module = types.ModuleType("idiom")
    monkeypatch.setitem(sys.modules, "idiom", module)
    limit = sys.getrecursionlimit()  # an idiom may set its own (sys.setrecursionlimit)
    try:
        exec(compile(source, "<idiom>", "exec"), module.__dict__)
        return module.get_plan(*(set(part) for part in PROBLEM))
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize("path", IDIOMS, ids=[p.stem for p in IDIOMS])
def test_idioms_run_in_the_sandbox_as_in_plain_python(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = path.read_text()
    outcome = run_program(source, *PROBLEM, timeout=30)
    assert outcome.status is RunStatus.SUCCESS, outcome.traceback or outcome.reason
    assert outcome.plan == _plain_cpython(source, monkeypatch)
    assert load_trusted(source)(*PROBLEM) == outcome.plan


def _two_training_problems(metadata: dict[str, object], folder: Path) -> list[Problem]:
    """Two training problems of the run's domain: generated ones, or for a problem set that
    brings its own domain (PlanBench's Logistics) the set's own."""
    domain_name = str(metadata["domain"])
    if metadata.get("generators") is None and metadata.get("problem_set") not in (None, "generated"):
        chosen = load_chosen_problems(
            domain_name, 0, None, parse_selection(str(metadata["problem_set"])), folder, generators="v2"
        )
        assert not isinstance(chosen, DescribedTask)
        return list(chosen.training[:2])
    domain = load_domain(builtin_domain_file(domain_name))
    problems = []
    for item in generate_problems(domain_name, "train", 0, n=2):
        file = folder / item.file_name
        file.write_text(item.text)
        problems.append(load_problem(file, domain))
    return problems
