"""Stage 5, experiments: grids of runs, their records, tables and figures."""
