"""Scaling feedback: will a program that solves the training problems be fast enough on the largest?

Beyond the paper (whose training problems are all small, so a correct but slow program is
never caught before evaluation). After a program solves every training problem, it is timed
on each of them in the sandbox (:func:`genplan.approaches.generalized_plan.profiling.time_get_plan`,
the same budget as a training run), its runtime is fitted against problem size as a power
law, ``t = a * n^k`` (least squares on ``log t`` against ``log n``, once with ``n`` the number
of objects and once the number of initial atoms; the better fit is kept), and the time is
extrapolated from the largest training problem to the size of the largest evaluation problem
(sizes only: nothing of that problem's content is used). When the projection exceeds the
evaluation budget, the model gets a fifth kind of feedback (:attr:`FailureKind.SCALING`): the
times per size, the fitted growth, the projection, and the lines that ran most often on the
largest training problem (:func:`~genplan.approaches.generalized_plan.profiling.profile_get_plan`).

Times are observations (:mod:`genplan.runs.observations`): recorded, so a rerun or replay sends the same text.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from genplan.approaches.generalized_plan import refinement_prompts as texts
from genplan.pddl.problem import Problem
from genplan.runs.observations import Observations, observation_key
from genplan.sandbox import Limits, RunStatus, program_arguments, run_untrusted

TIME_HARNESS = "genplan.approaches.generalized_plan.profiling:time_get_plan"
PROFILE_HARNESS = "genplan.approaches.generalized_plan.profiling:profile_get_plan"

MIN_TIMED_SECONDS = 0.05
"""Each training problem is timed until this many seconds were spent in ``get_plan``..."""
MAX_TIMED_CALLS = 20
"""... or this many calls were made; the fastest call counts."""
TIMING_FLOOR_SECONDS = 0.001
"""Times below this are not fitted: a call of a few microseconds is timer, cache and scheduler
noise on a loaded machine (one noisy point made a linear program fit exponent 3.77), so its
growth is fitted on the work alone (line events, counted exactly)."""
MAX_PROFILE_EVENTS = 3_000_000
"""Line events the profiler counts before it stops (a few seconds of tracing)."""
HOT_LINES_SHOWN = 5
"""Hottest lines shown in the feedback."""

MEASURES = (("objects", "objects"), ("init_atoms", "initial atoms"))
"""Size measures the growth is fitted against: (field of :class:`ProblemSize`, words)."""


@dataclass(frozen=True)
class ProblemSize:
    """A problem's size: its objects and initial-state atoms."""

    objects: int
    init_atoms: int

    @classmethod
    def of(cls, problem: Problem) -> ProblemSize:
        """The size of ``problem``."""
        return cls(len(problem.objects), len(problem.init))

    @classmethod
    def largest(cls, problems: Sequence[Problem]) -> ProblemSize:
        """The most objects and the most initial atoms over ``problems`` (each its own maximum).

        Raises:
            ValueError: no problems.
        """
        sizes = [cls.of(problem) for problem in problems]
        return cls(max(s.objects for s in sizes), max(s.init_atoms for s in sizes))


@dataclass(frozen=True)
class ScalingTarget:
    """What a program must scale to: the largest evaluation size and the time budget there.

    Attributes:
        size: the largest evaluation problem's size.
        budget_seconds: seconds allowed per evaluation problem.
    """

    size: ProblemSize
    budget_seconds: float


@dataclass(frozen=True)
class Growth:
    """A fitted power law ``y = a * n^exponent``.

    Attributes:
        basis: what was fitted: ``"time"`` (the measured seconds) or ``"work"`` (the lines of
            the program executed, which the profile counts exactly).
        measure: the size measure ``n``: ``"objects"`` or ``"init_atoms"``.
        exponent: the fitted exponent (at least 0).
        r_squared: the fit's coefficient of determination on ``log y`` (1.0 when ``y`` does
            not vary).
    """

    basis: str
    measure: str
    exponent: float
    r_squared: float


