"""Confidence intervals for fractions solved, shared by the reports and the published figures."""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (Wilson, JASA 1927).

    Returns:
        ``(low, high)`` within [0, 1]; ``(0.0, 1.0)`` when ``trials`` is 0.

    Raises:
        ValueError: ``successes`` outside ``0..trials``.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be within 0..{trials}, got {successes}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
