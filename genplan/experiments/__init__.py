"""Stage 5, experiments: grids of runs of any approach, their records, tables and figures.

:mod:`.spec` and :mod:`.grid_file` describe a grid (flags or TOML); :mod:`.grid` runs it on an
engine from :mod:`.engines` (Dask by default), one :mod:`.cells` task per run, with the client
writing :mod:`.journal`'s JSON Lines; :mod:`.evaluation` fans a program's evaluation out per
problem; :mod:`.figure3` measures runtime against size; :mod:`.reports` writes the comparison
across approaches and the paper's tables and figures.
"""