@dataclass(frozen=True)
class Measurement:
    """``get_plan`` on one training problem: its fastest call and the lines it executed.

    Attributes:
        problem: the problem's name.
        size: its size.
        seconds: the fastest of several calls.
        work: line events of the program in one call, or ``None`` when the profile stopped
            at its cap or failed.
    """

    problem: str
    size: ProblemSize
    seconds: float
    work: int | None = None

    def value(self, basis: str) -> float | None:
        """The measured ``time`` (seconds) or ``work`` (line events)."""
        return self.seconds if basis == "time" else (None if self.work is None else float(self.work))


def fit_power(points: Sequence[tuple[float, float]]) -> tuple[float, float] | None:
    """Least-squares fit of ``log y`` against ``log n`` over ``(n, y)`` points.

    Returns:
        ``(exponent, r_squared)``, the exponent at least 0; ``None`` with fewer than two
        distinct ``n`` (no growth can be seen).
    """
    logs = [(math.log(max(n, 1.0)), math.log(max(y, 1e-9))) for n, y in points]
    xs = [x for x, _ in logs]
    if len(set(xs)) < 2:
        return None
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(y for _, y in logs)
    sxx = sum((x - mean_x) ** 2 for x in xs)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in logs)
    syy = sum((y - mean_y) ** 2 for _, y in logs)
    r_squared = 1.0 if syy == 0 else (sxy * sxy) / (sxx * syy)
    return max(sxy / sxx, 0.0), r_squared


