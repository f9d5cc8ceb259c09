"""Hand-written ASP encodings of the built-in domains in genplan's interface: TEST ORACLES ONLY.

They show that the interface can express each domain exactly (the successor check finds no
counterexample in them), give the approach's tests a correct encoding to break on purpose, and
measure clingo beside LAMA-first and the saved generalized plans (``scripts/bench_asp.py``).
They never stand in for a model's encoding, and nothing in ``genplan/`` reads them.
"""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "asp"
DOMAINS = ("delivery", "ferry", "forest", "gripper", "heavy", "miconic", "spanner")


def oracle_encoding(domain: str) -> str:
    """The oracle encoding of built-in ``domain`` (``tests/oracles/asp/<domain>.lp``)."""
    return (FOLDER / f"{domain}.lp").read_text()
