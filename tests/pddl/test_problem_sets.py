"""User folders: the IPC 2023 learning-track layout, train/eval folders, plain folders, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from genplan.errors import ConfigurationError
from genplan.pddl.problem import load_problem
from genplan.pddl.problem_sets import discover_problem_set, load_domain_problems, natural_key

IPC_STYLE = Path(__file__).resolve().parents[1] / "data" / "ipc-style"


def _touch(path: Path, size: int = 10) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x" * size)
    return path


def test_ipc_2023_layout(tmp_path: Path) -> None:
    _touch(tmp_path / "domain.pddl")
    for name in ("p10.pddl", "p2.pddl", "p1.pddl"):
        _touch(tmp_path / "training" / "easy" / name)
    for level in ("hard", "easy", "medium"):
        _touch(tmp_path / "testing" / level / "p01.pddl")
    found = discover_problem_set(tmp_path)
    assert [p.name for p in found.training] == ["p1.pddl", "p2.pddl", "p10.pddl"]
    assert [p.parent.name for p in found.evaluation] == ["easy", "medium", "hard"]


def test_plain_folder_uses_the_smallest_as_training(tmp_path: Path) -> None:
    _touch(tmp_path / "domain.pddl")
    for index in range(12):
        _touch(tmp_path / f"problem{index}.pddl", size=100 - index)
    found = discover_problem_set(tmp_path)
    assert len(found.evaluation) == 12 and found.evaluation[1].name == "problem1.pddl"
    assert {p.name for p in found.training} == {f"problem{i}.pddl" for i in range(2, 12)}


@pytest.mark.parametrize("name", ["blocksworld", "haulage", "miconic"])
def test_the_ipc_style_folders_load_as_user_problem_sets_in_the_flat_layout(
    name: str, tmp_path: Path
) -> None:
    """tests/data/ipc-style: each folder is a domain.pddl beside its problem files, as a user
    would pass it to ``--domain``; every file is an evaluation problem and, being fewer than
    the default ten, a training problem too, smallest first."""
    folder = IPC_STYLE / name
    files = sorted((p for p in folder.glob("*.pddl") if p.name != "domain.pddl"), key=natural_key)
    problems = load_domain_problems(str(folder), 0, None, tmp_path)
    assert problems.name == name and problems.problem_set == "folder" and problems.available == len(files)
    assert [Path(p).name for p in problems.evaluation_sources] == [p.name for p in files]
    assert list(problems.evaluation) == [load_problem(p, problems.domain) for p in files]
    assert list(problems.training) == sorted(
        problems.evaluation, key=lambda p: (len(p.object_types), len(p.init))
    )


def test_train_and_eval_subfolders(tmp_path: Path) -> None:
    _touch(tmp_path / "domain.pddl")
    _touch(tmp_path / "train" / "a.pddl")
    _touch(tmp_path / "eval" / "b.pddl")
    found = discover_problem_set(tmp_path)
    assert [p.name for p in found.training] == ["a.pddl"] and [p.name for p in found.evaluation] == ["b.pddl"]


def test_missing_domain_is_a_clear_error(tmp_path: Path) -> None:
    _touch(tmp_path / "p1.pddl")
    with pytest.raises(ConfigurationError, match=r"no domain\.pddl \(found: p1\.pddl\)"):
        discover_problem_set(tmp_path)


def test_folder_with_only_a_domain_is_an_error(tmp_path: Path) -> None:
    _touch(tmp_path / "domain.pddl")
    with pytest.raises(ConfigurationError, match="no problem files"):
        discover_problem_set(tmp_path)


def test_a_validation_folder_holds_validation_problems(tmp_path: Path) -> None:
    _touch(tmp_path / "domain.pddl")
    _touch(tmp_path / "training" / "easy" / "p01.pddl")
    _touch(tmp_path / "testing" / "easy" / "p01.pddl")
    for name in ("p2.pddl", "p10.pddl"):
        _touch(tmp_path / "validation" / "easy" / name)
    found = discover_problem_set(tmp_path)
    assert [p.name for p in found.validation] == ["p2.pddl", "p10.pddl"]
    assert all(p.parent.parent.name == "validation" for p in found.validation)
    assert [p.parent.parent.name for p in found.training] == ["training"]
    plain = tmp_path / "plain"
    _touch(plain / "domain.pddl")
    _touch(plain / "p1.pddl")
    assert discover_problem_set(plain).validation == ()


@pytest.mark.parametrize(
    "key, level",
    [
        ("testing/hard/p03.pddl", "hard"),
        ("testing/easy/p03.pddl", "easy"),
        ("medium/p1.pddl", "medium"),
        ("eval/eval-03.pddl", None),
        ("hard.pddl", None),
        ("rover-21", None),
    ],
)
def test_the_ipc_level_is_read_from_a_problem_key(key: str, level: str | None) -> None:
    from genplan.pddl.problem_sets import problem_level

    assert problem_level(key) == level
