"""The saved runs the project ships: the files under ``synthesized/`` that git tracks.

A run a user saves into a clone (``genplan synthesize --save`` writes into the checkout's
``synthesized/``) is theirs, not the project's: the saved-run tests are about the shipped ones
only. Outside a git checkout (an installed package) every saved run is shipped.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from genplan.paths import data_folder


def shipped(pattern: str) -> list[Path]:
    """The shipped files under ``synthesized/`` matching glob ``pattern`` (e.g. ``*/*/program.py``), sorted."""
    root = data_folder("synthesized")
    found = sorted(root.glob(pattern))
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--", "."], cwd=root, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return found  # not a git checkout
    tracked = {(root / name).resolve() for name in listed.split("\0") if name}
    return [path for path in found if path.resolve() in tracked]
