"""Shared test set-up: the tests folder is importable (fake programs, oracles) from every subfolder."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