def larger_half(measurements: Sequence[Measurement], measure: str) -> list[Measurement]:
    """The measurements of the larger half of the sizes (all of them below four sizes): on
    small problems lower-order terms and fixed costs hide a program's growth, so it is fitted
    where it shows."""
    sizes = sorted({getattr(m.size, measure) for m in measurements})
    cut = sizes[len(sizes) // 2] if len(sizes) >= 4 else sizes[0]
    return [m for m in measurements if getattr(m.size, measure) >= cut]


def fit_growth(measurements: Sequence[Measurement], basis: str, measure: str) -> Growth | None:
    """The power law of ``basis`` against size ``measure``, fitted on :func:`larger_half`; times
    below :data:`TIMING_FLOOR_SECONDS` are left out (``None`` when fewer than two sizes remain)."""
    points = [
        (float(getattr(m.size, measure)), value)
        for m in (larger_half(measurements, measure) if measurements else [])
        if (value := m.value(basis)) is not None and (basis != "time" or value >= TIMING_FLOOR_SECONDS)
    ]
    fitted = fit_power(points)
    return None if fitted is None else Growth(basis, measure, fitted[0], fitted[1])


def best_growth(measurements: Sequence[Measurement], basis: str) -> Growth | None:
    """The better fit of :data:`MEASURES` for ``basis`` (higher R², objects on a tie), or ``None``."""
    fits = [fit for measure, _ in MEASURES if (fit := fit_growth(measurements, basis, measure)) is not None]
    return max(fits, key=lambda fit: fit.r_squared) if fits else None


def project(measurements: Sequence[Measurement], growth: Growth, target: ProblemSize) -> float:
    """Seconds at ``target``: the time at the largest training size, times the growth of
    ``growth.basis`` from there to ``target`` (time follows work).

    The anchor is the median time of the problems of the largest size; a target no larger
    than that size projects the anchor's time.
    """
    largest = max(getattr(m.size, growth.measure) for m in measurements)
    anchor = statistics.median(m.seconds for m in measurements if getattr(m.size, growth.measure) == largest)
    ratio = getattr(target, growth.measure) / max(largest, 1)
    return anchor * max(ratio, 1.0) ** growth.exponent


@dataclass
class ScalingVerdict:
    """The outcome of a scaling check.

    Attributes:
        measurements: the training problems measured, in order of size.
        target: the size and budget checked against.
        fits: the growth fitted to the times and to the work (each where possible).
        growth: the fit whose projection is the larger (a program's time at small sizes hides
            its growth behind fixed costs that the work does not count, while work misses what
            library calls cost: each projection errs low, so the larger is kept), or ``None``.
        projected_seconds: the extrapolated time at the target size (``None`` without a fit).
        profiled_problem: the problem the hot lines come from, or ``None``.
        hot_lines: ``(line, count)`` of the program's most executed lines there.
        note: why no verdict could be given (a run that failed while being measured, too few sizes).
    """

    measurements: list[Measurement]
    target: ScalingTarget
    fits: list[Growth] = field(default_factory=list)
    growth: Growth | None = None
    projected_seconds: float | None = None
    profiled_problem: str | None = None
    hot_lines: list[tuple[int, int]] = field(default_factory=list)
    note: str | None = None

    @property
    def too_slow(self) -> bool:
        """Whether the projection exceeds the budget."""
        return self.projected_seconds is not None and self.projected_seconds > self.target.budget_seconds

    def feedback(self, program: str) -> str:
        """The scaling feedback message (only meaningful when :attr:`too_slow`)."""
        assert self.growth is not None and self.projected_seconds is not None
        source = program.splitlines()
        return texts.scaling_feedback(
            [
                texts.MeasuredRun(m.problem, m.size.objects, m.size.init_atoms, m.seconds)
                for m in self.measurements
            ],
            texts.Growth(self.growth.basis, dict(MEASURES)[self.growth.measure], self.growth.exponent),
            self.target.size.objects,
            self.target.size.init_atoms,
            self.projected_seconds,
            self.target.budget_seconds,
            self.profiled_problem,
            [
                texts.HotLine(line, count, source[line - 1] if 0 < line <= len(source) else "")
                for line, count in self.hot_lines[:HOT_LINES_SHOWN]
            ],
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (times rounded to microseconds)."""
        return {
            "measurements": [
                {
                    "problem": m.problem,
                    "objects": m.size.objects,
                    "init_atoms": m.size.init_atoms,
                    "seconds": round(m.seconds, 6),
                    "work": m.work,
                }
                for m in self.measurements
            ],
            "fits": [
                {
                    "basis": fit.basis,
                    "measure": fit.measure,
                    "exponent": round(fit.exponent, 3),
                    "r_squared": round(fit.r_squared, 3),
                }
                for fit in self.fits
            ],
            "basis": self.growth.basis if self.growth else None,
            "measure": self.growth.measure if self.growth else None,
            "exponent": round(self.growth.exponent, 3) if self.growth else None,
            "target": {
                "objects": self.target.size.objects,
                "init_atoms": self.target.size.init_atoms,
                "budget_seconds": self.target.budget_seconds,
            },
            "projected_seconds": None if self.projected_seconds is None else round(self.projected_seconds, 6),
            "too_slow": self.too_slow,
            "profiled_problem": self.profiled_problem,
            "hot_lines": [list(pair) for pair in self.hot_lines[:HOT_LINES_SHOWN]],
            "note": self.note,
        }


def _measure_time(program: str, problem: Problem, timeout: float, limits: Limits) -> dict[str, Any]:
    call = run_untrusted(
        program,
        TIME_HARNESS,
        [*program_arguments(problem.objects, problem.init, problem.goal), MIN_TIMED_SECONDS, MAX_TIMED_CALLS],
        timeout=timeout,
        limits=limits,
    )
    value: Any = call.value if call.status is RunStatus.SUCCESS and type(call.value) is dict else {}
    seconds = value.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        return {"seconds": None, "status": call.status.value}
    if not math.isfinite(seconds) or seconds < 0:
        return {"seconds": None, "status": call.status.value}
    return {"seconds": float(seconds), "status": call.status.value}


def _profile(program: str, problem: Problem, timeout: float, limits: Limits) -> dict[str, Any]:
    call = run_untrusted(
        program,
        PROFILE_HARNESS,
        [*program_arguments(problem.objects, problem.init, problem.goal), MAX_PROFILE_EVENTS],
        timeout=timeout,
        limits=limits,
    )
    value: Any = call.value if call.status is RunStatus.SUCCESS and type(call.value) is dict else {}
    lines: list[Any] = value["lines"] if type(value.get("lines")) is list else []
    pairs = [
        [line, count]
        for line, count in (pair for pair in lines if type(pair) is list and len(pair) == 2)
        if type(line) is int and type(count) is int
    ]
    events = value.get("events")
    complete = value.get("complete") is True and type(events) is int
    return {
        "lines": pairs[:HOT_LINES_SHOWN],
        "events": events if complete else None,
        "status": call.status.value,
    }


def problems_to_measure(training: Sequence[Problem]) -> list[Problem]:
    """The training problems the fits use, smallest first: the larger half of the sizes by
    objects and by initial atoms (see :func:`larger_half`); smaller ones are not measured."""
    keep: set[int] = set()
    for measure, _ in MEASURES:
        sizes = sorted({getattr(ProblemSize.of(p), measure) for p in training})
        cut = sizes[len(sizes) // 2] if len(sizes) >= 4 else sizes[0]
        keep |= {i for i, p in enumerate(training) if getattr(ProblemSize.of(p), measure) >= cut}
    chosen = [training[i] for i in sorted(keep)]
    return sorted(chosen, key=lambda p: (len(p.objects), len(p.init)))


def check_scaling(
    program: str,
    training: Sequence[Problem],
    target: ScalingTarget,
    *,
    timeout: float,
    limits: Limits,
    observations: Observations | None = None,
) -> ScalingVerdict:
    """Time and profile ``program`` on the larger training problems, fit its growth, project it to ``target``.

    Args:
        program: a program that solved every training problem.
        training: the training problems.
        target: the largest evaluation size and its budget.
        timeout: the sandbox budget of each timing and profiling call (the training budget).
        limits: the sandbox's limits and isolation.
        observations: where measurements are recorded and reused (see :mod:`genplan.runs.observations`).

    Returns:
        The verdict; without a fit (fewer than two sizes, or a run that failed while being
        timed) it is never :attr:`~ScalingVerdict.too_slow` and its ``note`` says why.
    """
    observations = observations or Observations()
    measurements: list[Measurement] = []
    profiles: dict[str, dict[str, Any]] = {}
    for problem in problems_to_measure(training):
        timed = observations.get(
            observation_key("time", program, problem),
            functools.partial(_measure_time, program, problem, timeout, limits),
        )
        if timed.get("seconds") is None:
            note = f"{problem.name} could not be timed ({timed.get('status')})"
            return ScalingVerdict(measurements, target, note=note)
        profile = observations.get(
            observation_key("profile", program, problem),
            functools.partial(_profile, program, problem, timeout, limits),
        )
        profiles[problem.name] = profile
        work = profile.get("events")
        measurements.append(
            Measurement(
                problem.name,
                ProblemSize.of(problem),
                float(timed["seconds"]),
                work if type(work) is int else None,
            )
        )
    verdict = fit_and_project(measurements, target)
    if verdict.growth is None:
        return verdict
    growth = verdict.growth
    largest = max(measurements, key=lambda m: (getattr(m.size, growth.measure), m.seconds))
    verdict.profiled_problem = largest.problem
    lines = profiles[largest.problem].get("lines", [])
    verdict.hot_lines = [(int(line), int(count)) for line, count in lines]
    return verdict


def fit_and_project(measurements: list[Measurement], target: ScalingTarget) -> ScalingVerdict:
    """The growth fitted to the times (those above :data:`TIMING_FLOOR_SECONDS`) and to the work,
    and the larger of their projections to ``target`` (no hot lines yet); without a fit the
    verdict's ``note`` says why."""
    fits = [fit for basis in ("time", "work") if (fit := best_growth(measurements, basis)) is not None]
    if not fits:
        sizes = len({m.size for m in measurements})
        note = (
            "fewer than two training problem sizes"
            if sizes < 2
            else f"times below {TIMING_FLOOR_SECONDS * 1000:g} ms are not fitted and the work was not counted"
        )
        return ScalingVerdict(measurements, target, note=note)
    projected, growth = max(
        ((project(measurements, fit, target.size), fit) for fit in fits), key=lambda p: p[0]
    )
    return ScalingVerdict(measurements, target, fits, growth, projected)
