"""Version 1 of the problem generators, kept unchanged so the runs made on them replay.

Only the generators whose output changed in version 2 are here (forest, gripper, heavy,
miconic); every other domain's version 1 is its current generator, whose output did not
change (``tests/test_generate.py`` checks both versions against recorded digests). The saved
runs in ``synthesized/`` were made on these problems (their ``metadata.json`` records
``"generators": "v1"``).
"""
